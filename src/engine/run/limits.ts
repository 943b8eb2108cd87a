// Usage and rate limits of one run (issue 16, ADR 0022): which harnesses are
// limited and until when, and the node attempts parked on them. A parked
// attempt holds no process slot; it counts as live work but not as work that
// can go on, so the run is quiet when every live task is parked. The driver
// then either waits for a reset (--wait-limits) and lifts it, or pauses.
import type { BranchRef } from "../events.ts";

export type ParkOutcome = "go" | "stop";

export interface LimitState {
  harness: string;
  /** Epoch ms the harness said the limit lifts; null when it did not say. */
  resetsAt: number | null;
  /** Limits in a row with no reset given (vouch's backoff doubles with each). */
  unknownStreak: number;
}

export interface ParkedAttempt {
  node: string;
  branch?: BranchRef;
  harness: string;
}

interface Parked extends ParkedAttempt {
  wake(outcome: ParkOutcome): void;
}

export class LimitBook {
  private readonly limits = new Map<string, LimitState>();
  private readonly parked = new Set<Parked>();
  /** Unknown-reset streaks of harnesses whose limit was lifted: a limit again right after keeps doubling. */
  private readonly streaks = new Map<string, number>();
  /** Milliseconds this process has waited for limits so far (bounded by --max-wait). */
  waitedMs = 0;

  /** Called when a task parks: the run may have gone quiet. */
  constructor(private readonly onPark: () => void) {}

  get parkedCount(): number {
    return this.parked.size;
  }

  isLimited(harness: string): boolean {
    return this.limits.has(harness);
  }

  /** A sitting of `harness` was cut off by a limit. A later reset wins; an unknown one grows the streak. */
  note(harness: string, resetsAt: number | null): void {
    const prior = this.limits.get(harness);
    const streak = resetsAt === null ? (prior?.unknownStreak ?? this.streaks.get(harness) ?? 0) + 1 : 0;
    const at = prior?.resetsAt != null && resetsAt !== null ? Math.max(prior.resetsAt, resetsAt) : (resetsAt ?? prior?.resetsAt ?? null);
    this.limits.set(harness, { harness, resetsAt: at, unknownStreak: streak });
  }

  /** A sitting of `harness` ended without a limit: the unknown-reset backoff starts over. */
  clearStreak(harness: string): void {
    this.streaks.delete(harness);
  }

  /** The limits in force, for the wait decision. */
  states(): LimitState[] {
    return [...this.limits.values()];
  }

  /** The attempts parked, for run.paused. */
  parkedAttempts(): ParkedAttempt[] {
    return [...this.parked].map(({ node, branch, harness }) => ({ node, harness, ...(branch ? { branch } : {}) }));
  }

  /** Waits until `harness` is lifted ("go") or the run stops ("stop"). */
  park(attempt: ParkedAttempt, signal: AbortSignal): Promise<ParkOutcome> {
    if (signal.aborted) return Promise.resolve("stop");
    return new Promise<ParkOutcome>((resolve) => {
      const entry: Parked = {
        ...attempt,
        wake: (outcome) => {
          signal.removeEventListener("abort", onAbort);
          this.parked.delete(entry);
          resolve(outcome);
        },
      };
      const onAbort = () => entry.wake("stop");
      signal.addEventListener("abort", onAbort, { once: true });
      this.parked.add(entry);
      this.onPark();
    });
  }

  /** The limit of `harness` is over: its parked attempts go on. The unknown streak is kept. */
  lift(harness: string): void {
    const state = this.limits.get(harness);
    if (state) this.streaks.set(harness, state.unknownStreak);
    this.limits.delete(harness);
    for (const p of [...this.parked]) if (p.harness === harness) p.wake("go");
  }
}
