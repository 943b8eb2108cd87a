// A job the coordinator awaits, and what each message of its worker does to it (ADR 0046):
// attempts and events go to the engine, and only the newest attempt's result decides the
// branch — a result from an attempt older than one already heard from is refused (that
// attempt was cut off), and so is a result its worker says it could not deliver.
import type { BranchJobHooks, BranchJobOutcome } from "../engine/ports.ts";
import type { StreamMessage } from "./protocol.ts";

export interface PendingJob {
  hooks: BranchJobHooks;
  resolve(o: BranchJobOutcome): void;
  reject(e: unknown): void;
  /** The job exists in the queue (its creation answered): before, "unknown" is no news. */
  added: boolean;
  /** The newest attempt a message came from: only its result decides the branch. */
  attempt: number;
  /** The queue's state of the job as last seen. */
  state: string;
  /** When the stop was asked for (a worker confirms it by sending the cancelled result). */
  cancelledAt: number | null;
  /** Where the transport's stream ended when the job was first seen ended without a result:
   *  once the reader is past it, no result is on its way. */
  endedAt: string | null;
}

/** Hands `m` to the engine; returns the outcome when `m` decides the job. */
export function route(p: PendingJob, m: StreamMessage): BranchJobOutcome | null {
  if (m.kind === "attempt") {
    p.attempt = Math.max(p.attempt, m.attempt);
    p.hooks.onAttempt(m.attempt, m.worker);
  } else if (m.kind === "event") {
    p.attempt = Math.max(p.attempt, m.event.attempt);
    p.hooks.onEvent(m.event);
  } else if (m.kind === "refused") {
    // That attempt lost the job: nothing it sends later decides the branch either.
    p.attempt = Math.max(p.attempt, m.attempt + 1);
    p.hooks.onRefused?.({ attempt: m.attempt, worker: m.worker, status: m.status, reason: m.reason });
  } else if (m.outcome.attempt < p.attempt) {
    const reason = `a later attempt holds the job (attempt ${p.attempt} was heard from): a cut-off attempt does not decide the branch`;
    p.hooks.onRefused?.({ attempt: m.outcome.attempt, worker: m.outcome.worker, status: m.outcome.status, reason });
  } else return m.outcome;
  return null;
}
