// Whether a sitting was stopped by a usage or rate limit, and when the limit
// resets (issue 16, ADR 0022). Each harness reads its own CLI's forms
// (src/spawn/harness/<name>/limit.ts, on the pinned CLIs' own text in
// test/fixtures/limits/README.md); what they share is here: the subscription
// wording every CLI uses, the reset-time reader (reset-time.ts), and the rule
// that only a crash the parser could not name otherwise becomes `rate_limited`
// — a 401 stays unavailable, a cap stop stays a cap stop. A limit is no verdict
// on the work: the engine pauses the node instead of failing it.
import { validZone, type ResetContext } from "./reset-time.ts";

export interface RateLimitStop {
  /** Epoch ms the harness says the limit lifts, or null when it does not say. */
  resetsAt: number | null;
}

/** What a harness read of a limit: the stop, and the text it said it in (quoted in the error). */
export interface LimitReading {
  stop: RateLimitStop;
  said: string;
}

/** The wording every CLI uses for a subscription limit ("You've hit your usage limit", "…weekly limit"). */
export const HIT_LIMIT_FORM = /\byou(?:'|’|`)?ve hit your\b[^.\n]{0,60}\blimit\b|\byou(?:'|’)re out of usage credits\b/i;

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

/** What a parser knows of the process's end that a reset is read against (StreamEnd's fields). */
export interface ReadingEnd {
  endedAt?: number;
  localZone?: string;
}

/** A sitting turned rate_limited when it crashed and `read` finds a limit in what the harness said.
 *  @param read the harness's reading, given the moment and zone a reset is read against. */
export function withUsageLimit<S extends { stopReason: string; error?: string; resetsAt?: number }>(
  sitting: S,
  harness: string,
  end: ReadingEnd,
  read: (ctx: ResetContext) => LimitReading | null,
): S {
  if (sitting.stopReason !== "crashed") return sitting;
  const reading = read({ now: end.endedAt ?? Date.now(), localZone: localZone(end.localZone) });
  if (!reading) return sitting;
  const out = { ...sitting, stopReason: "rate_limited" as const, error: rateLimitError(harness, reading.stop, reading.said) };
  if (reading.stop.resetsAt !== null) out.resetsAt = reading.stop.resetsAt;
  else delete out.resetsAt;
  return out;
}
