// retry.max_cost (ADR 0068): what one cause's retries have spent without progress,
// and whether that is the share of the node's budget at which retrying it stops. Pure.
import type { Cause } from "../events.ts";
import type { Retry } from "../graph/schema.ts";
import { usd } from "../../text/money.ts";

export interface RetryStop {
  cause: Cause;
  spentUsd: number;
  limitUsd: number;
}

/** The USD the retries of one cause may spend without progress: max_cost of the node's budget,
 *  which is its per-sitting budget_usd times the attempts retry.max allows (1 + max). null: no limit. */
export function retryCostLimit(retry: Retry | undefined, budgetUsd: number | undefined): number | null {
  if (retry?.max_cost === undefined || budgetUsd === undefined) return null;
  return retry.max_cost * budgetUsd * (1 + retry.max);
}

interface Streak {
  cause: Cause;
  /** What the retries in this streak cost (the attempt that began it is no retry of it). */
  spentUsd: number;
  failedChecks: number;
}

/** Attempts that end in the same cause, one after another, make a streak; a retry that ends in
 *  another cause, or in fewer failed checks, is progress and begins a new one. A retry whose
 *  cost the harness did not report adds nothing (it cannot be counted). */
export class RetrySpend {
  private streak: Streak | null = null;

  constructor(private readonly limitUsd: number | null) {}

  /** A judged attempt; `retry`: it was started because the attempt before did not pass. */
  note(cause: Cause | null, costUsd: number | null, failedChecks: number, retry: boolean): void {
    if (cause === null) {
      this.streak = null;
      return;
    }
    const s = this.streak;
    const progress = s !== null && cause === "check_failed" && failedChecks < s.failedChecks;
    if (s !== null && retry && cause === s.cause && !progress) {
      s.spentUsd += costUsd ?? 0;
      s.failedChecks = failedChecks;
      return;
    }
    this.streak = { cause, spentUsd: 0, failedChecks };
  }

  /** Set when the current cause's retries reached the limit: retrying it again stops here. */
  stop(): RetryStop | null {
    const s = this.streak;
    if (this.limitUsd === null || s === null || s.spentUsd <= 0 || s.spentUsd < this.limitUsd) return null;
    return { cause: s.cause, spentUsd: s.spentUsd, limitUsd: this.limitUsd };
  }
}

/** Said after the node's error: why vouch asked no more. */
export function retryStopText(s: RetryStop): string {
  return `retries stopped (retry.max_cost): the ${s.cause} retries spent ${usd(s.spentUsd)} without progress, their limit is ${usd(s.limitUsd)}`;
}
