// The outcome of a job that ended with no result the coordinator could read (ADR 0046):
// BullMQ gave up on it, it is gone from Redis, or it completed — a worker that refused
// it with another fleet key, or a result marked delivered but never sent. Always an
// error, never a verdict: what BullMQ says of a job is not sealed (anyone who can write
// to Redis can write it), so it may only say why a branch has no result.
import type { Job } from "bullmq";
import { ZERO_COUNTS } from "../../engine/events.ts";
import type { BranchJobOutcome } from "../../engine/ports.ts";

export type JobEnding = "failed" | "completed" | "unknown";

/** The queue's state of a job that will not run again, or null while it may. */
export function ended(state: string): JobEnding | null {
  return state === "failed" || state === "completed" || state === "unknown" ? state : null;
}

/** At most 300 characters of what BullMQ holds (anyone who can write to Redis writes it). */
const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/** Some of what BullMQ holds, as one short line of data (it is not trusted). */
function said(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);
}

function why(ending: JobEnding, job: Job | undefined, dropped: number): string {
  if (ending === "failed") return `the job failed on the workers: ${job?.failedReason ? short(job.failedReason) : "no reason given"}`;
  if (ending === "unknown") return "the job is gone from Redis (deleted, or Redis restarted without its data)";
  if (job?.returnvalue === "already delivered")
    return "no result reached the coordinator: an attempt marked the job delivered but its result is not on the run's stream (written by hand, or by a vouch without atomic delivery)";
  const unread = dropped > 0 ? `; ${dropped} message(s) on the run's stream did not verify and were dropped` : "";
  return `no result reached the coordinator: the job completed on a worker (it answered ${said(job?.returnvalue)}) but no result that verifies with this fleet key came back (does every worker hold the same key?)${unread}`;
}

export function failedOutcome(ending: JobEnding, job: Job | undefined, dropped: number): BranchJobOutcome {
  return {
    worker: "",
    attempt: 1,
    status: "error",
    output: null,
    error: why(ending, job, dropped),
    counts: { ...ZERO_COUNTS },
    costUnknown: 0,
  };
}

/** A job stopped by the coordinator that no worker answered for (removed unrun, or its worker gone). */
export function stoppedOutcome(error: string): BranchJobOutcome {
  return { worker: "", attempt: 1, status: "cancelled", output: null, error, counts: { ...ZERO_COUNTS }, costUnknown: 0 };
}
