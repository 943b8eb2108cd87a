// Reads `gemini --output-format stream-json` output on the shared parser
// skeleton (common/stream-parser.ts). Gemini reports no cost: turns are
// counted from the stream (a model turn starts at the first model output after
// a tool result). Its loop detection ("Loop detected, stopping execution",
// then a `success` result with no answer) is a stop by the harness itself:
// stop reason `loop`. Its documented exit codes name what stopped it; an HTTP
// failure exits with the status modulo 256, read for a usage limit (limit.ts).
import type { StopReason } from "../../../engine/events.ts";
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { sanitize } from "../../../text/sanitize.ts";
import { AUTH_HTTP_STATUSES, AUTH_TEXT, authRefused } from "../common/auth-refused.ts";
import { lastLine } from "../common/json-documents.ts";
import { jsonStreamParser, type EventReader, type StreamCounters, type StreamEvent } from "../common/stream-parser.ts";
import { inclusiveTokens } from "../common/tokens.ts";
import type { ParsedSitting, StreamEnd, StreamParser } from "../types.ts";
import { geminiRateLimit } from "./limit.ts";

type Json = JsonObject;

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

interface GeminiState {
  turns: number;
  inModelTurn: boolean;
  turnText: string;
  lastText: string;
  result?: Json;
  lastError?: string;
  loopDetected: boolean;
}

export function createGeminiParser(): StreamParser {
  return jsonStreamParser(GEMINI_READER);
}

const GEMINI_READER: EventReader<GeminiState> = {
  name: "gemini",
  state: () => ({ turns: 0, inModelTurn: false, turnText: "", lastText: "", loopDetected: false }),
  read: readEvent,
  numbers: (s) => ({ turns: s.turns, ...(s.result && isObject(s.result.stats) ? { tokens: statsTokens(s.result.stats) } : {}) }),
  reported: (s) => s.result !== undefined,
  decide,
  limit: (s, ctx, end) => {
    const why = whyOf(s, end);
    const stop = geminiRateLimit(end.exit, why, ctx);
    return stop ? { stop, said: why } : null;
  },
  // ADR 0018: no raw escape sequence from the CLI reaches a record — its own text (whyOf) nor a
  // value it reported that an error quotes (a result's status).
  sanitizeError: true,
};

function startModelOutput(s: GeminiState): void {
  if (s.inModelTurn) return;
  s.inModelTurn = true;
  s.turns += 1;
  s.turnText = "";
}

function readEvent(event: StreamEvent, s: GeminiState, c: StreamCounters): boolean {
  switch (event.type) {
    case "init":
      if (typeof event.session_id === "string") c.sessionId = event.session_id;
      return false;
    case "message": {
      if (event.role !== "assistant" && event.role !== "model") return false;
      const fresh = !s.inModelTurn;
      startModelOutput(s);
      const content = typeof event.content === "string" ? event.content : "";
      s.turnText = event.delta === true ? s.turnText + content : content;
      if (s.turnText.trim() !== "") s.lastText = s.turnText;
      c.activity = lastLine(s.turnText, 120) || c.activity;
      return fresh || content !== "";
    }
    case "tool_use":
      startModelOutput(s);
      c.activity = `tool ${typeof event.tool_name === "string" ? event.tool_name : "?"}`;
      return true;
    case "tool_result":
      s.inModelTurn = false;
      return false;
    case "error":
      if (typeof event.message === "string") readError(event.message, s);
      return false;
    case "result":
      s.result = event;
      return true;
    default:
      return false;
  }
}

function readError(message: string, s: GeminiState): void {
  s.lastError = message;
  if (!message.startsWith(GEMINI_LOOP_MESSAGE)) return;
  s.loopDetected = true;
  // The response that repeated itself was streamed but not shown: count it.
  if (!s.inModelTurn) s.turns += 1;
  s.inModelTurn = true;
}

/** What gemini said went wrong. It colours its fatal messages even in a pipe: no raw ESC reaches a record. */
function whyOf(s: GeminiState, end: StreamEnd): string {
  return sanitize(s.lastError ?? resultError(s.result) ?? lastLine(sanitize(end.stderrTail)) ?? "");
}

function decide(s: GeminiState, c: StreamCounters, end: StreamEnd, garbage: string): ParsedSitting {
  const why = whyOf(s, end);
  const result = s.result;
  const base = {
    resultText: s.lastText,
    turns: c.eventsSeen > 0 ? s.turns : null,
    costUsd: null, // Gemini reports no USD figure: unknown, never 0.
    tokens: result && isObject(result.stats) ? statsTokens(result.stats) : null,
    permissionDenials: 0,
    ...(c.sessionId ? { sessionId: c.sessionId } : {}),
  };
  const known = end.exit !== null ? GEMINI_EXIT_CODES[end.exit] : undefined;
  const http = httpStatusOfExit(end.exit);
  if (known && end.exit !== 41)
    return { ...base, stopReason: known.stopReason, error: `gemini: ${known.what} (exit ${end.exit})${why ? `: ${why}` : ""}` };
  if (s.loopDetected)
    return {
      ...base,
      stopReason: "loop",
      error: `gemini stopped itself: ${GEMINI_LOOP_MESSAGE} (exit ${end.exit ?? end.signal ?? "unknown"})`,
    };
  if (result?.status === "success" && end.exit === 0) return { ...base, stopReason: "complete" };
  if (end.exit === 41 || AUTH_HTTP_STATUSES.includes(http ?? 0) || (result?.status === "error" && AUTH_TEXT.test(why)))
    return { ...base, ...authRefused("gemini", `${end.exit === 41 ? `${known!.what} ` : ""}(exit ${end.exit})${why ? `: ${why}` : ""}`) };
  const status = http !== null ? ` (exit ${end.exit}: HTTP ${http})` : "";
  if (result?.status === "error")
    return { ...base, stopReason: "crashed", error: `gemini reported an error${status}: ${why || "no message"}` };
  const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
  const what = result
    ? `gemini ended with result status "${String(result.status)}" (${how})`
    : `gemini output ended with no result event (${how})`;
  return { ...base, stopReason: "crashed", error: `${what}${why ? `: ${why}` : ""}${garbage}` };
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
