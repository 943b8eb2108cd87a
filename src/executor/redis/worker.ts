// `vouch worker redis://…`: the Redis transport of a worker (ADR 0026, 0037). It takes
// branch jobs from the BullMQ queue and hands each to the WorkerHost, which runs it;
// the branch's messages go back on the run's stream. A killed worker's job is given
// to another by BullMQ's stalled-job check; a stop takes nothing new and hands back
// what runs (its processes killed first).
import { Worker, WaitingError, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { runOfJobId } from "../job-seal.ts";
import type { ServeOptions, WorkerService } from "../endpoint.ts";
import type { TakenJob, WorkerHost } from "../worker-host.ts";
import { CancelWatch } from "./cancel-watch.ts";
import { connectChecked } from "./connect.ts";
import { cancelKey, doneKey, eventsKey, QUEUE, workerKey } from "./keys.ts";
import { Outbox } from "./outbox.ts";
import { isDown, unlessDown } from "./stop-wait.ts";
import type { RedisTarget } from "./url.ts";

const HEARTBEAT_MS = 2000;

/** The outboxes of the runs whose jobs this worker holds: one per run, shared by its jobs
 *  (ADR 0093: they write to one stream, so concurrent jobs share a write), gone with its last job. */
class RunOutboxes {
  private readonly runs = new Map<string, { box: Outbox; jobs: number }>();

  constructor(private readonly cmd: Redis) {}

  take(run: string): { box: Outbox; done(): void } {
    const kept = this.runs.get(run) ?? { box: new Outbox(this.cmd, eventsKey(run)), jobs: 0 };
    this.runs.set(run, kept);
    kept.jobs++;
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      if (--kept.jobs === 0 && this.runs.get(run) === kept) this.runs.delete(run);
    };
    return { box: kept.box, done };
  }
}

/** One BullMQ job as the host sees it: sends go, batched (outbox.ts), to the stream of
 *  the run its id names (never one its data names: the data is not opened yet), in order. */
function takenJob(cmd: Redis, cancels: CancelWatch, job: Job, token: string | undefined, worker: string, outbox: Outbox): TakenJob {
  const id = job.id!;
  const run = runOfJobId(id);
  return {
    id,
    attempt: Math.max(1, job.attemptsStarted),
    data: job.data,
    send: (m) => outbox.send(m),
    sent: () => outbox.sent(),
    before: async () => {
      const [done, reason] = await cmd.mget(doneKey(id), cancelKey(id));
      return { delivered: done !== null && done !== undefined, cancelReason: reason ?? null };
    },
    watchCancel: (stop) => cancels.watch(id, stop),
    // BullMQ always hands a processor its token; without one the attempt holds no lease.
    deliver: (result, refused) => outbox.deliver({ job: id, run, token: token ?? "", worker, result, refused }),
    handBack: async () => {
      if (token) await job.moveToWait(token).catch(() => {});
    },
  };
}

export class RedisWorker implements WorkerService {
  private worker: Worker | null = null;
  private cmd: Redis | null = null;
  private cancels: CancelWatch | null = null;
  private outboxes: RunOutboxes | null = null;
  private workerConn: Redis | null = null;
  private beat: ReturnType<typeof setInterval> | null = null;
  private stopping = false;

  constructor(
    private readonly target: RedisTarget,
    private readonly host: WorkerHost,
    private readonly o: ServeOptions,
  ) {}

  async start(): Promise<void> {
    this.cmd = await connectChecked(this.target, { rideOut: true });
    this.cancels = new CancelWatch(this.cmd);
    this.outboxes = new RunOutboxes(this.cmd);
    const lockDuration = this.o.lockMs;
    this.workerConn = this.cmd.duplicate({ maxRetriesPerRequest: null });
    this.workerConn.on("error", () => {});
    this.worker = new Worker(QUEUE, (job, token) => this.process(job, token), {
      connection: this.workerConn,
      concurrency: this.o.concurrency,
      name: this.host.name,
      lockDuration,
      stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
      // A branch cut off this many times (workers dying under it) ends as an error.
      maxStalledCount: 5,
    });
    this.worker.on("error", (e) => this.o.log(`vouch worker ${this.host.name}: ${e.message}`));
    // Another worker took the job (this one's lock ran out): stop its branch here (ADR 0046).
    this.worker.on("lockRenewalFailed", (ids: string[]) => ids.forEach((id) => this.host.leaseLost(id)));
    await this.heartbeat();
    this.beat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.o.log(`vouch worker ${this.host.name}: taking branch jobs from ${this.target.display} (concurrency ${this.o.concurrency})`);
  }

  private async heartbeat(): Promise<void> {
    const info = this.host.heartbeat(this.o.concurrency);
    // Ready: connected and taking jobs. Said before the write, which waits while Redis is down.
    this.o.health?.(!this.stopping && !isDown(this.cmd));
    await this.cmd?.set(workerKey(this.host.name), JSON.stringify(info), "PX", HEARTBEAT_MS * 3).catch(() => {});
  }

  /** What BullMQ is told: the job's return value, or (handed back: moved to wait) that another worker takes it. */
  private async process(job: Job, token?: string): Promise<unknown> {
    // Let go when the job ends: a message still waiting on the outbox's timer is written all the same.
    const outbox = this.outboxes!.take(runOfJobId(job.id!));
    const end = await this.host.run(takenJob(this.cmd!, this.cancels!, job, token, this.host.name, outbox.box)).finally(outbox.done);
    if (end.kind === "already-delivered") return "already delivered";
    if (end.kind === "delivered") return { status: end.status };
    // Handed back (moved to wait) or another attempt's now: BullMQ leaves the job alone.
    throw new WaitingError();
  }

  /** SIGTERM: take nothing new, kill what runs and hand those jobs back. False when
   *  Redis was down: the stop did not wait for it, and BullMQ's close was cut short. */
  async stop(): Promise<boolean> {
    if (this.stopping) return true;
    this.stopping = true;
    this.o.health?.(false);
    const closing = this.worker?.close();
    // Redis down: no wait on it may hold the stop (stop-wait.ts).
    const running = await this.host.stop(() => unlessDown(closing, this.cmd));
    if (this.beat) clearInterval(this.beat);
    this.cancels?.end();
    if (!isDown(this.cmd)) await unlessDown(this.cmd?.del(workerKey(this.host.name)), this.cmd);
    if (isDown(this.cmd) && running > 0)
      this.o.log(
        `vouch worker ${this.host.name}: Redis at ${this.target.display} is unreachable: ${running} running job(s) not handed back; another worker takes them once this one's lock runs out`,
      );
    const reached = !isDown(this.cmd);
    this.workerConn?.disconnect(); // BullMQ never closes a connection it was handed
    this.cmd?.disconnect();
    return reached;
  }
}
