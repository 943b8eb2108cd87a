// The Gemini CLI adapter: `gemini --output-format stream-json -p TEXT`. The
// prompt goes on stdin (docs/architecture.md §7: prompts may carry model text, so they
// stay off the command line); `-p` is required for headless mode and its
// value is appended to stdin, so it carries one fixed sentence. Gemini has no
// turn or budget flag and reports no cost: turns are counted from the stream
// (a model turn starts at the first model output after a tool result) and
// supervised by the runner's backstop; a budget cap is refused. vouch chose
// the working folder, so it trusts it for the sitting (--skip-trust, ADR
// 0018): gemini otherwise exits 55 in any folder it was not told to trust.
// Its loop detection ("Loop detected, stopping execution", then a `success`
// result with no answer) is a stop by the harness itself: stop reason `loop`.
import { sanitize } from "../../text/sanitize.ts";
import { geminiSessionArgs } from "./session-args.ts";
import { SESSION_SUPPORT } from "../../engine/sessions.ts";
import { withGeminiRateLimit } from "./rate-limit.ts";
import type { AgentAssignment, SittingProgress } from "../../engine/ports.ts";
import type { StopReason } from "../../engine/events.ts";
import { JsonDocumentReader, lastLine, typedEvent } from "./json-documents.ts";
import { supervision } from "./argv-format.ts";
import { inclusiveTokens } from "./tokens.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, ParsedSitting, StreamEnd, StreamParser } from "./types.ts";
import { isObject, type JsonObject } from "../../engine/json-object.ts";

export const GEMINI_GUARANTEES: Guarantees = {
  caps: { turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: true,
  tools: false,
  permissionMode: true,
};

/** `gemini --approval-mode` choices. */
export const GEMINI_APPROVAL_MODES = ["default", "auto_edit", "yolo", "plan"] as const;

/** The fixed `-p` text; the real prompt comes first, on stdin. */
export const GEMINI_PROMPT_FLAG_TEXT = "Carry out the task given above.";

/** The message gemini's loop detection prints (an `error` event, severity warning). */
export const GEMINI_LOOP_MESSAGE = "Loop detected, stopping execution";

/** Documented exit codes of the Gemini CLI (its FatalError classes) and what
 *  they mean for a sitting; 1 (general error) is left to the stream. */
export const GEMINI_EXIT_CODES: Readonly<Record<number, { stopReason: StopReason; what: string }>> = {
  41: { stopReason: "unavailable", what: "authentication failed (set GEMINI_API_KEY and pass it with env:, or log in)" },
  42: { stopReason: "crashed", what: "invalid input" },
  44: { stopReason: "unavailable", what: "sandbox error" },
  52: { stopReason: "unavailable", what: "configuration error" },
  53: { stopReason: "turns", what: "its own session turn limit was reached (model.maxSessionTurns)" },
  54: { stopReason: "crashed", what: "fatal tool error" },
  55: { stopReason: "unavailable", what: "the folder is not trusted (vouch passes --skip-trust: is this gemini older than --skip-trust?)" },
  130: { stopReason: "cancelled", what: "interrupted" },
};

export function buildGeminiCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["gemini", "--output-format", "stream-json", "--skip-trust"];
  // Values always in the `=` form: yargs reads `-m --yolo` as the yolo flag,
  // `--model=--yolo` as the model "--yolo" (ADR 0019).
  if (a.model !== undefined) argv.push(`--model=${a.model}`);
  if (a.permissionMode !== undefined) argv.push(`--approval-mode=${a.permissionMode}`);
  argv.push(...geminiSessionArgs(a.session));
  argv.push("-p", GEMINI_PROMPT_FLAG_TEXT);
  return { argv, stdin: a.prompt, ...supervision(GEMINI_GUARANTEES, a) };
}

type Json = JsonObject;

export function createGeminiParser(): StreamParser {
  const reader = new JsonDocumentReader();
  let turns = 0;
  let inModelTurn = false;
  let turnText = "";
  let lastText = "";
  let sessionId: string | undefined;
  let activity: string | undefined;
  let result: Json | undefined;
  let lastError: string | undefined;
  let loopDetected = false;
  let eventsSeen = 0;

  const startModelOutput = () => {
    if (inModelTurn) return;
    inModelTurn = true;
    turns += 1;
    turnText = "";
  };
  const progress = (): SittingProgress => ({
    turns,
    ...(result && isObject(result.stats) ? { tokens: statsTokens(result.stats) } : {}),
    ...(activity !== undefined ? { activity } : {}),
  });

  const handle = (value: unknown): boolean => {
    const event = typedEvent(value);
    if (!event) return false;
    eventsSeen += 1;
    switch (event.type) {
      case "init":
        if (typeof event.session_id === "string") sessionId = event.session_id;
        return false;
      case "message": {
        if (event.role !== "assistant" && event.role !== "model") return false;
        const fresh = !inModelTurn;
        startModelOutput();
        const content = typeof event.content === "string" ? event.content : "";
        turnText = event.delta === true ? turnText + content : content;
        if (turnText.trim() !== "") lastText = turnText;
        activity = lastLine(turnText, 120) || activity;
        return fresh || content !== "";
      }
      case "tool_use":
        startModelOutput();
        activity = `tool ${typeof event.tool_name === "string" ? event.tool_name : "?"}`;
        return true;
      case "tool_result":
        inModelTurn = false;
        return false;
      case "error":
        if (typeof event.message === "string") {
          lastError = event.message;
          if (event.message.startsWith(GEMINI_LOOP_MESSAGE)) {
            loopDetected = true;
            // The response that repeated itself was streamed but not shown: count it.
            if (!inModelTurn) turns += 1;
            inModelTurn = true;
          }
        }
        return false;
      case "result":
        result = event;
        return true;
      default:
        return false;
    }
  };

  return {
    feed: (line) => (reader.feed(line).map(handle).some(Boolean) ? progress() : null),
    progress,
    reported: () => result !== undefined,
    finish(end: StreamEnd): ParsedSitting {
      reader.finish().forEach(handle);
      // Gemini colours its fatal messages even in a pipe: no raw ESC reaches a record.
      const why = sanitize(lastError ?? resultError(result) ?? lastLine(sanitize(end.stderrTail)) ?? "");
      return withGeminiRateLimit(decide(end, why), end.exit, why, end);
    },
  };

  function decide(end: StreamEnd, why: string): ParsedSitting {
    const base = {
      resultText: lastText,
      turns: eventsSeen > 0 ? turns : null,
      costUsd: null, // Gemini reports no USD figure: unknown, never 0.
      tokens: result && isObject(result.stats) ? statsTokens(result.stats) : null,
      permissionDenials: 0,
      ...(sessionId ? { sessionId } : {}),
    };
    const known = end.exit !== null ? GEMINI_EXIT_CODES[end.exit] : undefined;
    const http = httpStatusOfExit(end.exit);
    if (known) return { ...base, stopReason: known.stopReason, error: `gemini: ${known.what} (exit ${end.exit})${why ? `: ${why}` : ""}` };
    if (loopDetected)
      return {
        ...base,
        stopReason: "loop",
        error: `gemini stopped itself: ${GEMINI_LOOP_MESSAGE} (exit ${end.exit ?? end.signal ?? "unknown"})`,
      };
    if (result?.status === "success" && end.exit === 0) return { ...base, stopReason: "complete" };
    if (http === 401 || http === 403 || (result?.status === "error" && /\b401\b|UNAUTHENTICATED|API key not valid/.test(why))) {
      return { ...base, stopReason: "unavailable", error: `gemini: the API key was refused: ${why}` };
    }
    const status = http !== null ? ` (exit ${end.exit}: HTTP ${http})` : "";
    if (result?.status === "error")
      return { ...base, stopReason: "crashed", error: `gemini reported an error${status}: ${why || "no message"}` };
    const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
    const what = result
      ? `gemini ended with result status "${String(result.status)}" (${how})`
      : `gemini output ended with no result event (${how})`;
    return { ...base, stopReason: "crashed", error: `${what}${why ? `: ${why}` : ""}${reader.garbageNote()}` };
  }
}

/** Gemini exits with the HTTP status of a failed API call, taken modulo 256
 *  (429 exits 173, 500 exits 244). Only 400..511 are read back (exits
 *  144..255): a higher status would wrap onto the documented codes. */
export function httpStatusOfExit(exit: number | null): number | null {
  if (exit === null || exit < 144 || exit > 255) return null;
  return exit + 256;
}

function resultError(result: Json | undefined): string | undefined {
  const error = result?.error;
  if (typeof error === "string") return error;
  if (isObject(error) && typeof error.message === "string") return error.message;
  return undefined;
}

/** stats.input_tokens includes the cached part (`cached`). */
function statsTokens(stats: Json) {
  return inclusiveTokens(stats.input_tokens, stats.cached, stats.output_tokens);
}

export const geminiAdapter: HarnessAdapter = {
  name: "gemini",
  binary: "gemini",
  protocol: "json-stream",
  guarantees: GEMINI_GUARANTEES,
  permissionModes: GEMINI_APPROVAL_MODES,
  sessions: SESSION_SUPPORT.gemini,
  buildCommand: buildGeminiCommand,
  createParser: () => createGeminiParser(),
};
