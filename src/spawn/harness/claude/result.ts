// What a claude result event says (ADR 0005; real results in
// test/fixtures/claude-reference/): the verdict on the sitting — its subtype,
// is_error, api_error_status and terminal_reason, never the exit code — and
// its numbers (num_turns, total_cost_usd, usage).
import type { StopReason, Tokens } from "../../../engine/events.ts";
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { AUTH_HTTP_STATUSES, AUTH_TEXT, authRefused } from "../common/auth-refused.ts";
import { lastLine } from "../common/json-documents.ts";
import { claudeTokens } from "../common/tokens.ts";
import type { ParsedSitting } from "../types.ts";

type Json = JsonObject;

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
    // A refused key or login is no crash (issue 28 item 5): unavailable, as on every harness.
    if (AUTH_HTTP_STATUSES.includes(apiStatus as number) || (apiStatus == null && AUTH_TEXT.test(lastLine(text))))
      return authRefused("claude", `${apiStatus != null ? `API error ${String(apiStatus)}: ` : ""}${lastLine(text) || errors}`);
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
export function fromResult(result: Json, counted: number | null, liveTurns: number, liveTokens: Tokens | undefined): ParsedSitting {
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
export function resultNumbers(result: Json): { turns: number | null; costUsd: number | null; tokens: Tokens | null } {
  const turns = typeof result.num_turns === "number" && Number.isFinite(result.num_turns) ? result.num_turns : null;
  const cost = result.total_cost_usd;
  const costUsd = typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : null;
  const usage = isObject(result.usage) ? result.usage : undefined;
  return { turns, costUsd, tokens: usage ? claudeTokens(usage) : null };
}
