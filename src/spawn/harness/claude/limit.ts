// claude's usage and rate limits (ADR 0022; its forms in test/fixtures/limits/):
// the subscription "You've hit your 5-hour limit · resets 4pm (Europe/Berlin)",
// with a rate_limit_event carrying the reset as an epoch, and the API-key
// "API Error: Request rejected (429)".
import { isObject, type JsonObject } from "../../../engine/json-object.ts";
import { parseResetTime, resetFromEpoch, type ResetContext } from "../common/reset-time.ts";
import { HIT_LIMIT_FORM, type LimitReading, type RateLimitStop } from "../common/usage-limit.ts";

/** claude: a result with is_error whose API error is a 429 / usage limit, or whose text says the limit was hit.
 *  @param events claude's `rate_limit_event` lines seen in the stream (their rate_limit_info). */
export function claudeRateLimit(result: JsonObject, events: readonly JsonObject[], ctx: ResetContext): RateLimitStop | null {
  if (result.is_error !== true) return null;
  const text = typeof result.result === "string" ? result.result : "";
  const limited =
    result.api_error === "usage_limit_reached" ||
    result.api_error_status === 429 ||
    result.api_error_type === "rate_limit_error" ||
    HIT_LIMIT_FORM.test(text.slice(0, 4096));
  if (!limited) return null;
  // The rate_limit_event names the reset exactly (epoch seconds); the text only to the minute, in a zone.
  for (let i = events.length - 1; i >= 0; i--) {
    const info = events[i]!;
    if (info.status !== "rejected") continue;
    const at = resetFromEpoch(info.resetsAt, ctx.now);
    if (at !== null) return { resetsAt: at };
  }
  return { resetsAt: parseResetTime(text, ctx) };
}

/** The reading of a sitting that ended with `result`: the stop, quoting the result text. */
export function claudeLimitReading(result: JsonObject, events: readonly JsonObject[], ctx: ResetContext): LimitReading | null {
  const stop = claudeRateLimit(result, events, ctx);
  return stop ? { stop, said: typeof result.result === "string" ? result.result : "" } : null;
}

/** The rate_limit_info of a claude `rate_limit_event` line, or null. */
export function claudeRateLimitInfo(event: JsonObject): JsonObject | null {
  return isObject(event.rate_limit_info) ? event.rate_limit_info : null;
}
