// The worker's side of every executor (ADR 0037): how one job a transport took is
// run with the engine's own branch code (runBranchJob) and how it ends, and how a
// worker stops. A transport (src/executor/redis/worker.ts) only moves jobs and
// messages: it hands each job to run() as a TakenJob and does what the JobEnd says.
// A branch is never run twice (an earlier attempt's result stands), a job cancelled
// before it started runs nothing (ADR 0030), and a stop hands running jobs back.
import { graphSchema } from "../engine/graph/schema.ts";
import type { BranchJob, BranchJobOutcome, Ledger } from "../engine/ports.ts";
import type { NodeStatus, VouchEvent } from "../engine/events.ts";
import { runBranchJob, type WorkerRun } from "../engine/run/branch-job.ts";
import type { RunStop } from "../engine/verdict/conjunction.ts";
import { ProcessSupervisor } from "../spawn/process-registry.ts";
import { Confiner } from "../spawn/sandbox/confine.ts";
import { availability, SandboxProbe } from "../spawn/sandbox/probe.ts";
import type { Heartbeat } from "./heartbeat.ts";
import type { StreamMessage } from "./protocol.ts";
import { jobPorts } from "./worker-ports.ts";
import { jobRepo, pushOutcome, WorkerRepos } from "./worker-repo.ts";

export interface WorkerHostOptions {
  name: string;
  /** Where the worker keeps its clones for branches with worktrees (ADR 0029). */
  workdir?: string;
  env: Record<string, string | undefined>;
}

/** One job a transport took, as the host needs it. */
export interface TakenJob {
  readonly id: string;
  /** The job's attempt on workers: 1, then one more each time a worker takes it again. */
  readonly attempt: number;
  /** The job's data once checked (parseJob); null when it is not a vouch branch job. */
  readonly data: BranchJob | null;
  /** To the coordinator, in the order sent; one failed send does not hold up the next. */
  send(m: StreamMessage): Promise<unknown>;
  /** Settles when every send so far has. */
  sent(): Promise<void>;
  /** An earlier attempt delivered the job's result. */
  delivered(): Promise<boolean>;
  /** The coordinator's stop reason for the job, null while none was given. */
  cancelReason(): Promise<string | null>;
  /** Calls `stop` once the coordinator cancels the job; the returned function stops watching. */
  watchCancel(stop: (reason: string) => void): () => void;
  /** Takes the right to deliver the result, once across all attempts: false when one did. */
  claimResult(): Promise<boolean>;
  /** Puts the job back for another worker (this attempt shows as cut off on the coordinator). */
  handBack(): Promise<void>;
}

/** What the transport tells its queue: the job is done (delivered now or before), or it was handed back. */
export type JobEnd = { kind: "delivered"; status: NodeStatus } | { kind: "already-delivered" } | { kind: "handed-back" };

/** Stop reasons a worker takes from the coordinator; anything else stops as an interruption. */
const STOPS: ReadonlySet<string> = new Set(["interrupted", "budget", "wall", "fail_fast", "executor"]);

const ZERO = { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 };

export class WorkerHost {
  private readonly supervisor = new ProcessSupervisor();
  /** Whether sealing works on this worker (ADR 0040): probed once, at the first job. */
  private readonly probe: SandboxProbe;
  private readonly confiner: Confiner;
  private readonly live = new Map<string, WorkerRun>();
  private readonly started = Date.now();
  private readonly repos: WorkerRepos | null;
  /** Set by stop(): every job taken from then on is handed back untouched. */
  private halted = false;

  constructor(private readonly o: WorkerHostOptions) {
    this.repos = o.workdir !== undefined ? new WorkerRepos(o.workdir, this.supervisor) : null;
    this.probe = new SandboxProbe(o.env);
    this.confiner = new Confiner({ probe: this.probe, hide: [], supervisor: this.supervisor });
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

  /** Runs one job to its end. Throws (the transport fails the job) only on a fault
   *  that is no stop's doing. */
  async run(t: TakenJob): Promise<JobEnd> {
    // Taken while stopping (the transport had fetched it): hand it back untouched.
    if (this.halted) return this.handBack(t);
    const data = t.data;
    if (!data) return this.unrun(t, "error", "the job is not a vouch branch job (wrong shape)");
    // An earlier attempt delivered the result and died before the queue heard: never run a branch twice.
    if (await t.delivered()) return { kind: "already-delivered" };
    // Cancelled while being fetched (too late for the coordinator to remove it): run nothing (ADR 0030).
    if ((await t.cancelReason()) !== null) return this.unrun(t, "cancelled", "cancelled before it started");
    await t.send({ kind: "attempt", job: t.id, worker: this.o.name, attempt: t.attempt });
    const graph = graphSchema.safeParse(data.graph);
    if (!graph.success) return this.unrun(t, "error", "the job's graph does not validate on this worker (different vouch versions?)");
    const quiet = { handedBack: false };
    const ledger = this.ledgerFor(t, quiet);
    // Worktrees in this worker's clone of the job's remote (ADR 0029); merge nodes stay on the coordinator.
    const baseDir = this.o.workdir ?? data.baseDir;
    const repo = await jobRepo(this.repos, data, baseDir, this.o.name);
    // A stop came during the awaits above: nothing of this branch has started. Checked before a
    // failed clone: the stop ends a fetch under way, which is no fault of the job.
    if (this.halted) return this.handBack(t);
    if (typeof repo === "string") return this.unrun(t, "error", repo);
    const { ports, close } = jobPorts({
      worker: this.o.name,
      env: this.o.env,
      supervisor: this.supervisor,
      ledger,
      confiner: this.confiner,
      ...(repo ? { git: repo.git } : {}),
    });
    const run = runBranchJob(data, graph.data, ports, ledger, baseDir, availability(await this.probe.check()));
    this.live.set(t.id, run);
    const unwatch = t.watchCancel((r) => run.stop((STOPS.has(r) ? r : "interrupted") as RunStop));
    try {
      // Settled before a stop abandoned it: a true result, delivered even while stopping.
      const outcome = await pushOutcome(repo, await run.outcome);
      return await this.deliver(t, { ...outcome, worker: this.o.name, attempt: t.attempt });
    } catch (e) {
      if (!this.halted) throw e;
      quiet.handedBack = true;
      return await this.handBack(t);
    } finally {
      unwatch();
      this.live.delete(t.id);
      await close(); // the job's handover folder
    }
  }

  /** The branch's events, without the envelope the coordinator puts back; none once handed back. */
  private ledgerFor(t: TakenJob, quiet: { handedBack: boolean }): Ledger {
    let seq = 0;
    return {
      append: (e: VouchEvent) => {
        // A handed-back branch's scope still winds down: what it says then is not sent.
        if (quiet.handedBack) return;
        const { v: _v, run: _r, t: _t, seq: _s, ...body } = e;
        t.send({ kind: "event", job: t.id, event: { worker: this.o.name, attempt: t.attempt, seq: seq++, body: body as never } }).catch(
          () => {},
        );
      },
    };
  }

  /** An outcome with nothing run: an error, or a job cancelled before it started. */
  private unrun(t: TakenJob, status: "error" | "cancelled", error: string): Promise<JobEnd> {
    return this.deliver(t, { worker: this.o.name, attempt: t.attempt, status, output: null, error, counts: { ...ZERO }, costUnknown: 0 });
  }

  private async deliver(t: TakenJob, outcome: BranchJobOutcome): Promise<JobEnd> {
    if (!(await t.claimResult())) return { kind: "already-delivered" };
    await t.send({ kind: "result", job: t.id, outcome });
    return { kind: "delivered", status: outcome.status };
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
    for (const run of this.live.values()) run.abandon();
    const running = this.live.size;
    await this.supervisor.shutdownAll();
    await drained();
    this.repos?.release();
    return running;
  }
}
