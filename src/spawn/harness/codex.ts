// The Codex CLI adapter: `codex exec --json -` with the prompt on stdin (then
// closed), so model text never sits on a command line and nothing blocks on
// "Reading additional input from stdin". Codex has no turn or budget flag and
// reports no cost: turns are counted from the stream (codex-turns.ts, ADR 0017: one per
// model response, never `turn.completed`, which comes once per exec) and
// supervised by the runner's backstop; a budget cap is refused. permission_mode
// takes Codex's own sandbox names (-s). vouch chose the working folder, so it
// passes --skip-git-repo-check (ADR 0018): codex otherwise refuses any folder
// outside a git repository.
import type { AgentAssignment, SittingProgress } from "../../engine/ports.ts";
import type { Tokens } from "../../engine/events.ts";
import { inclusiveTokens, sumTokens } from "./tokens.ts";
import { JsonDocumentReader, lastLine, typedEvent } from "./json-documents.ts";
import { supervision } from "./argv-format.ts";
import { codexTurnCounter } from "./codex-turns.ts";
import { sanitize } from "../../text/sanitize.ts";
import { codexSessionArgs } from "./session-args.ts";
import { SESSION_SUPPORT } from "../../engine/sessions.ts";
import { withCodexRateLimit } from "./rate-limit.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, ParsedSitting, StreamEnd, StreamParser } from "./types.ts";
import { isObject, type JsonObject } from "../../engine/json-object.ts";

export const CODEX_GUARANTEES: Guarantees = {
  caps: { turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: true,
  tools: false,
  permissionMode: true,
};

/** Exit codes of `codex exec`: 0 done, 1 any failure (the stream says which),
 *  2 its argument parser rejected the command line. */
export const CODEX_EXIT_CODES = { ok: 0, failed: 1, usage: 2 } as const;

export const CODEX_SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

export function buildCodexCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["codex", "exec", "--json", "--skip-git-repo-check"];
  // Values always in the `=` form (clap reads --model=--x as the value "--x"):
  // a value can never be read as a flag (ADR 0019).
  if (a.model !== undefined) argv.push(`--model=${a.model}`);
  if (a.permissionMode !== undefined) argv.push(`--sandbox=${a.permissionMode}`);
  // resume/fork is exec's subcommand: after exec's options, before the prompt.
  argv.push(...codexSessionArgs(a.session));
  argv.push("-"); // read the prompt from stdin
  return { argv, stdin: a.prompt, ...supervision(CODEX_GUARANTEES, a) };
}

type Json = JsonObject;

export function createCodexParser(): StreamParser {
  const reader = new JsonDocumentReader();
  const usage: Tokens[] = [];
  const counter = codexTurnCounter();
  let completed = false;
  let sessionId: string | undefined;
  let lastMessage = "";
  let activity: string | undefined;
  let turnFailed: string | undefined;
  let lastError: string | undefined;
  let eventsSeen = 0;

  const progress = (): SittingProgress => ({
    turns: counter.turns,
    ...(usage.length > 0 ? { tokens: sumTokens(usage) } : {}),
    ...(activity !== undefined ? { activity } : {}),
  });

  const handle = (value: unknown): boolean => {
    const event = typedEvent(value);
    if (!event) return false;
    eventsSeen += 1;
    switch (event.type) {
      case "thread.started":
        if (typeof event.thread_id === "string") sessionId = event.thread_id;
        return false;
      case "turn.completed":
        counter.turnCompleted();
        completed = true;
        if (isObject(event.usage))
          usage.push(inclusiveTokens(event.usage.input_tokens, event.usage.cached_input_tokens, event.usage.output_tokens));
        return true;
      case "turn.failed":
        turnFailed = isObject(event.error) && typeof event.error.message === "string" ? event.error.message : "turn failed";
        return false;
      case "error":
        // Non-fatal retries look like this too: only the exit status tells.
        if (typeof event.message === "string") lastError = event.message;
        return false;
      case "item.started":
      case "item.updated":
      case "item.completed":
        if (!isObject(event.item)) return false;
        counter.item(event.type.slice(5) as "started" | "updated" | "completed", event.item.type, event.item.id);
        return handleItem(event.item, event.type === "item.completed");
      default:
        return false;
    }
  };

  const handleItem = (item: Json, completed: boolean): boolean => {
    switch (item.type) {
      case "agent_message":
        if (completed && typeof item.text === "string") lastMessage = item.text;
        if (typeof item.text === "string") activity = lastLine(item.text, 120);
        return true;
      case "command_execution":
        activity = `command ${typeof item.command === "string" ? lastLine(item.command, 100) : ""}`.trim();
        return true;
      case "mcp_tool_call":
        activity = `tool ${typeof item.tool === "string" ? item.tool : "mcp"}`;
        return true;
      case "file_change":
        activity = "file change";
        return true;
      case "web_search":
        activity = "web search";
        return true;
      case "error":
        if (typeof item.message === "string") lastError = item.message;
        return false;
      default:
        return false;
    }
  };

  return {
    feed: (line) => (reader.feed(line).map(handle).some(Boolean) ? progress() : null),
    progress,
    finish(end: StreamEnd): ParsedSitting {
      reader.finish().forEach(handle);
      const sitting = withCodexRateLimit(decide(end), turnFailed ?? lastError, end);
      // As for gemini (ADR 0018): no raw escape sequence from the CLI reaches a record.
      return sitting.error === undefined ? sitting : { ...sitting, error: sanitize(sitting.error) };
    },
  };

  function decide(end: StreamEnd): ParsedSitting {
    const base = {
      resultText: lastMessage,
      turns: eventsSeen > 0 ? counter.turns : null,
      costUsd: null, // Codex reports no cost: unknown, never 0.
      tokens: usage.length > 0 ? sumTokens(usage) : null,
      permissionDenials: 0,
      ...(sessionId ? { sessionId } : {}),
    };
    if (end.exit === CODEX_EXIT_CODES.usage && eventsSeen === 0) {
      return {
        ...base,
        stopReason: "unavailable",
        error: `codex rejected vouch's arguments (exit 2): ${lastLine(end.stderrTail)} (run \`vouch doctor\`)`,
      };
    }
    if (turnFailed !== undefined) {
      // A refused key is no crash: the sitting cannot run until the key is fixed.
      const auth = /\b401\b|unauthorized/i.test(turnFailed);
      return { ...base, stopReason: auth ? "unavailable" : "crashed", error: `codex turn failed: ${turnFailed}` };
    }
    if (end.exit === 0 && completed) return { ...base, stopReason: "complete" };
    const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
    const why = lastError ?? lastLine(end.stderrTail) ?? "";
    const what = end.exit === 0 ? "codex ended without a completed turn" : `codex failed (${how})`;
    return { ...base, stopReason: "crashed", error: `${what}${why ? `: ${why}` : ""}${reader.garbageNote()}` };
  }
}

export const codexAdapter: HarnessAdapter = {
  name: "codex",
  binary: "codex",
  protocol: "json-stream",
  guarantees: CODEX_GUARANTEES,
  permissionModes: CODEX_SANDBOX_MODES,
  sessions: SESSION_SUPPORT.codex,
  buildCommand: buildCodexCommand,
  createParser: () => createCodexParser(),
};
