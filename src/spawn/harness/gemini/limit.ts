// gemini's usage and rate limits (ADR 0022; its forms in test/fixtures/limits/):
// exit 173 (HTTP 429) and "Please retry in 42.5s".
import { parseResetTime, type ResetContext } from "../common/reset-time.ts";
import type { RateLimitStop } from "../common/usage-limit.ts";

/** Gemini exits with the HTTP status mod 256: 429 exits 173. */
export const GEMINI_RATE_LIMIT_EXIT = 429 - 256;
const GEMINI_LIMIT =
  /\bRESOURCE_EXHAUSTED\b|\bexhausted your (?:daily )?quota\b|\bQuota exceeded\b|\bexceeded your current quota\b|\bUsage limit reached\b|\bPlease retry in\b|\bStatus: 429\b/i;

/** gemini: its exit code and the error it reported (result error, error event or stderr). */
export function geminiRateLimit(exit: number | null, message: string, ctx: ResetContext): RateLimitStop | null {
  const m = message.slice(0, 4096);
  if (exit !== GEMINI_RATE_LIMIT_EXIT && !GEMINI_LIMIT.test(m)) return null;
  return { resetsAt: parseResetTime(m, ctx) };
}
