// Whether a sitting was stopped by a usage or rate limit, and when the limit
// resets (issue 16, ADR 0022): one pure classifier per CLI, fed what its
// parser already read. The forms are the pinned CLIs' own
// (test/fixtures/limits/README.md): claude's subscription "You've hit your
// 5-hour limit · resets 4pm (Europe/Berlin)" (with a rate_limit_event carrying
// the reset as an epoch) and its API-key "API Error: Request rejected (429)";
// codex's "You’ve hit your usage limit. … try again at 3:00 PM." and
// "exceeded retry limit, last status: 429"; gemini's exit 173 (HTTP 429) and
// "Please retry in 42.5s". A limit is no verdict on the work: the engine
// pauses the node instead of failing it.
import { isObject, type JsonObject } from "../../engine/json-object.ts";
import { parseResetTime, resetFromEpoch, validZone, type ResetContext } from "./reset-time.ts";

export interface RateLimitStop {
  /** Epoch ms the harness says the limit lifts, or null when it does not say. */
  resetsAt: number | null;
}

/** The wording every CLI uses for a subscription limit ("You've hit your usage limit", "…weekly limit"). */
export const HIT_LIMIT_FORM = /\byou(?:'|’|`)?ve hit your\b[^.\n]{0,60}\blimit\b|\byou(?:'|’)re out of usage credits\b/i;

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

/** The rate_limit_info of a claude `rate_limit_event` line, or null. */
export function claudeRateLimitInfo(event: JsonObject): JsonObject | null {
  return isObject(event.rate_limit_info) ? event.rate_limit_info : null;
}

const CODEX_LIMIT =
  /\bhit your usage limit\b|\blast status: 429\b|\b429 Too Many Requests\b|\bQuota exceeded\b|\brate limit (?:reached|exceeded)\b/i;

/** codex: the failed turn's (or last error event's) message. A clock time without a zone is codex's local time. */
export function codexRateLimit(message: string | undefined, ctx: ResetContext): RateLimitStop | null {
  if (message === undefined) return null;
  const m = message.slice(0, 4096);
  if (!CODEX_LIMIT.test(m) && !HIT_LIMIT_FORM.test(m)) return null;
  return { resetsAt: parseResetTime(m, ctx) };
}

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

/** "claude hit a usage or rate limit (resets 2026-12-01T15:00:00Z): <what it said>", bounded. */
export function rateLimitError(harness: string, stop: RateLimitStop, said: string): string {
  const when = stop.resetsAt !== null ? `resets ${new Date(stop.resetsAt).toISOString()}` : "no reset time given";
  const line =
    said
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return `${harness} hit a usage or rate limit (${when})${line ? `: ${line.slice(0, 300)}` : ""}`;
}

/** The zone a harness prints bare clock times in: the TZ it was given (vouch's own), else the system's. */
export function localZone(tz: string | undefined): string {
  // An invalid TZ: the C library falls back to UTC, and so do we.
  if (tz) return validZone(tz) ? tz : "UTC";
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** What a parser returns for a limited sitting: stop reason rate_limited, the reset, a one-line error. */
function limitedSitting<S extends { stopReason: string; error?: string; resetsAt?: number }>(
  sitting: S,
  harness: string,
  stop: RateLimitStop,
  said: string,
): S {
  const out = { ...sitting, stopReason: "rate_limited" as const, error: rateLimitError(harness, stop, said) };
  if (stop.resetsAt !== null) out.resetsAt = stop.resetsAt;
  else delete out.resetsAt;
  return out;
}

/** What a parser knows of the process's end that a reset is read against (StreamEnd's fields). */
export interface ReadingEnd {
  endedAt?: number;
  localZone?: string;
}

function readingContext(endedAt: number | undefined, zone: string | undefined): ResetContext {
  return { now: endedAt ?? Date.now(), localZone: localZone(zone) };
}

/** claude's parsed sitting, turned rate_limited when its result says so. */
export function withClaudeRateLimit<S extends { stopReason: string; error?: string; resetsAt?: number }>(
  sitting: S,
  result: JsonObject,
  events: readonly JsonObject[],
  end: ReadingEnd = {},
): S {
  if (sitting.stopReason !== "crashed") return sitting;
  const stop = claudeRateLimit(result, events, readingContext(end.endedAt, end.localZone));
  return stop ? limitedSitting(sitting, "claude", stop, typeof result.result === "string" ? result.result : "") : sitting;
}

/** codex's parsed sitting (a crash), turned rate_limited when its failure message says so. */
export function withCodexRateLimit<S extends { stopReason: string; error?: string; resetsAt?: number }>(
  sitting: S,
  message: string | undefined,
  end: ReadingEnd = {},
): S {
  // Only a failure the parser could not name otherwise: a 401 stays unavailable, a cap stop stays a cap stop.
  if (sitting.stopReason !== "crashed") return sitting;
  const stop = codexRateLimit(message, readingContext(end.endedAt, end.localZone));
  return stop ? limitedSitting(sitting, "codex", stop, message ?? "") : sitting;
}

/** gemini's parsed sitting (a crash), turned rate_limited when its exit or error says so. */
export function withGeminiRateLimit<S extends { stopReason: string; error?: string; resetsAt?: number }>(
  sitting: S,
  exit: number | null,
  message: string,
  end: ReadingEnd = {},
): S {
  if (sitting.stopReason !== "crashed") return sitting;
  const stop = geminiRateLimit(exit, message, readingContext(end.endedAt, end.localZone));
  return stop ? limitedSitting(sitting, "gemini", stop, message) : sitting;
}
