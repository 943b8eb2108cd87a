// An ACP sitting's stop reason (ADR 0051), from how the conversation ended —
// never from the exit code, which is vouch's own SIGTERM when an agent does not
// exit on a closed stdin (claude-code-acp). The prompt's typed stop reason:
// end_turn → complete; max_turn_requests → turns (the agent's own limit);
// cancelled → cancelled when vouch asked, else crashed; max_tokens and refusal
// → crashed, named. A JSON-RPC error: a refused key or login → unavailable
// (one cause on every harness, auth-refused.ts), a usage or rate limit →
// rate_limited (withUsageLimit), anything else crashed. No answer to
// `initialize` at all: the program is no ACP agent (gemini needs --acp).
import type { StopReason } from "../../../engine/events.ts";
import { AUTH_TEXT, authRefused } from "../common/auth-refused.ts";
import { lastLine } from "../common/json-documents.ts";
import { parseResetTime, type ResetContext } from "../common/reset-time.ts";
import { HIT_LIMIT_FORM, type LimitReading } from "../common/usage-limit.ts";
import type { ParsedSitting, StreamEnd } from "../types.ts";
import type { AcpSessionState } from "./session-state.ts";

/** JSON-RPC error code ACP uses for "authentication required". */
export const AUTH_REQUIRED = -32000;
const LIMIT_TEXT = /\b429\b|\brate[ _-]?limit|\bquota\b|\busage limit\b|\bRESOURCE_EXHAUSTED\b/i;

export function decideAcp(s: AcpSessionState, end: StreamEnd, program: string): ParsedSitting {
  const base: ParsedSitting = {
    stopReason: "crashed",
    resultText: s.text,
    turns: s.initialized && s.countsTurns ? s.counter.turns : null,
    costUsd: s.costUsd ?? null,
    tokens: s.tokens ?? null,
    permissionDenials: s.denials,
    ...(s.sessionId ? { sessionId: s.sessionId } : {}),
  };
  const e = s.ending;
  if (e.kind === "stop") return { ...base, ...fromStopReason(e.stopReason, s.cancelRequested) };
  if (e.kind === "error") {
    if (e.code === AUTH_REQUIRED || AUTH_TEXT.test(e.message)) return { ...base, ...authRefused(`acp agent ${program}`, e.message) };
    return { ...base, stopReason: "crashed", error: `acp agent ${program} failed during ${e.during}: ${e.message}` };
  }
  const how = end.signal ? `killed by ${end.signal}` : `exit ${end.exit ?? "unknown"}`;
  const why = lastLine(end.stderrTail) ?? "";
  if (!s.initialized)
    return {
      ...base,
      stopReason: "unavailable",
      error: `${program} never answered ACP's initialize (${how}): is it an ACP agent started in ACP mode (gemini --acp)?${why ? ` It said: ${why}` : ""}`,
    };
  return {
    ...base,
    stopReason: "crashed",
    error: `acp agent ${program} ended before answering the prompt (${how})${why ? `: ${why}` : ""}`,
  };
}

function fromStopReason(reason: string, cancelRequested: boolean): { stopReason: StopReason; error?: string } {
  switch (reason) {
    case "end_turn":
      return { stopReason: "complete" };
    case "max_turn_requests":
      return { stopReason: "turns", error: "the agent stopped at its own limit of model requests (stopReason max_turn_requests)" };
    case "cancelled":
      return cancelRequested
        ? { stopReason: "cancelled", error: "the agent stopped the turn when vouch cancelled it" }
        : { stopReason: "crashed", error: "the agent cancelled the turn by itself (stopReason cancelled)" };
    case "max_tokens":
      return { stopReason: "crashed", error: "the model hit its token limit (stopReason max_tokens)" };
    case "refusal":
      return { stopReason: "crashed", error: "the agent refused to go on (stopReason refusal)" };
    default:
      return { stopReason: "crashed", error: `the agent answered with an unknown stop reason "${reason.slice(0, 64)}"` };
  }
}

/** A usage or rate limit in a failed ACP request's message, read against `ctx`. */
export function acpLimit(s: AcpSessionState, ctx: ResetContext): LimitReading | null {
  if (s.ending.kind !== "error") return null;
  const m = s.ending.message.slice(0, 4096);
  if (!LIMIT_TEXT.test(m) && !HIT_LIMIT_FORM.test(m)) return null;
  return { stop: { resetsAt: parseResetTime(m, ctx) }, said: m };
}
