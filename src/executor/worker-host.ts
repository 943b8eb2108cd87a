// The worker's side of every executor (ADR 0037): how one job a transport took is
// run with the engine's own branch code (runBranchJob) and how it ends, and how a
// worker stops. A transport (src/executor/redis/worker.ts) only moves jobs and
// messages: it hands each job to run() as a TakenJob and does what the JobEnd says.
// A job runs only when it opens with the fleet key and comes from this vouch version
// (ADR 0045); anything else ends in a refusal the coordinator records. A branch is
// never run twice (an earlier attempt's result stands), a job cancelled before it
// started runs nothing (ADR 0030), only the attempt that holds the job may deliver its
// result (ADR 0046), and a stop hands running jobs back.
import { graphSchema } from "../engine/graph/schema.ts";
import type { BranchJobOutcome, Ledger } from "../engine/ports.ts";
import type { NodeStatus, VouchEvent } from "../engine/events.ts";
import { runBranchJob, type WorkerRun } from "../engine/run/branch-job.ts";
import { isRunStop } from "../engine/run/contract.ts";
import { ProcessSupervisor } from "../spawn/process-registry.ts";
import { Confiner } from "../spawn/sandbox/confine.ts";
import { availability, SandboxProbe } from "../spawn/sandbox/probe.ts";
import type { FleetKey } from "./fleet-key.ts";
import { startGroupReaper, type GroupReaper } from "./group-reaper.ts";
import type { Heartbeat } from "./heartbeat.ts";
import { openJob, runOfJobId } from "./job-seal.ts";
import { sealMessage, type SealedMessage, type StreamMessage } from "./protocol.ts";
import { jobPorts, workerCommands } from "./worker-ports.ts";
import { WorkerRunners } from "./worker-runners.ts";
import { jobRepo, pushOutcome, WorkerRepos } from "./worker-repo.ts";

export interface WorkerHostOptions {
  name: string;
  /** Where the worker keeps its clones for branches with worktrees (ADR 0029). */
  workdir?: string;
  /** What the branch's commands may be given (the fleet's own secrets are taken out). */
  env: Record<string, string | undefined>;
  /** Opens jobs and seals every message (ADR 0045). */
  key: FleetKey;
  /** This worker's vouch: a job from another is refused. */
  version: string;
  /** Start the group reaper: the branches' processes die with this process, kill -9 too (ADR 0046). */
  reapOnDeath?: boolean;
  log?(line: string): void;
}

/** How a delivery went: sent; an earlier attempt had delivered; this attempt no longer held the job. */
export type Delivery = "delivered" | "already" | "lease-lost";

/** One job a transport took, as the host needs it. */
export interface TakenJob {
  readonly id: string;
  /** The job's attempt on workers: 1, then one more each time a worker takes it again. */
  readonly attempt: number;
  /** The job's data as the transport holds it: sealed, not yet opened (the host opens it). */
  readonly data: unknown;
  /** To the coordinator (the run the job id names), in the order sent; one failed send does not hold up the next. */
  send(m: SealedMessage): Promise<unknown>;
  /** Settles when every send so far has. */
  sent(): Promise<void>;
  /** Read once, before anything runs (one round trip, ADR 0079): whether an earlier attempt
   *  delivered the job's result, and the coordinator's stop reason (null while none was given). */
  before(): Promise<{ delivered: boolean; cancelReason: string | null }>;
  /** Calls `stop` once the coordinator cancels the job; the returned function stops watching. */
  watchCancel(stop: (reason: string) => void): () => void;
  /** After every send so far, in one step: sends `result` when this attempt still holds the job
   *  and no attempt delivered before (and marks the job delivered), or `refused` when it no
   *  longer holds the job. */
  deliver(result: SealedMessage, refused: SealedMessage): Promise<Delivery>;
  /** Puts the job back for another worker (this attempt shows as cut off on the coordinator). */
  handBack(): Promise<void>;
}

/** What the transport tells its queue: the job is done (delivered now or before), handed back,
 *  or lost to another attempt (leave it: that attempt has it). */
export type JobEnd =
  | { kind: "delivered"; status: NodeStatus }
  | { kind: "already-delivered" }
  | { kind: "handed-back" }
  | { kind: "lease-lost" };

const ZERO = { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };

/** A job running here: its branch, whether it was found to be another attempt's now, and
 *  whether what its branch says is still sent. */
interface LiveJob {
  run: WorkerRun;
  lost: boolean;
  quiet: { handedBack: boolean };
}

export class WorkerHost {
  private readonly supervisor = new ProcessSupervisor();
  /** Whether sealing works on this worker (ADR 0040): probed once, at the first job. */
  private readonly probe: SandboxProbe;
  private readonly confiner: Confiner;
  private readonly live = new Map<string, LiveJob>();
  private readonly started = Date.now();
  private readonly repos: WorkerRepos | null;
  private readonly reaper: GroupReaper | null;
  /** The command runners of the worker's runs, one handover folder each (ADR 0090). */
  private readonly commands: WorkerRunners;
  /** Set by stop(): every job taken from then on is handed back untouched. */
  private halted = false;

  constructor(private readonly o: WorkerHostOptions) {
    this.repos = o.workdir !== undefined ? new WorkerRepos(o.workdir, this.supervisor) : null;
    this.probe = new SandboxProbe(o.env);
    this.confiner = new Confiner({ probe: this.probe, hide: [], supervisor: this.supervisor });
    this.commands = new WorkerRunners(() =>
      workerCommands({ worker: o.name, env: o.env, supervisor: this.supervisor, confiner: this.confiner }),
    );
    this.reaper = o.reapOnDeath ? startGroupReaper(this.supervisor, { PATH: o.env.PATH ?? "/usr/bin:/bin" }) : null;
    if (o.reapOnDeath && !this.reaper)
      this.log("could not start the group reaper (sh): a kill -9 of this worker leaves its branches' processes running");
  }

  get name(): string {
    return this.o.name;
  }

  /** What the transport publishes while the worker lives (`vouch workers`). */
  heartbeat(concurrency: number): Heartbeat {
    return {
      name: this.o.name,
      pid: process.pid,
      concurrency,
      running: [...this.live.keys()],
      started: new Date(this.started).toISOString(),
      at: new Date().toISOString(),
    };
  }

  /** The transport found that another attempt holds job `id` now (its lock was lost): its
   *  branch here is stopped, its processes killed, and nothing more of it is sent. */
  leaseLost(id: string): void {
    const job = this.live.get(id);
    if (!job || job.lost) return;
    job.lost = true;
    job.quiet.handedBack = true; // another attempt's events are the branch's now
    job.run.abandon();
  }

  /** Runs one job to its end. Throws (the transport fails the job) only on a fault
   *  that is no stop's doing. */
  async run(t: TakenJob): Promise<JobEnd> {
    // Taken while stopping (the transport had fetched it): hand it back untouched.
    if (this.halted) return this.handBack(t);
    const opened = openJob(t.data, t.id, this.o.key, this.o.version);
    if (!opened.ok) return this.unrun(t, "error", opened.why);
    const data = opened.job;
    const before = await t.before();
    // An earlier attempt delivered the result and died before the queue heard: never run a branch twice.
    if (before.delivered) return { kind: "already-delivered" };
    // Cancelled while being fetched (too late for the coordinator to remove it): run nothing (ADR 0030).
    if (before.cancelReason !== null) return this.unrun(t, "cancelled", "cancelled before it started");
    // Not waited for: it goes out with the branch's first events (sends keep their order, ADR 0079).
    t.send(this.seal(t, { kind: "attempt", job: t.id, worker: this.o.name, attempt: t.attempt })).catch(() => {});
    const graph = graphSchema.safeParse(data.graph);
    if (!graph.success) return this.unrun(t, "error", "the job's graph does not validate on this worker");
    const quiet = { handedBack: false };
    const ledger = this.ledgerFor(t, quiet);
    // Worktrees in this worker's clone of the job's remote (ADR 0029); merge nodes stay on the coordinator.
    const baseDir = this.o.workdir ?? data.baseDir;
    const repo = await jobRepo(this.repos, data, baseDir, this.o.name);
    // A stop came during the awaits above: nothing of this branch has started. Checked before a
    // failed clone: the stop ends a fetch under way, which is no fault of the job.
    if (this.halted) return this.handBack(t);
    if (typeof repo === "string") return this.unrun(t, "error", repo);
    const sealing = availability(await this.probe.check());
    // Taken after the last await before `try`, so the finally always gives it back.
    const commands = this.commands.take(data.runId);
    const ports = jobPorts({
      worker: this.o.name,
      env: this.o.env,
      supervisor: this.supervisor,
      ledger,
      confiner: this.confiner,
      commands: commands.runner,
      ...(repo ? { git: repo.git } : {}),
    });
    const live: LiveJob = { run: runBranchJob(data, graph.data, ports, ledger, baseDir, sealing), lost: false, quiet };
    this.live.set(t.id, live);
    const unwatch = t.watchCancel((r) => live.run.stop(isRunStop(r) ? r : "interrupted"));
    try {
      // Settled before a stop abandoned it: a true result, delivered even while stopping.
      const outcome = await pushOutcome(repo, await live.run.outcome);
      return await this.deliver(t, { ...outcome, worker: this.o.name, attempt: t.attempt });
    } catch (e) {
      quiet.handedBack = true;
      if (live.lost) return this.lostLease(t);
      if (!this.halted) throw e;
      return await this.handBack(t);
    } finally {
      unwatch();
      this.live.delete(t.id);
      await commands.done();
    }
  }

  private seal(t: TakenJob, m: StreamMessage): SealedMessage {
    return sealMessage(runOfJobId(t.id), m, this.o.key);
  }

  private log(line: string): void {
    this.o.log?.(`vouch worker ${this.o.name}: ${line}`);
  }

  /** The branch's events, without the envelope the coordinator puts back; none once handed back. */
  private ledgerFor(t: TakenJob, quiet: { handedBack: boolean }): Ledger {
    let seq = 0;
    return {
      append: (e: VouchEvent) => {
        // A handed-back branch's scope still winds down: what it says then is not sent.
        if (quiet.handedBack) return;
        const { v: _v, run: _r, t: _t, seq: _s, ...body } = e;
        const event = { worker: this.o.name, attempt: t.attempt, seq: seq++, body: body as never };
        t.send(this.seal(t, { kind: "event", job: t.id, event })).catch(() => {});
      },
    };
  }

  /** An outcome with nothing run: an error (the job refused), or a job cancelled before it started. */
  private unrun(t: TakenJob, status: "error" | "cancelled", error: string): Promise<JobEnd> {
    return this.deliver(t, { worker: this.o.name, attempt: t.attempt, status, output: null, error, counts: { ...ZERO }, costUnknown: 0 });
  }

  private async deliver(t: TakenJob, outcome: BranchJobOutcome): Promise<JobEnd> {
    const reason = `attempt ${t.attempt} no longer held the job when its result was ready (its lock ran out; another attempt has it)`;
    const refused = this.seal(t, { kind: "refused", job: t.id, worker: this.o.name, attempt: t.attempt, status: outcome.status, reason });
    const done = await t.deliver(this.seal(t, { kind: "result", job: t.id, outcome }), refused);
    if (done === "already") return { kind: "already-delivered" };
    if (done === "lease-lost") return this.lostLease(t);
    return { kind: "delivered", status: outcome.status };
  }

  private lostLease(t: TakenJob): JobEnd {
    this.log(
      `job ${t.id} attempt ${t.attempt} lost its lease (another worker holds the job): its branch stopped here, its result not delivered`,
    );
    return { kind: "lease-lost" };
  }

  /** The job goes back for another worker once what was sent is out. */
  private async handBack(t: TakenJob): Promise<JobEnd> {
    await t.sent();
    await t.handBack();
    return { kind: "handed-back" };
  }

  /** Takes nothing new, kills what runs (its jobs are handed back), waits for the
   *  transport's `drained`, then lets the workdir go. Returns how many jobs were running. */
  async stop(drained: () => Promise<void>): Promise<number> {
    this.halted = true;
    for (const job of this.live.values()) job.run.abandon();
    const running = this.live.size;
    await this.supervisor.shutdownAll();
    await drained();
    await this.commands.closeAll(); // the handover folders: every job has ended
    this.repos?.release();
    this.reaper?.stop();
    return running;
  }
}
