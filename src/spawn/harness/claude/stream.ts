// Reads Claude Code print-mode output (ADR 0005; real results in
// test/fixtures/claude-reference/) on the shared parser skeleton
// (common/stream-parser.ts): stream-json lines, the JSON array of
// `--output-format json --verbose`, or one result object (pretty-printed or
// not). Live progress comes from assistant messages and api_retry system
// lines; the verdict on the sitting comes from the result event only
// (result.ts) — never from the exit code.
//
// Turns are the model responses really made (ADR 0012): distinct assistant
// message ids, not claude's num_turns, which at a turns stop is one more than
// the responses made. An assistant message claude writes itself for an API
// error (model "<synthetic>") is no response, and a sub-agent's (its
// parent_tool_use_id set) is not under the sitting's --max-turns. Only a lone result object (no
// assistant lines to count) falls back to num_turns.
import type { Tokens } from "../../../engine/events.ts";
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { lastLine } from "../common/json-documents.ts";
import { jsonStreamParser, type EventReader, type StreamCounters, type StreamEvent } from "../common/stream-parser.ts";
import { claudeTokens, sumTokens } from "../common/tokens.ts";
import type { StreamEnd, StreamParser } from "../types.ts";
import { claudeLimitReading, claudeRateLimitInfo } from "./limit.ts";
import { fromResult, resultNumbers } from "./result.ts";

type Json = JsonObject;
const ACTIVITY_CHARS = 120;
/** The latest rejected rate_limit_events kept per sitting (claudeRateLimit reads the last usable one). */
const KEPT_LIMIT_EVENTS = 8;
/** What claude names the model of an assistant message it made up itself (an API error's text). */
const SYNTHETIC_MODEL = "<synthetic>";

interface ClaudeState {
  /** How messages name the output: "claude" for a process, "replay fixture x.jsonl" for a recording. */
  source: string;
  messageIds: Set<string>;
  usageById: Map<string, Tokens>;
  anonymousTurns: number;
  assistantLines: number;
  result?: Json;
  limitEvents: Json[];
}

const liveTurns = (s: ClaudeState) => s.messageIds.size + s.anonymousTurns;
const liveTokens = (s: ClaudeState): Tokens | undefined => (s.usageById.size === 0 ? undefined : sumTokens([...s.usageById.values()]));

/** @param source how messages name the output: "claude" for a process, "replay fixture x.jsonl" for a recording. */
export function createClaudeParser(source = "claude"): StreamParser {
  return jsonStreamParser(claudeReader(source));
}

function claudeReader(source: string): EventReader<ClaudeState> {
  return {
    name: "claude",
    arrays: true,
    state: () => ({ source, messageIds: new Set(), usageById: new Map(), anonymousTurns: 0, assistantLines: 0, limitEvents: [] }),
    read: readEvent,
    numbers(s) {
      if (!s.result) {
        const tokens = liveTokens(s);
        return { turns: liveTurns(s), ...(tokens ? { tokens } : {}) };
      }
      const r = resultNumbers(s.result);
      const turns = s.assistantLines > 0 ? liveTurns(s) : r.turns;
      return {
        ...(turns !== null ? { turns } : {}),
        ...(r.costUsd !== null ? { costUsd: r.costUsd } : {}),
        ...(r.tokens ? { tokens: r.tokens } : {}),
      };
    },
    reported: (s) => s.result !== undefined,
    decide,
    limit: (s, ctx) => (s.result ? claudeLimitReading(s.result, s.limitEvents, ctx) : null),
  };
}

/** Returns true when the event changed the progress. */
function readEvent(event: StreamEvent, s: ClaudeState, c: StreamCounters): boolean {
  switch (event.type) {
    case "system":
      if (typeof event.session_id === "string") c.sessionId = event.session_id;
      if (event.subtype !== "api_retry") return false;
      c.apiRetries += 1;
      c.activity = retryActivity(event, c.apiRetries);
      return true;
    case "assistant":
      return readAssistant(event, s, c);
    case "result":
      s.result = event;
      if (typeof event.session_id === "string") c.sessionId = event.session_id;
      return true;
    case "rate_limit_event": {
      // Only a rejected one can name the reset, and only the latest are read: a stream of
      // these lines (hostile or long) must not grow the list without end.
      const info = claudeRateLimitInfo(event);
      if (info?.status === "rejected") {
        s.limitEvents.push(info);
        if (s.limitEvents.length > KEPT_LIMIT_EVENTS) s.limitEvents.shift();
      }
      return false;
    }
    default:
      // user (tool results), stream_event and types not invented yet.
      return false;
  }
}

function readAssistant(event: StreamEvent, s: ClaudeState, c: StreamCounters): boolean {
  s.assistantLines += 1;
  const message = asObject(event.message);
  // claude's own stand-in for a failed request: no model response, no turn.
  if (message?.model === SYNTHETIC_MODEL) return false;
  const id = typeof message?.id === "string" ? message.id : undefined;
  // A sub-agent's response (parent_tool_use_id set) is spent (its tokens count)
  // but is no turn: claude's --max-turns caps the main conversation only.
  const subAgent = typeof event.parent_tool_use_id === "string";
  if (!subAgent && id === undefined) s.anonymousTurns += 1;
  else if (!subAgent) s.messageIds.add(id!);
  const usage = asObject(message?.usage);
  if (usage) s.usageById.set(id ?? (subAgent ? `#sub${c.eventsSeen}` : `#${s.anonymousTurns}`), claudeTokens(usage));
  const latest = activityOf(message?.content);
  if (latest !== undefined) c.activity = latest;
  return true;
}

function decide(s: ClaudeState, c: StreamCounters, end: StreamEnd, garbage: string) {
  const retries = c.apiRetries > 0 ? { apiRetries: c.apiRetries } : {};
  const session = c.sessionId ? { sessionId: c.sessionId } : {};
  if (s.result) {
    const counted = s.assistantLines > 0 ? liveTurns(s) : null;
    return { ...fromResult(s.result, counted, liveTurns(s), liveTokens(s)), ...session, ...retries };
  }
  const tokens = liveTokens(s);
  return {
    ...retries,
    stopReason: "crashed" as const,
    resultText: "",
    turns: c.eventsSeen > 0 ? liveTurns(s) : null,
    costUsd: null,
    tokens: tokens ?? null,
    ...session,
    permissionDenials: 0,
    error: noResultError(s.source, end, garbage),
  };
}

/** The last tool call or line of text in a message's content, bounded. */
function activityOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  let latest: string | undefined;
  for (const block of content) {
    const b = asObject(block);
    if (b?.type === "tool_use" && typeof b.name === "string") latest = `tool ${b.name}`;
    else if (b?.type === "text" && typeof b.text === "string" && b.text.trim() !== "") latest = bound(lastLine(b.text, ACTIVITY_CHARS));
  }
  return latest;
}

/** "API retry 2/10, 429": an api_retry system line, for the live view. */
function retryActivity(event: Json, seen: number): string {
  const attempt = typeof event.attempt === "number" ? event.attempt : seen;
  const max = typeof event.max_retries === "number" ? `/${event.max_retries}` : "";
  const status =
    typeof event.error_status === "number" ? `, ${event.error_status}` : typeof event.error === "string" ? `, ${event.error}` : "";
  return bound(`API retry ${attempt}${max}${status}`);
}

function noResultError(source: string, end: StreamEnd, garbage: string): string {
  const how = end.signal ? ` (killed by ${end.signal})` : end.exit !== null ? ` (exit ${end.exit})` : "";
  const stderr = lastLine(end.stderrTail);
  return `${source} output ended with no result event${how}${stderr ? `: ${stderr}` : ""}${garbage}`;
}

function asObject(v: unknown): Json | undefined {
  return isObject(v) ? v : undefined;
}

function bound(text: string): string {
  return text.length > ACTIVITY_CHARS ? `${text.slice(0, ACTIVITY_CHARS)}…` : text;
}
