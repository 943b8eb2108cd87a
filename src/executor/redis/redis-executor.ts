// The coordinator's side of the `redis` executor (ADR 0026): every map branch is a
// BullMQ job with a deterministic id; the branch's events come back on the run's
// stream and are handed to the engine, which records them. A stop sets the job's
// cancel key (workers watch it and kill their process groups).
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { ExecutorLostError } from "../../engine/errors.ts";
import { ZERO_COUNTS } from "../../engine/events.ts";
import type { BranchExecutor, BranchJob, BranchJobHooks, BranchJobOutcome } from "../../engine/ports.ts";
import { connectChecked } from "./connect.ts";
import { cancelKey, eventsKey, KEEP_SECONDS, QUEUE } from "./keys.ts";
import { decodeMessage, type StreamMessage } from "../protocol.ts";
import type { RedisTarget } from "./url.ts";

interface Pending {
  hooks: BranchJobHooks;
  resolve(o: BranchJobOutcome): void;
  reject(e: unknown): void;
}

const WATCH_MS = 1000;

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
  /** Resolved by close(): the reader stops waiting on an XREAD that may never settle. */
  private stop!: () => void;
  private readonly stopped = new Promise<null>((resolve) => (this.stop = () => resolve(null)));

  private constructor(
    readonly target: RedisTarget,
    private readonly queue: Queue,
    private readonly cmd: Redis,
    private readonly blocking: Redis,
    /** BullMQ never closes a connection it was handed: this one is closed here. */
    private readonly queueConn: Redis,
  ) {}

  /** Connects (exit 2 when Redis does not answer) before the run starts. */
  static async open(target: RedisTarget): Promise<RedisExecutor> {
    const cmd = await connectChecked(target);
    const blocking = await connectChecked(target, { blocking: true });
    const queueConn = cmd.duplicate({ maxRetriesPerRequest: 2 });
    queueConn.on("error", () => {});
    const queue = new Queue(QUEUE, { connection: queueConn });
    queue.on("error", () => {});
    return new RedisExecutor(target, queue, cmd, blocking, queueConn);
  }

  run(job: BranchJob, hooks: BranchJobHooks): Promise<BranchJobOutcome> {
    if (this.lost) return Promise.reject(new ExecutorLostError(this.lost.message));
    this.runId ??= job.runId;
    return new Promise<BranchJobOutcome>((resolve, reject) => {
      this.pending.set(job.jobId, { hooks, resolve, reject });
      const onAbort = () => void this.cancel(job.jobId, hooks.stopReason() ?? "interrupted");
      hooks.signal.addEventListener("abort", onAbort, { once: true });
      // The same id twice is one job: a resumed coordinator re-attaches to it.
      this.queue
        .add("branch", job, { jobId: job.jobId, removeOnComplete: { age: KEEP_SECONDS }, removeOnFail: { age: KEEP_SECONDS } })
        .then(() => (hooks.signal.aborted ? onAbort() : undefined))
        .catch((e: unknown) => this.lose(e as Error));
      for (const m of this.early.get(job.jobId) ?? []) this.deliver(m);
      this.early.delete(job.jobId);
      this.startReading();
    });
  }

  private startReading(): void {
    if (this.reader) return;
    this.reader = this.readLoop().catch((e: unknown) => this.lose(e as Error));
    this.watchdog = setInterval(() => void this.watch(), WATCH_MS);
  }

  private async readLoop(): Promise<void> {
    const key = eventsKey(this.runId!);
    while (!this.closed && !this.lost) {
      const read = this.blocking.xread("COUNT", 500, "BLOCK", 500, "STREAMS", key, this.lastId) as Promise<
        [string, [string, string[]][]][] | null
      >;
      read.catch(() => {}); // after close() nobody awaits it
      const res = await Promise.race([read, this.stopped]);
      if (!res) continue;
      for (const [, entries] of res) {
        for (const [id, fields] of entries) {
          this.lastId = id;
          const m = fields[0] === "m" && fields[1] !== undefined ? decodeMessage(fields[1]) : null;
          if (m) this.deliver(m);
        }
      }
    }
  }

  private deliver(m: StreamMessage): void {
    const p = this.pending.get(m.job);
    if (!p) {
      const list = this.early.get(m.job) ?? [];
      list.push(m);
      this.early.set(m.job, list);
      return;
    }
    if (m.kind === "attempt") p.hooks.onAttempt(m.attempt, m.worker);
    else if (m.kind === "event") p.hooks.onEvent(m.event);
    else {
      this.pending.delete(m.job);
      p.resolve(m.outcome);
    }
  }

  /** A job BullMQ gave up on (stalled too often) or that vanished never sends a result. */
  private async watch(): Promise<void> {
    for (const [id, p] of [...this.pending]) {
      let state: string;
      try {
        state = await this.queue.getJobState(id);
      } catch (e) {
        return this.lose(e as Error);
      }
      if (state !== "failed" && state !== "unknown") continue;
      const job = state === "failed" ? await this.queue.getJob(id).catch(() => undefined) : undefined;
      // A result may still be on its way through the stream: give it one more read.
      await new Promise((r) => setTimeout(r, WATCH_MS));
      if (!this.pending.has(id)) continue;
      this.pending.delete(id);
      const why =
        state === "failed" ? `the job failed on the workers: ${job?.failedReason ?? "no reason given"}` : "the job is gone from Redis";
      p.resolve({ worker: "", attempt: 1, status: "error", output: null, error: why, counts: { ...ZERO_COUNTS }, costUnknown: 0 });
    }
  }

  private async cancel(jobId: string, reason: string): Promise<void> {
    try {
      await this.cmd.set(cancelKey(jobId), reason, "EX", KEEP_SECONDS);
      const job = await this.queue.getJob(jobId);
      // Not taken yet: it never runs. (Taken meanwhile: the worker sees the cancel key.)
      if (job && (await job.getState()) === "waiting") {
        await job.remove();
        const p = this.pending.get(jobId);
        if (p) {
          this.pending.delete(jobId);
          p.resolve({
            worker: "",
            attempt: 1,
            status: "cancelled",
            output: null,
            error: "cancelled before a worker took it",
            counts: { ...ZERO_COUNTS },
            costUnknown: 0,
          });
        }
      }
    } catch {
      // A job a worker took meanwhile cannot be removed: its worker sees the cancel key.
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
    this.stop();
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    if (this.runId && !this.lost && this.cmd.status === "ready") await this.cmd.expire(eventsKey(this.runId), KEEP_SECONDS).catch(() => {});
    this.blocking.disconnect();
    await boundedWait(Promise.allSettled([this.reader, this.queue.close()]));
    this.queueConn.disconnect();
    this.cmd.disconnect();
  }
}

const CLOSE_WAIT_MS = 2000;

/** Waits for `p` at most CLOSE_WAIT_MS; the timer never keeps the process alive. */
async function boundedWait(p: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
    timer.unref?.();
  });
  await Promise.race([p.then(() => undefined), limit]);
  clearTimeout(timer);
}
