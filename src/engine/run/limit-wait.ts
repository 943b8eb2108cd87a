// What a run does when nothing but limited work is left (ADR 0022): pause, or
// (--wait-limits) wait for the soonest limit to lift. Pure.
import type { LimitState } from "./limits.ts";

/** The first wait for a limit whose reset the harness did not name; each such limit in a row doubles it. */
export const UNKNOWN_RESET_FIRST_WAIT_MS = 60_000;
/** The longest single backoff wait for an unknown reset. */
export const UNKNOWN_RESET_MAX_WAIT_MS = 30 * 60_000;
/** --max-wait's default: the longest the run waits for limits in one process, in total. */
export const DEFAULT_MAX_WAIT_MS = 6 * 3600_000;

export interface WaitPolicy {
  /** --wait-limits given. */
  wait: boolean;
  /** --max-wait: the total this process may wait for limits. */
  maxWaitMs: number;
}

export type LimitDecision =
  | { kind: "wait"; harness: string; resetsAt: number | null; waitMs: number }
  | { kind: "pause"; harness: string; resetsAt: number | null };

/** The backoff for the n-th limit in a row with no reset named: 1 min, 2, 4, … at most 30 min. */
export function unknownResetBackoff(streak: number): number {
  const n = Math.max(1, Math.min(streak, 32));
  return Math.min(UNKNOWN_RESET_FIRST_WAIT_MS * 2 ** (n - 1), UNKNOWN_RESET_MAX_WAIT_MS);
}

/** When each limit is expected to lift (its reset, else now + backoff). */
function wakeAt(s: LimitState, now: number): number {
  return s.resetsAt !== null ? Math.max(now, s.resetsAt) : now + unknownResetBackoff(s.unknownStreak);
}

/** Wait for the limit that lifts first, if the policy allows that long; else pause naming it.
 *  A pause names the soonest known reset (what `vouch show` tells the user), else the first harness. */
export function decideLimits(states: readonly LimitState[], now: number, waitedMs: number, policy: WaitPolicy): LimitDecision | null {
  if (states.length === 0) return null;
  const soonest = [...states].sort((a, b) => wakeAt(a, now) - wakeAt(b, now) || a.harness.localeCompare(b.harness))[0]!;
  const waitMs = wakeAt(soonest, now) - now;
  if (policy.wait && waitedMs + waitMs <= policy.maxWaitMs)
    return { kind: "wait", harness: soonest.harness, resetsAt: soonest.resetsAt, waitMs };
  const known = states.filter((s) => s.resetsAt !== null).sort((a, b) => a.resetsAt! - b.resetsAt!)[0];
  const named = known ?? soonest;
  return { kind: "pause", harness: named.harness, resetsAt: named.resetsAt };
}
