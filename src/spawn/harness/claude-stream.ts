// Reads Claude Code print-mode output (ADR 0005; real results in
// test/fixtures/claude-reference/): stream-json
// lines, the JSON array of `--output-format json --verbose`, or one result
// object (pretty-printed or not). Live progress comes from assistant messages
// and api_retry system lines; the verdict on the sitting comes from the result
// event only — its subtype, is_error, api_error_status and terminal_reason —
// never from the exit code.
//
// Turns are the model responses really made (ADR 0012): distinct assistant
// message ids, not claude's num_turns, which at a turns stop is one more than
// the responses made. An assistant message claude writes itself for an API
// error (model "<synthetic>") is no response, and a sub-agent's (its
// parent_tool_use_id set) is not under the sitting's --max-turns. Only a lone result object (no
// assistant lines to count) falls back to num_turns.
import type { SittingProgress } from "../../engine/ports.ts";
import type { StopReason, Tokens } from "../../engine/events.ts";
import { JsonDocumentReader, lastLine, typedEvent } from "./json-documents.ts";
import type { ParsedSitting, StreamEnd, StreamParser } from "./types.ts";
import { claudeTokens, sumTokens } from "./tokens.ts";
import { isObject, type JsonObject } from "../../engine/json-object.ts";
import { claudeRateLimitInfo, withClaudeRateLimit } from "./rate-limit.ts";

type Json = JsonObject;
const ACTIVITY_CHARS = 120;

/** @param source how messages name the output: "claude" for a process, "replay fixture x.jsonl" for a recording. */
/** The latest rejected rate_limit_events kept per sitting (claudeRateLimit reads the last usable one). */
const KEPT_LIMIT_EVENTS = 8;

export function createClaudeParser(source = "claude"): StreamParser {
  const reader = new JsonDocumentReader();
  const messageIds = new Set<string>();
  const usageById = new Map<string, Tokens>();
  let anonymousTurns = 0;
  let assistantLines = 0;
  let apiRetries = 0;
  let sessionId: string | undefined;
  let activity: string | undefined;
  let result: Json | undefined;
  let eventsSeen = 0;
  const limitEvents: JsonObject[] = [];

  const liveTurns = () => messageIds.size + anonymousTurns;
  const liveTokens = (): Tokens | undefined => (usageById.size === 0 ? undefined : sumTokens([...usageById.values()]));

  const progress = (): SittingProgress => {
    const p: SittingProgress = {};
    if (result) {
      const r = resultNumbers(result);
      const turns = assistantLines > 0 ? liveTurns() : r.turns;
      if (turns !== null) p.turns = turns;
      if (r.costUsd !== null) p.costUsd = r.costUsd;
      if (r.tokens) p.tokens = r.tokens;
    } else {
      p.turns = liveTurns();
      const tokens = liveTokens();
      if (tokens) p.tokens = tokens;
    }
    if (activity !== undefined) p.activity = activity;
    if (apiRetries > 0) p.apiRetries = apiRetries;
    return p;
  };

  /** Returns true when the event changed the progress. */
  const handle = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.map(handle).some(Boolean);
    const event = typedEvent(value);
    if (!event) return false;
    eventsSeen += 1;
    switch (event.type) {
      case "system":
        if (typeof event.session_id === "string") sessionId = event.session_id;
        if (event.subtype !== "api_retry") return false;
        apiRetries += 1;
        activity = retryActivity(event, apiRetries);
        return true;
      case "assistant": {
        assistantLines += 1;
        const message = asObject(event.message);
        // claude's own stand-in for a failed request: no model response, no turn.
        if (message?.model === SYNTHETIC_MODEL) return false;
        const id = typeof message?.id === "string" ? message.id : undefined;
        // A sub-agent's response (parent_tool_use_id set) is spent (its tokens count)
        // but is no turn: claude's --max-turns caps the main conversation only.
        const subAgent = typeof event.parent_tool_use_id === "string";
        if (!subAgent && id === undefined) anonymousTurns += 1;
        else if (!subAgent) messageIds.add(id!);
        const usage = asObject(message?.usage);
        if (usage) usageById.set(id ?? (subAgent ? `#sub${eventsSeen}` : `#${anonymousTurns}`), claudeTokens(usage));
        const latest = activityOf(message?.content);
        if (latest !== undefined) activity = latest;
        return true;
      }
      case "result":
        result = event;
        if (typeof event.session_id === "string") sessionId = event.session_id;
        return true;
      case "rate_limit_event": {
        // Only a rejected one can name the reset, and only the latest are read: a stream of
        // these lines (hostile or long) must not grow the list without end.
        const info = claudeRateLimitInfo(event);
        if (info?.status === "rejected") {
          limitEvents.push(info);
          if (limitEvents.length > KEPT_LIMIT_EVENTS) limitEvents.shift();
        }
        return false;
      }
      default:
        // user (tool results), stream_event and types not invented yet.
        return false;
    }
  };

  return {
    feed(line) {
      const changed = reader.feed(line).map(handle).some(Boolean);
      return changed ? progress() : null;
    },
    progress,
    reported: () => result !== undefined,
    finish(end: StreamEnd): ParsedSitting {
      reader.finish().forEach(handle);
      const retries = apiRetries > 0 ? { apiRetries } : {};
      if (result) {
        const counted = assistantLines > 0 ? liveTurns() : null;
        const parsed = { ...fromResult(result, counted, liveTurns(), liveTokens()), ...(sessionId ? { sessionId } : {}), ...retries };
        return withClaudeRateLimit(parsed, result, limitEvents, end);
      }
      const tokens = liveTokens();
      return {
        ...retries,
        stopReason: "crashed",
        resultText: "",
        turns: eventsSeen > 0 ? liveTurns() : null,
        costUsd: null,
        tokens: tokens ?? null,
        ...(sessionId ? { sessionId } : {}),
        permissionDenials: 0,
        error: noResultError(source, end, reader),
      };
    },
  };
}

/** The verdict a result event carries. Exported for tests: it is the whole mapping. */
export function classifyClaudeResult(result: Json): { stopReason: StopReason; error?: string } {
  const subtype = typeof result.subtype === "string" ? result.subtype : "";
  const terminal = typeof result.terminal_reason === "string" ? result.terminal_reason : "";
  const errors = Array.isArray(result.errors) ? result.errors.filter((e) => typeof e === "string").join("; ") : "";
  const text = typeof result.result === "string" ? result.result : "";
  const denials = Array.isArray(result.permission_denials) ? result.permission_denials.length : 0;
  if (subtype === "error_max_turns" || terminal === "max_turns") {
    return { stopReason: "turns", error: errors || "claude stopped at its turn limit" };
  }
  if (subtype === "error_max_budget_usd" || terminal === "budget_exhausted") {
    return { stopReason: "budget", error: errors || "claude stopped at its budget limit" };
  }
  const apiStatus = result.api_error_status;
  if (subtype === "success") {
    if (result.is_error !== true && (apiStatus === null || apiStatus === undefined)) return { stopReason: "complete" };
    // An API error (rate limit, expired login) arrives as a "success" with is_error.
    const status = apiStatus !== null && apiStatus !== undefined ? `API error ${String(apiStatus)}: ` : "";
    return { stopReason: "crashed", error: `claude reported an error: ${status}${lastLine(text) || errors || "no message"}` };
  }
  const why = errors || lastLine(text) || "no message";
  if (subtype === "error_during_execution") {
    if (denials > 0) return { stopReason: "denied", error: `claude stopped after ${denials} permission denial(s): ${why}` };
    return { stopReason: "crashed", error: `claude failed during execution: ${why}` };
  }
  if (subtype === "error_max_structured_output_retries") {
    return { stopReason: "crashed", error: `claude could not produce the structured output: ${why}` };
  }
  return { stopReason: "crashed", error: `claude ended with an unknown result subtype "${subtype}": ${why}` };
}

/** @param counted the responses counted in the stream, or null when there was no stream to count (a lone result). */
function fromResult(result: Json, counted: number | null, liveTurns: number, liveTokens: Tokens | undefined): ParsedSitting {
  const { stopReason, error } = classifyClaudeResult(result);
  const numbers = resultNumbers(result);
  const sitting: ParsedSitting = {
    stopReason,
    resultText: typeof result.result === "string" ? result.result : "",
    turns: counted ?? numbers.turns ?? liveTurns,
    costUsd: numbers.costUsd,
    tokens: numbers.tokens ?? liveTokens ?? null,
    permissionDenials: Array.isArray(result.permission_denials) ? result.permission_denials.length : 0,
  };
  if (result.structured_output !== undefined) sitting.structured = result.structured_output;
  if (error !== undefined) sitting.error = error;
  return sitting;
}

/** turns = num_turns (used only without a stream to count); cost = total_cost_usd (else unknown, never 0); tokens =
 *  the result's `usage` block, cache fields included. `modelUsage` is not
 *  summed in: it also lists the internal small model, and `usage` is what
 *  the reference results report for the sitting (ADR 0005). */
function resultNumbers(result: Json): { turns: number | null; costUsd: number | null; tokens: Tokens | null } {
  const turns = typeof result.num_turns === "number" && Number.isFinite(result.num_turns) ? result.num_turns : null;
  const cost = result.total_cost_usd;
  const costUsd = typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : null;
  const usage = asObject(result.usage);
  return { turns, costUsd, tokens: usage ? claudeTokens(usage) : null };
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

/** What claude names the model of an assistant message it made up itself (an API error's text). */
const SYNTHETIC_MODEL = "<synthetic>";

/** "API retry 2/10, 429": an api_retry system line, for the live view. */
function retryActivity(event: Json, seen: number): string {
  const attempt = typeof event.attempt === "number" ? event.attempt : seen;
  const max = typeof event.max_retries === "number" ? `/${event.max_retries}` : "";
  const status =
    typeof event.error_status === "number" ? `, ${event.error_status}` : typeof event.error === "string" ? `, ${event.error}` : "";
  return bound(`API retry ${attempt}${max}${status}`);
}

function noResultError(source: string, end: StreamEnd, reader: JsonDocumentReader): string {
  const how = end.signal ? ` (killed by ${end.signal})` : end.exit !== null ? ` (exit ${end.exit})` : "";
  const stderr = lastLine(end.stderrTail);
  return `${source} output ended with no result event${how}${stderr ? `: ${stderr}` : ""}${reader.garbageNote()}`;
}

function asObject(v: unknown): Json | undefined {
  return isObject(v) ? v : undefined;
}

function bound(text: string): string {
  return text.length > ACTIVITY_CHARS ? `${text.slice(0, ACTIVITY_CHARS)}…` : text;
}
