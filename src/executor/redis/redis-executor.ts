// The coordinator's side of the `redis` executor (ADR 0026): every map branch is a
// BullMQ job with a deterministic id, sealed with the fleet key (ADR 0045); the branch's
// messages come back on the run's stream, are opened with the key (anything else is
// dropped) and handed to the engine, which records them. A stop sets the job's cancel
// key (workers watch it and kill their process groups).
//
// Every job ends in an outcome the engine sees (ADR 0046): a result of the attempt that
// holds the job (a cut-off attempt's is refused and said so), or an error when the job
// ended without one (failed, gone, completed with no result that verifies), or cancelled
// once a stop reached no worker in time. A Redis outage shorter than the bound is ridden
// out; with live jobs and no progress, the coordinator says what it waits for.
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { ExecutorLostError } from "../../engine/errors.ts";
import type { BranchExecutor, BranchJob, BranchJobHooks, BranchJobOutcome } from "../../engine/ports.ts";
import type { OpenOptions } from "../endpoint.ts";
import type { Heartbeat } from "../heartbeat.ts";
import { sealJob } from "../job-seal.ts";
import type { StreamMessage } from "../protocol.ts";
import { route, type PendingJob as Pending } from "../pending-job.ts";
import { connectChecked } from "./connect.ts";
import { liveWorkers } from "./fleet.ts";
import { JobAdds } from "./job-adds.ts";
import { cancelKey, eventsKey, KEEP_SECONDS, QUEUE } from "./keys.ts";
import { Outage, outageNotices, streamIdAtOrAfter } from "./outage.ts";
import { boundedWait } from "./stop-wait.ts";
import { openEntry } from "./stream-entry.ts";
import { ended, failedOutcome, stoppedOutcome, type JobEnding } from "./job-endings.ts";
import type { RedisTarget } from "./url.ts";
import { QuietClock, waitingText } from "./waiting.ts";

const WATCH_MS = 1000;
/** A stop no worker confirmed in this time ends the job `cancelled` here (its worker is gone). */
export const STOP_CONFIRM_MS = 10_000;

export class RedisExecutor implements BranchExecutor {
  readonly name = "redis";
  private readonly pending = new Map<string, Pending>();
  /** Messages for jobs not (yet) awaited: a resumed coordinator reads the stream from its start. */
  private readonly early = new Map<string, StreamMessage[]>();
  private runId: string | null = null;
  private lastId = "0";
  private lost: Error | null = null;
  private closed = false;
  private reader: Promise<void> | null = null;
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private watching = false;
  private readonly quiet: QuietClock;
  private dropped = 0;
  /** Resolved by close(): the reader stops waiting on an XREAD that may never settle. */
  private stop!: () => void;
  private readonly stopped = new Promise<null>((resolve) => (this.stop = () => resolve(null)));
  private readonly outage: Outage;
  /** Jobs are created a turn's together. */
  private readonly adds: JobAdds;

  private constructor(
    readonly target: RedisTarget,
    private readonly o: OpenOptions,
    private readonly queue: Queue,
    private readonly cmd: Redis,
    private readonly blocking: Redis,
    /** BullMQ never closes a connection it was handed: this one is closed here. */
    private readonly queueConn: Redis,
  ) {
    this.quiet = new QuietClock(o.quietMs);
    this.adds = new JobAdds(queue, (e) => this.lose(e));
    this.outage = new Outage([cmd, blocking, queueConn], outageNotices(target.display, o.reconnectMs, o.notice));
  }

  /** Connects (exit 2 when Redis does not answer) before the run starts. */
  static async open(target: RedisTarget, o: OpenOptions): Promise<RedisExecutor> {
    const cmd = await connectChecked(target, { rideOut: true });
    const blocking = await connectChecked(target, { rideOut: true });
    const queueConn = cmd.duplicate();
    for (const c of [cmd, blocking, queueConn]) c.on("error", () => {});
    const queue = new Queue(QUEUE, { connection: queueConn });
    queue.on("error", () => {});
    return new RedisExecutor(target, o, queue, cmd, blocking, queueConn);
  }

  run(job: BranchJob, hooks: BranchJobHooks): Promise<BranchJobOutcome> {
    if (this.lost) return Promise.reject(new ExecutorLostError(this.lost.message));
    this.runId ??= job.runId;
    if (this.pending.size === 0) this.quiet.progress();
    return new Promise<BranchJobOutcome>((resolve, reject) => {
      const p: Pending = { hooks, resolve, reject, added: false, attempt: 0, state: "unknown", cancelledAt: null, endedAt: null };
      this.pending.set(job.jobId, p);
      const onAbort = () => void this.cancel(job.jobId, hooks.stopReason() ?? "interrupted");
      hooks.signal.addEventListener("abort", onAbort, { once: true });
      const added = () => {
        p.added = true;
        if (hooks.signal.aborted) onAbort();
      };
      this.adds.add({ id: job.jobId, data: sealJob(job, this.o.key), added });
      for (const m of this.early.get(job.jobId) ?? []) this.deliver(m);
      this.early.delete(job.jobId);
      this.startReading();
    });
  }

  private startReading(): void {
    if (this.reader) return;
    this.reader = this.readLoop().catch((e: unknown) => this.lose(e as Error));
    this.watchdog = setInterval(() => this.tick(), WATCH_MS);
  }

  private async readLoop(): Promise<void> {
    const key = eventsKey(this.runId!);
    let failures = 0;
    while (!this.closed && !this.lost) {
      const read = this.blocking.xread("COUNT", 500, "BLOCK", 500, "STREAMS", key, this.lastId) as Promise<
        [string, [string, string[]][]][] | null
      >;
      read.catch(() => {}); // after close() nobody awaits it
      let res: Awaited<typeof read> | null;
      try {
        res = await Promise.race([read, this.stopped]);
        failures = 0;
      } catch (e) {
        // Down: the outage bound decides. Up and failing still: the stream is unreadable.
        if (this.blocking.status === "ready" && ++failures >= 5) throw e;
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      for (const [, entries] of res ?? []) {
        for (const [id, fields] of entries) {
          this.lastId = id;
          for (const m of openEntry(fields, this.runId!, this.o.key)) {
            if (m) this.deliver(m);
            else this.drop();
          }
        }
      }
    }
  }

  /** A stream entry that does not verify: never read, said once. */
  private drop(): void {
    if (this.dropped++ === 0)
      this.o.notice(
        `vouch: dropped a message on ${eventsKey(this.runId!)} that does not verify with this fleet key (a worker holding another key, or written by hand)\n`,
      );
  }

  private deliver(m: StreamMessage): void {
    const p = this.pending.get(m.job);
    if (!p) {
      const list = this.early.get(m.job) ?? [];
      list.push(m);
      this.early.set(m.job, list);
      return;
    }
    this.quiet.progress();
    const outcome = route(p, m);
    if (outcome) this.settle(m.job, outcome);
  }

  private settle(id: string, o: BranchJobOutcome): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.quiet.progress();
    p.resolve(o);
  }

  private tick(): void {
    const down = this.outage.downFor();
    if (down > this.o.reconnectMs) return this.lose(new Error(`unreachable for more than ${Math.round(this.o.reconnectMs / 1000)} s`));
    if (down === 0) void this.watch();
  }

  /** Each live job's state: a job that ended without a result, or whose stop no worker
   *  confirms, gets its outcome here; and a quiet wait is said. One pass at a time. */
  private async watch(): Promise<void> {
    if (this.watching || this.lost || this.closed) return;
    this.watching = true;
    try {
      // Who runs what, when a stop waits on a worker: one read of the heartbeats per pass.
      const stops = [...this.pending.values()].some((p) => p.cancelledAt !== null);
      const workers = stops ? await liveWorkers(this.cmd) : null;
      const held = new Set(workers?.flatMap((w) => w.running));
      // Every job's state in one round trip (the reads go out together).
      const live = [...this.pending].filter(([, p]) => p.added);
      const states = await Promise.all(live.map(([id]) => this.queue.getJobState(id)));
      for (const [i, [id, p]] of live.entries()) {
        if (!this.pending.has(id)) continue; // its result came in meanwhile
        p.state = states[i]!;
        const ending = ended(p.state);
        if (ending) await this.endedWithout(id, p, ending);
        else p.endedAt = null;
        if (this.pending.has(id) && p.cancelledAt !== null) await this.stopping(id, p, held.has(id));
      }
      await this.sayWaiting(workers);
    } catch (e) {
      if (this.outage.downFor() === 0) this.lose(e as Error);
    } finally {
      this.watching = false;
    }
  }

  /** The job ended on the workers; its outcome is due once the reader is past where the
   *  stream stood then (a result sent before the job ended is read first). */
  private async endedWithout(id: string, p: Pending, ending: JobEnding): Promise<void> {
    if (p.endedAt === null) {
      const last = (await this.cmd.xrevrange(eventsKey(this.runId!), "+", "-", "COUNT", 1))[0];
      p.endedAt = last?.[0] ?? "0-0";
      return;
    }
    if (!streamIdAtOrAfter(this.lastId === "0" ? "0-0" : this.lastId, p.endedAt)) return;
    const job = ending === "unknown" ? undefined : await this.queue.getJob(id).catch(() => undefined);
    this.settle(id, failedOutcome(ending, job, this.dropped));
  }

  /** A stopped job: removed when no worker has it; given up on when no live worker holds it
   *  and none confirmed the stop in time (a live one that holds it is waited for: it answers). */
  private async stopping(id: string, p: Pending, held: boolean): Promise<void> {
    if (p.state === "waiting" || p.state === "prioritized" || p.state === "delayed") {
      const job = await this.queue.getJob(id);
      if (
        job &&
        (await job.remove().then(
          () => true,
          () => false,
        ))
      )
        return this.settle(id, stoppedOutcome("cancelled before a worker took it"));
    }
    if (!held && Date.now() - p.cancelledAt! >= STOP_CONFIRM_MS)
      this.settle(
        id,
        stoppedOutcome(
          `the stop reached no worker in ${STOP_CONFIRM_MS / 1000} s (the job's worker is gone); the job stays cancelled in Redis`,
        ),
      );
  }

  private async sayWaiting(workers: Heartbeat[] | null): Promise<void> {
    const quietFor = this.pending.size === 0 ? null : this.quiet.due();
    if (quietFor === null) return;
    const jobs = [...this.pending].map(([id, p]) => ({ id, state: p.state, stopping: p.cancelledAt !== null }));
    this.o.notice(waitingText(this.target.display, jobs, workers ?? (await liveWorkers(this.cmd)), quietFor));
  }

  private async cancel(jobId: string, reason: string): Promise<void> {
    const p = this.pending.get(jobId);
    if (p) p.cancelledAt ??= Date.now();
    try {
      await this.cmd.set(cancelKey(jobId), reason, "EX", KEEP_SECONDS);
      // Not taken yet: it never runs. (Taken meanwhile: the worker sees the cancel key.)
      if (p) {
        p.state = await this.queue.getJobState(jobId);
        await this.stopping(jobId, p, true);
      }
    } catch {
      // The watchdog looks again each second.
    }
  }

  private lose(e: Error): void {
    if (this.lost || this.closed) return;
    this.lost = e;
    const message = `Redis at ${this.target.display}: ${e.message}`;
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      p.reject(new ExecutorLostError(message));
    }
  }

  /** Ends on every path, Redis up or gone: nothing here waits on Redis for longer than
   *  CLOSE_WAIT_MS. ioredis's disconnect() on a client that is between reconnect tries
   *  settles none of its queued commands (the blocking XREAD waits for ever), so the
   *  reader stops waiting on it, and BullMQ's close is given a bounded time. */
  async close(): Promise<void> {
    this.closed = true;
    this.outage.stop();
    this.stop();
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.adds.stop();
    // Bounded too: a command waits across a reconnect, and Redis may have gone a moment ago.
    if (this.runId && !this.lost && this.cmd.status === "ready")
      await boundedWait(this.cmd.expire(eventsKey(this.runId), KEEP_SECONDS).catch(() => {}));
    this.blocking.disconnect();
    await boundedWait(Promise.allSettled([this.reader, this.queue.close()]));
    this.queueConn.disconnect();
    this.cmd.disconnect();
  }
}
