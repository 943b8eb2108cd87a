// `vouch worker`: takes branch jobs from the queue and runs each with the engine's
// own branch code (runBranchJob), streaming the branch's events back (ADR 0026).
// A killed worker's job is given to another by BullMQ's stalled-job check; SIGTERM
// takes nothing new and hands back what runs (its processes killed first).
import { Worker, WaitingError, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { graphSchema } from "../../engine/graph/schema.ts";
import { systemClock } from "../../engine/clock.ts";
import type { BranchJob, BranchJobOutcome, CommandRunner, Ledger } from "../../engine/ports.ts";
import { refusingApprovals, refusingGit, refusingMerge } from "../../engine/ports.ts";
import { runBranchJob, type WorkerRun } from "../../engine/run/branch-job.ts";
import type { RunStop } from "../../engine/verdict/conjunction.ts";
import type { VouchEvent } from "../../engine/events.ts";
import { createAgentRunner } from "../../spawn/harness/agent-runner.ts";
import { createCommandRunner } from "../../spawn/command-runner.ts";
import { ProcessSupervisor } from "../../spawn/process-registry.ts";
import { connectChecked } from "./connect.ts";
import { cancelKey, doneKey, eventsKey, KEEP_SECONDS, QUEUE, workerKey } from "./keys.ts";
import { encodeMessage, type StreamMessage } from "./protocol.ts";
import { parseJob } from "./job-shape.ts";
import { isDown, unlessDown } from "./stop-wait.ts";
import type { RedisTarget } from "./url.ts";
import { jobRepo, pushOutcome, WorkerRepos } from "./worker-repo.ts";

export interface WorkerOptions {
  target: RedisTarget;
  name: string;
  concurrency: number;
  workdir?: string;
  env: Record<string, string | undefined>;
  /** BullMQ's lock: a worker silent this long is taken for dead and its jobs given to others. */
  lockMs: number;
  log(line: string): void;
}

const CANCEL_POLL_MS = 250;
const HEARTBEAT_MS = 2000;
const STOPS: ReadonlySet<string> = new Set(["interrupted", "budget", "wall", "fail_fast", "executor"]);

/** Commands a worker runs see VOUCH_WORKER=<name>. */
function withWorkerVar(runner: CommandRunner, name: string): CommandRunner {
  return {
    runCheck: (check, ctx) => runner.runCheck(check, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
    runScript: (script, ctx) => runner.runScript(script, { ...ctx, vars: { ...ctx.vars, VOUCH_WORKER: name } }),
  };
}

export class BranchWorker {
  private readonly supervisor = new ProcessSupervisor();
  private readonly live = new Map<string, WorkerRun>();
  private readonly started = Date.now();
  private worker: Worker | null = null;
  private cmd: Redis | null = null;
  private workerConn: Redis | null = null;
  private beat: ReturnType<typeof setInterval> | null = null;
  private stopping = false;
  private readonly repos: WorkerRepos | null;

  constructor(private readonly o: WorkerOptions) {
    this.repos = o.workdir !== undefined ? new WorkerRepos(o.workdir, this.supervisor) : null;
  }

  async start(): Promise<void> {
    this.cmd = await connectChecked(this.o.target, { forever: true });
    const lockDuration = this.o.lockMs;
    this.workerConn = this.cmd.duplicate({ maxRetriesPerRequest: null });
    this.workerConn.on("error", () => {});
    this.worker = new Worker(QUEUE, (job, token) => this.process(job, token), {
      connection: this.workerConn,
      concurrency: this.o.concurrency,
      name: this.o.name,
      lockDuration,
      stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
      // A branch cut off this many times (workers dying under it) ends as an error.
      maxStalledCount: 5,
    });
    this.worker.on("error", (e) => this.o.log(`vouch worker ${this.o.name}: ${e.message}`));
    await this.heartbeat();
    this.beat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    this.o.log(`vouch worker ${this.o.name}: taking branch jobs from ${this.o.target.display} (concurrency ${this.o.concurrency})`);
  }

  private async heartbeat(): Promise<void> {
    const info = {
      name: this.o.name,
      pid: process.pid,
      concurrency: this.o.concurrency,
      running: [...this.live.keys()],
      started: new Date(this.started).toISOString(),
      at: new Date().toISOString(),
    };
    await this.cmd?.set(workerKey(this.o.name), JSON.stringify(info), "PX", HEARTBEAT_MS * 3).catch(() => {});
  }

  private async process(job: Job, token?: string): Promise<unknown> {
    const id = job.id!;
    // Taken while stopping (BullMQ had fetched it): hand it back untouched.
    if (this.stopping) return this.handBack(job, token, Promise.resolve());
    const data = parseJob(job.data);
    const attempt = Math.max(1, job.attemptsStarted);
    const stream = eventsKey(data?.runId ?? "unknown");
    const cmd = this.cmd!;
    let pendingWrites: Promise<unknown> = Promise.resolve();
    const send = (m: StreamMessage) => {
      const write = pendingWrites.then(() => cmd.xadd(stream, "*", "m", encodeMessage(m)));
      pendingWrites = write.catch(() => {}); // one failed write does not block the next
      return write;
    };
    /** An outcome with nothing run: an error, or a job cancelled before it started. */
    const unrun = (status: "error" | "cancelled", error: string) =>
      this.deliver(id, send, { worker: this.o.name, attempt, status, output: null, error, counts: zero(), costUnknown: 0 });
    if (!data) return unrun("error", "the job is not a vouch branch job (wrong shape)");
    // An earlier attempt delivered the result and died before BullMQ heard: never run a branch twice.
    if (await cmd.get(doneKey(id))) return "already delivered";
    // Cancelled while being fetched (too late for the coordinator to remove it): run nothing (ADR 0030).
    if ((await cmd.get(cancelKey(id))) !== null) return unrun("cancelled", "cancelled before it started");
    await send({ kind: "attempt", job: id, worker: this.o.name, attempt });
    const graph = graphSchema.safeParse(data.graph);
    if (!graph.success) return unrun("error", "the job's graph does not validate on this worker (different vouch versions?)");
    let seq = 0;
    let handedBack = false;
    const ledger: Ledger = {
      append: (e: VouchEvent) => {
        // A handed-back branch's scope still winds down: what it says then is not sent.
        if (handedBack) return;
        const { v: _v, run: _r, t: _t, seq: _s, ...body } = e;
        send({ kind: "event", job: id, event: { worker: this.o.name, attempt, seq: seq++, body: body as never } }).catch(() => {});
      },
    };
    // Worktrees in this worker's clone of the job's remote (ADR 0029); merge nodes stay on the coordinator.
    const baseDir = this.o.workdir ?? data.baseDir;
    const repo = await jobRepo(this.repos, data, baseDir, this.o.name);
    // SIGTERM came during the awaits above: nothing of this branch has started. Checked before a
    // failed clone: the shutdown stops a fetch under way, which is no fault of the job.
    if (this.stopping) return this.handBack(job, token, pendingWrites);
    if (typeof repo === "string") return unrun("error", repo);
    const env = { ...this.o.env, VOUCH_WORKER: this.o.name };
    const commands = createCommandRunner({ parentEnv: env, supervisor: this.supervisor });
    const ports = {
      agents: createAgentRunner({ parentEnv: env, supervisor: this.supervisor }),
      commands: withWorkerVar(commands, this.o.name),
      clock: systemClock,
      ledger,
      approvals: refusingApprovals,
      git: repo?.git ?? refusingGit,
      merge: refusingMerge,
    };
    const run = runBranchJob(data, graph.data, ports, ledger, baseDir);
    this.live.set(id, run);
    const poll = setInterval(() => {
      void cmd.get(cancelKey(id)).then(
        (r) => (r !== null ? run.stop((STOPS.has(r) ? r : "interrupted") as RunStop) : undefined),
        () => {},
      );
    }, CANCEL_POLL_MS);
    try {
      // Settled before a SIGTERM abandoned it: a true result, delivered even while stopping.
      const outcome = await pushOutcome(repo, await run.outcome);
      return await this.deliver(id, send, { ...outcome, worker: this.o.name, attempt });
    } catch (e) {
      if (!this.stopping || e instanceof WaitingError) throw e;
      handedBack = true;
      return await this.handBack(job, token, pendingWrites);
    } finally {
      clearInterval(poll);
      this.live.delete(id);
      await commands.close(); // the job's handover folder
    }
  }

  /** The job waits for another worker; this attempt shows as cut off on the coordinator. */
  private async handBack(job: Job, token: string | undefined, writes: Promise<unknown>): Promise<never> {
    await writes.catch(() => {});
    if (token) await job.moveToWait(token).catch(() => {});
    throw new WaitingError();
  }

  private async deliver(id: string, send: (m: StreamMessage) => Promise<unknown>, outcome: BranchJobOutcome): Promise<unknown> {
    const first = await this.cmd!.set(doneKey(id), this.o.name, "EX", KEEP_SECONDS, "NX");
    if (first === null) return "already delivered";
    await send({ kind: "result", job: id, outcome });
    return { status: outcome.status };
  }

  /** SIGTERM: take nothing new, kill what runs and hand those jobs back. False when
   *  Redis was down: the stop did not wait for it, and BullMQ's close was cut short. */
  async stop(): Promise<boolean> {
    if (this.stopping) return true;
    this.stopping = true;
    const closing = this.worker?.close();
    for (const run of this.live.values()) run.abandon();
    const running = this.live.size;
    await this.supervisor.shutdownAll();
    // Redis down: no wait on it may hold the stop (stop-wait.ts).
    await unlessDown(closing, this.cmd);
    this.repos?.release();
    if (this.beat) clearInterval(this.beat);
    if (!isDown(this.cmd)) await unlessDown(this.cmd?.del(workerKey(this.o.name)), this.cmd);
    if (isDown(this.cmd) && running > 0)
      this.o.log(
        `vouch worker ${this.o.name}: Redis at ${this.o.target.display} is unreachable: ${running} running job(s) not handed back; another worker takes them once this one's lock runs out`,
      );
    const reached = !isDown(this.cmd);
    this.workerConn?.disconnect(); // BullMQ never closes a connection it was handed
    this.cmd?.disconnect();
    return reached;
  }
}

function zero() {
  return { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };
}

export type { BranchJob };
