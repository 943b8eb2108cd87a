// A remote branch's attempts as the coordinator records them (ADR 0026, 0046): a newer
// attempt cuts off the one before it; an attempt that streamed nothing (its worker died
// right after taking the job) is cut off too, its worker unknown (""); a refused result
// cuts off its attempt and is recorded. Each attempt is cut off once, across sessions: a
// resumed coordinator starts from what the ledger holds and reads the stream again.
import type { BranchRef } from "../events.ts";
import type { RefusedResult } from "../ports.ts";
import type { RunContext } from "./context.ts";

export function remoteAttempts(ctx: RunContext, branch: BranchRef, job: string) {
  const prior = ctx.resume?.remote?.attempts?.[job];
  let current: { attempt: number; worker: string } | null = prior?.last ?? null;
  const cutOff = new Set(prior?.cutOff ?? []);
  const cut = (attempt: number, worker: string) => {
    if (cutOff.has(attempt)) return;
    cutOff.add(attempt);
    ctx.emitter.emit({ type: "branch.cut_off", branch, job, attempt, worker });
  };
  return {
    onAttempt(attempt: number, worker: string): void {
      if (current !== null && attempt > current.attempt) cut(current.attempt, current.worker);
      for (let a = (current?.attempt ?? 0) + 1; a < attempt; a++) cut(a, "");
      if (current === null || attempt > current.attempt) current = { attempt, worker };
    },
    onRefused(r: RefusedResult): void {
      cut(r.attempt, r.worker);
      ctx.emitter.emit({ type: "branch.result_refused", branch, job, ...r });
    },
  };
}
