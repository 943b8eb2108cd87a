// codex's usage and rate limits (ADR 0022; its forms in test/fixtures/limits/):
// "You’ve hit your usage limit. … try again at 3:00 PM." and "exceeded retry
// limit, last status: 429".
import { parseResetTime, type ResetContext } from "../common/reset-time.ts";
import { HIT_LIMIT_FORM, type RateLimitStop } from "../common/usage-limit.ts";

const CODEX_LIMIT =
  /\bhit your usage limit\b|\blast status: 429\b|\b429 Too Many Requests\b|\bQuota exceeded\b|\brate limit (?:reached|exceeded)\b/i;

/** codex: the failed turn's (or last error event's) message. A clock time without a zone is codex's local time. */
export function codexRateLimit(message: string | undefined, ctx: ResetContext): RateLimitStop | null {
  if (message === undefined) return null;
  const m = message.slice(0, 4096);
  if (!CODEX_LIMIT.test(m) && !HIT_LIMIT_FORM.test(m)) return null;
  return { resetsAt: parseResetTime(m, ctx) };
}
