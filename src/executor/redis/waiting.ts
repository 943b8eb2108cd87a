// What a coordinator with live jobs and no progress says it waits for (ADR 0046): how
// many jobs are queued, running (and on which live worker), stopping, and which workers
// are live — so a fleet with no worker, or a job whose worker is gone, is never a
// silent wait. A pure function of what the executor saw.
import type { Heartbeat } from "../heartbeat.ts";

export interface WaitedJob {
  id: string;
  /** BullMQ's state as last seen: waiting, prioritized, delayed, active, ... */
  state: string;
  /** The coordinator asked it to stop and no worker confirmed yet. */
  stopping: boolean;
}

const QUEUED = new Set(["waiting", "prioritized", "delayed", "waiting-children"]);
/** A heartbeat is not sealed: its name may hold anything; here it is one word of a line (the CLI sanitizes the rest). */
const named = (w: Heartbeat) => w.name.replace(/\s+/g, " ").slice(0, 100);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

export function waitingText(display: string, jobs: readonly WaitedJob[], workers: readonly Heartbeat[], quietMs: number): string {
  const queued = jobs.filter((j) => QUEUED.has(j.state)).length;
  const running = jobs.filter((j) => j.state === "active");
  const stopping = jobs.filter((j) => j.stopping).length;
  const where = new Map<string, string>();
  for (const w of workers) for (const id of w.running) where.set(id, named(w));
  const orphans = running.filter((j) => !where.has(j.id)).length;
  const on = [...new Set(running.flatMap((j) => where.get(j.id) ?? []))].sort();
  const parts = [`${queued} queued`, `${running.length} running${on.length > 0 ? ` (on ${on.join(", ")})` : ""}`];
  const other = jobs.length - queued - running.length;
  if (other > 0) parts.push(`${other} ending`);
  if (stopping > 0) parts.push(`${stopping} asked to stop, no worker has confirmed`);
  const lines = [
    `vouch: waiting on ${plural(jobs.length, "branch job")} at ${display} (${parts.join(", ")}); nothing came back for ${Math.round(quietMs / 1000)} s`,
  ];
  if (workers.length === 0) lines.push(`  no live worker: start one with vouch worker ${display} (vouch workers ${display} lists them)`);
  else lines.push(`  live workers: ${workers.map((w) => `${named(w)} (${w.running.length}/${w.concurrency})`).join(", ")}`);
  if (orphans > 0)
    lines.push(
      `  ${plural(orphans, "running job")} on no live worker: its worker is gone; another takes it once the lock runs out (VOUCH_WORKER_LOCK_MS, default 30 s)`,
    );
  return `${lines.join("\n")}\n`;
}

/** A long quiet wait is said again at most this far apart. */
const GAP_MAX_MS = 10 * 60_000;

/** When to say it: after `quietMs` with no progress, then after twice as long each time
 *  (at most every 10 min), so a long sitting is not a flood; progress starts over. */
export class QuietClock {
  private lastProgress: number;
  private lastNotice = 0;
  private gap: number;

  constructor(
    private readonly quietMs: number,
    now = Date.now(),
  ) {
    this.gap = quietMs;
    this.lastProgress = now;
  }

  progress(now = Date.now()): void {
    this.lastProgress = now;
    this.gap = this.quietMs;
  }

  /** How long nothing came back, when a notice is due now (and counted as said); else null. */
  due(now = Date.now()): number | null {
    if (now - Math.max(this.lastProgress, this.lastNotice) < this.gap) return null;
    this.lastNotice = now;
    this.gap = Math.min(this.gap * 2, GAP_MAX_MS);
    return now - this.lastProgress;
  }
}
