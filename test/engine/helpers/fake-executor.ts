// A BranchExecutor that runs each job in this process through runBranchJob (the
// worker's engine code) with the same fake ports, and streams the branch's
// events back as a queue would: optionally every event twice, and optionally a
// first attempt cut off after a few events.
import { graphSchema } from "../../../src/engine/graph/schema.ts";
import { ExecutorLostError } from "../../../src/engine/errors.ts";
import { ZERO_COUNTS } from "../../../src/engine/events.ts";
import type { BranchExecutor, BranchJob, BranchJobHooks, BranchJobOutcome } from "../../../src/engine/ports.ts";
import type { VouchEvent } from "../../../src/engine/events.ts";
import { runBranchJob } from "../../../src/engine/run/branch-job.ts";
import type { RunPorts } from "../../../src/engine/run.ts";

export interface FakeExecutorOptions {
  duplicate?: boolean;
  /** Indexes whose first attempt stops after this many events (its worker "died"). */
  cutOff?: { indexes: number[]; afterEvents: number };
  /** Indexes whose job the executor loses. */
  lose?: number[];
  /** Indexes whose first attempt took the job and sent nothing: the next one is attempt 2. */
  silentFirst?: number[];
  /** Indexes whose first attempt's result comes after attempt 2 began: refused (ADR 0046). */
  refusedFirst?: number[];
}

export class FakeExecutor implements BranchExecutor {
  readonly name = "fake";
  readonly jobs: BranchJob[] = [];
  /** What the ledger had committed when each job was created. */
  readonly committedAtDispatch: string[][] = [];

  constructor(
    private readonly ports: () => RunPorts,
    private readonly committed: () => VouchEvent[],
    private readonly o: FakeExecutorOptions = {},
  ) {}

  async run(job: BranchJob, hooks: BranchJobHooks): Promise<BranchJobOutcome> {
    this.jobs.push(structuredClone(job)); // a job is JSON: nothing in it may be a live object
    this.committedAtDispatch.push(
      this.committed()
        .filter((e) => e.type === "branch.dispatched")
        .map((e) => (e as { job: string }).job),
    );
    if (this.o.lose?.includes(job.index)) throw new ExecutorLostError("connection closed");
    let attempt = 1;
    if (this.o.silentFirst?.includes(job.index)) attempt++;
    if (this.o.refusedFirst?.includes(job.index)) {
      const first = await this.attempt(job, hooks, attempt, `w${attempt}`);
      hooks.onAttempt(attempt + 1, `w${attempt + 1}`);
      hooks.onRefused?.({ attempt, worker: `w${attempt}`, status: first.status, reason: "attempt 1 no longer held the job" });
      attempt++;
    }
    if (this.o.cutOff?.indexes.includes(job.index)) {
      await this.attempt(job, hooks, attempt, `w${attempt}`, this.o.cutOff.afterEvents);
      attempt++;
    }
    let o;
    try {
      o = await this.attempt(job, hooks, attempt, `w${attempt}`);
    } catch (e) {
      // A branch the worker's engine gave up on fails its job; the Redis executor
      // reports a failed job as the branch's error (redis-executor.ts, watch).
      const error = `the job failed on the workers: ${(e as Error).message}`;
      return { worker: "", attempt, status: "error", output: null, error, counts: { ...ZERO_COUNTS }, costUnknown: 0 };
    }
    return { ...o!, worker: `w${attempt}`, attempt };
  }

  private async attempt(job: BranchJob, hooks: BranchJobHooks, attempt: number, worker: string, stopAfter?: number) {
    const graph = graphSchema.parse(job.graph);
    let seq = 0;
    const ledger = {
      append: (e: VouchEvent) => {
        const { v: _v, run: _r, t: _t, seq: _s, ...body } = e;
        if (stopAfter !== undefined && seq >= stopAfter) return;
        const ev = { worker, attempt, seq: seq++, body: body as never };
        hooks.onEvent(ev);
        if (this.o.duplicate) hooks.onEvent(ev);
      },
    };
    hooks.onAttempt(attempt, worker);
    const w = runBranchJob(job, graph, this.ports(), ledger, job.baseDir);
    const onAbort = () => w.stop((hooks.stopReason() ?? "interrupted") as never);
    hooks.signal.addEventListener("abort", onAbort, { once: true });
    if (hooks.signal.aborted) onAbort();
    try {
      return await w.outcome;
    } finally {
      hooks.signal.removeEventListener("abort", onAbort);
    }
  }
}
