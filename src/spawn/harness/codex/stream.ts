// Reads `codex exec --json` output on the shared parser skeleton
// (common/stream-parser.ts). Codex reports no cost; turns are the model
// responses: counted from the items (turns.ts, ADR 0017: never `turn.completed`,
// which comes once per exec) and from codex's session file (rollout.ts, ADR
// 0050: a response whose commands failed to start shows no item), whichever
// saw more; a failed turn is read for a usage limit (limit.ts); its error text
// has no raw escape sequence (ADR 0018).
import type { Tokens } from "../../../engine/events.ts";
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { AUTH_TEXT, authRefused } from "../common/auth-refused.ts";
import { lastLine } from "../common/json-documents.ts";
import { jsonStreamParser, type EventReader, type StreamCounters, type StreamEvent } from "../common/stream-parser.ts";
import { inclusiveTokens, sumTokens } from "../common/tokens.ts";
import type { ParsedSitting, ParserContext, StreamEnd, StreamParser } from "../types.ts";
import { codexRateLimit } from "./limit.ts";
import { rolloutCounter, type RolloutCounter } from "./rollout.ts";
import { codexTurnCounter, type CodexTurnCounter } from "./turns.ts";

/** Exit codes of `codex exec`: 0 done, 1 any failure (the stream says which),
 *  2 its argument parser rejected the command line. */
export const CODEX_EXIT_CODES = { ok: 0, failed: 1, usage: 2 } as const;

interface CodexState {
  usage: Tokens[];
  counter: CodexTurnCounter;
  /** The session file's count; absent when the parser was given no environment (fixtures). */
  rollout?: RolloutCounter;
  /** A `turn.completed` was seen. */
  completed: boolean;
  lastMessage: string;
  turnFailed?: string;
  lastError?: string;
}

export function createCodexParser(ctx?: ParserContext): StreamParser {
  return jsonStreamParser(CODEX_READER, ctx);
}

/** The model responses seen: by the items, or by the session file when it saw more. */
const turnsOf = (s: CodexState) => Math.max(s.counter.turns, s.rollout?.responses ?? 0);

const CODEX_READER: EventReader<CodexState> = {
  name: "codex",
  state: (ctx) => ({
    usage: [],
    counter: codexTurnCounter(),
    completed: false,
    lastMessage: "",
    ...(ctx ? { rollout: rolloutCounter({ env: ctx.env, startedAt: ctx.startedAt }) } : {}),
  }),
  read: readEvent,
  poll: (s, c) => s.rollout?.read(c.sessionId) === true && s.rollout.responses > s.counter.turns,
  numbers: (s) => ({ turns: turnsOf(s), ...(s.usage.length > 0 ? { tokens: sumTokens(s.usage) } : {}) }),
  decide,
  limit: (s, ctx) => {
    const message = s.turnFailed ?? s.lastError;
    const stop = codexRateLimit(message, ctx);
    return stop ? { stop, said: message ?? "" } : null;
  },
  // As for gemini (ADR 0018): no raw escape sequence from the CLI reaches a record.
  sanitizeError: true,
};

function readEvent(event: StreamEvent, s: CodexState, c: StreamCounters): boolean {
  switch (event.type) {
    case "thread.started":
      if (typeof event.thread_id === "string") c.sessionId = event.thread_id;
      return false;
    case "turn.completed":
      s.counter.turnCompleted();
      s.completed = true;
      if (isObject(event.usage))
        s.usage.push(inclusiveTokens(event.usage.input_tokens, event.usage.cached_input_tokens, event.usage.output_tokens));
      return true;
    case "turn.failed":
      s.turnFailed = isObject(event.error) && typeof event.error.message === "string" ? event.error.message : "turn failed";
      return false;
    case "error":
      // Non-fatal retries look like this too: only the exit status tells.
      if (typeof event.message === "string") s.lastError = event.message;
      return false;
    case "item.started":
    case "item.updated":
    case "item.completed":
      if (!isObject(event.item)) return false;
      s.counter.item(event.type.slice(5) as "started" | "updated" | "completed", event.item.type, event.item.id);
      return readItem(event.item, event.type === "item.completed", s, c);
    default:
      return false;
  }
}

function readItem(item: JsonObject, itemCompleted: boolean, s: CodexState, c: StreamCounters): boolean {
  switch (item.type) {
    case "agent_message":
      if (itemCompleted && typeof item.text === "string") s.lastMessage = item.text;
      if (typeof item.text === "string") c.activity = lastLine(item.text, 120);
      return true;
    case "command_execution":
      c.activity = `command ${typeof item.command === "string" ? lastLine(item.command, 100) : ""}`.trim();
      return true;
    case "mcp_tool_call":
      c.activity = `tool ${typeof item.tool === "string" ? item.tool : "mcp"}`;
      return true;
    case "file_change":
      c.activity = "file change";
      return true;
    case "web_search":
      c.activity = "web search";
      return true;
    case "error":
      if (typeof item.message === "string") s.lastError = item.message;
      return false;
    default:
      return false;
  }
}

function decide(s: CodexState, c: StreamCounters, end: StreamEnd, garbage: string): ParsedSitting {
  const base = {
    resultText: s.lastMessage,
    turns: c.eventsSeen > 0 ? turnsOf(s) : null,
    costUsd: null, // Codex reports no cost: unknown, never 0.
    tokens: s.usage.length > 0 ? sumTokens(s.usage) : null,
    permissionDenials: 0,
    ...(c.sessionId ? { sessionId: c.sessionId } : {}),
  };
  if (end.exit === CODEX_EXIT_CODES.usage && c.eventsSeen === 0) {
    return {
      ...base,
      stopReason: "unavailable",
      error: `codex rejected vouch's arguments (exit 2): ${lastLine(end.stderrTail)} (run \`vouch doctor\`)`,
    };
  }
  if (s.turnFailed !== undefined) {
    // A refused key is no crash: the sitting cannot run until the key is fixed.
    if (AUTH_TEXT.test(s.turnFailed)) return { ...base, ...authRefused("codex", s.turnFailed) };
    return { ...base, stopReason: "crashed", error: `codex turn failed: ${s.turnFailed}` };
  }
  if (end.exit === 0 && s.completed) return { ...base, stopReason: "complete" };
  const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
  const why = s.lastError ?? lastLine(end.stderrTail) ?? "";
  const what = end.exit === 0 ? "codex ended without a completed turn" : `codex failed (${how})`;
  return { ...base, stopReason: "crashed", error: `${what}${why ? `: ${why}` : ""}${garbage}` };
}
