// A map branch as a job (ADR 0026): what the coordinator puts in it, and how a
// worker runs it — with the same ScopeRunner a local branch uses, in a run
// context of its own whose events go back to the coordinator.
import type { SandboxAvailability } from "../sandbox.ts";
import { branchKey, nodeKey, ZERO_COUNTS, type RunCounts } from "../events.ts";
import { walkNodes } from "../graph/graph-walk.ts";
import { graphSchema, type GraphFile, type MapNode } from "../graph/schema.ts";
import { sourceForm } from "../graph/source-form.ts";
import type { BranchJob, BranchJobOutcome, Ledger } from "../ports.ts";
import type { RunStop } from "./contract.ts";
import { scopeIndexOf } from "../scheduler/scope-index.ts";
import { priorWorkspaces } from "../workspace/prior.ts";
import { workspaceOf } from "../workspace/spec.ts";
import { summarizeBranch } from "./branch-summary.ts";
import { RunContext } from "./context.ts";
import { Emitter } from "./emitter.ts";
import type { NodeView } from "./node-view.ts";
import { ScopeRunner } from "./scope-runner.ts";
import { topFrame } from "./frame.ts";
import { settlement } from "./settlement.ts";
import type { KeptNode, RunOptions, RunPorts } from "./types.ts";

/** Deterministic: BullMQ refuses ":" in custom ids, so the parts are joined by "." (run ids
 *  and node ids hold none). */
export function jobIdOf(runId: string, map: string, index: number, dispatch: number): string {
  return `${runId}.${map}.${index}.${dispatch}`;
}

/** The same job again while the branch never finished (re-attach); a new one after it ended. */
export function dispatchOf(prior: { dispatch: number; finished: boolean } | undefined): number {
  if (prior === undefined) return 1;
  return prior.finished ? prior.dispatch + 1 : prior.dispatch;
}

export function branchJob(
  ctx: RunContext,
  map: string,
  node: MapNode,
  index: number,
  item: unknown,
  outer: Record<string, NodeView>,
  _executor: string,
): BranchJob {
  const o = ctx.options;
  const dispatch = dispatchOf(ctx.resume?.remote?.dispatches[branchKey(map, index)]);
  const g = o.graph;
  const graph: Record<string, unknown> = { version: g.version, name: g.name, nodes: { [map]: node } };
  if (g.defaults) graph.defaults = g.defaults;
  if (g.checks) graph.checks = g.checks;
  const kept: Record<string, KeptNode> = {};
  for (const id of Object.keys(node.branch)) {
    const k = ctx.resume?.nodes[nodeKey(id, { map, index })];
    if (k) kept[nodeKey(id, { map, index })] = k;
  }
  // In the file's form: the worker validates it again (durations back to strings, ADR 0030).
  const carried = sourceForm(graphSchema as never, graph) as Record<string, unknown>;
  const job: BranchJob = {
    runId: o.runId,
    jobId: jobIdOf(o.runId, map, index, dispatch),
    dispatch,
    map,
    index,
    item,
    graph: carried,
    graphDigest: o.graphDigest,
    graphPath: o.graphPath,
    inputs: ctx.inputs,
    upstream: { ...outer },
    kept,
    passEnv: o.passEnv ?? [],
    baseDir: o.baseDir,
    concurrency: ctx.limits.concurrency,
    version: o.version,
  };
  if (o.harness) job.harness = o.harness;
  if (o.sandbox) job.sandbox = o.sandbox;
  // Only a branch with a worktree needs the repository (a worker without --workdir runs the others).
  if (o.remoteWorkspace && Object.values(node.branch).some((b) => workspaceOf(g, b) !== null)) job.workspace = o.remoteWorkspace;
  return job;
}

export interface WorkerRun {
  outcome: Promise<Omit<BranchJobOutcome, "worker" | "attempt">>;
  /** The coordinator's stop: cancel the branch as a local stop of that reason would. */
  stop(reason: RunStop): void;
  /** SIGTERM: kill the branch's processes, no outcome (the job goes back to the queue). */
  abandon(): void;
}

/** Runs one job's branch. `ledger` gets its events (seq from 0 in each attempt). */
/** @param sandboxAvailability whether sealing works on this worker (its own probe, ADR 0040) */
export function runBranchJob(
  job: BranchJob,
  graph: GraphFile,
  ports: RunPorts,
  ledger: Ledger,
  baseDir: string,
  sandboxAvailability?: SandboxAvailability,
): WorkerRun {
  const branch = new JobBranch(job, graph, { ...ports, ledger }, baseDir, sandboxAvailability);
  branch.start();
  return {
    outcome: branch.outcome.promise,
    stop: (reason) => branch.ctx.requestStop(reason),
    abandon: () => {
      branch.ctx.requestStop("interrupted");
      branch.outcome.reject(new Error("handed back"));
    },
  };
}

type JobOutcome = Omit<BranchJobOutcome, "worker" | "attempt">;

/** The run options a worker runs a job's branch with: the coordinator's, as the job carries them. */
function jobOptions(
  job: BranchJob,
  graph: GraphFile,
  ports: RunPorts,
  baseDir: string,
  sandboxAvailability?: SandboxAvailability,
): RunOptions {
  return {
    runId: job.runId,
    graph,
    graphPath: job.graphPath,
    graphDigest: job.graphDigest,
    inputs: job.inputs,
    baseDir,
    ports,
    concurrency: job.concurrency,
    passEnv: job.passEnv,
    resume: { startSeq: 0, nodes: job.kept as Record<string, KeptNode>, branches: {} },
    version: job.version,
    ...(job.harness ? { harness: job.harness } : {}),
    ...(job.sandbox ? { sandbox: job.sandbox } : {}),
    ...(sandboxAvailability ? { sandboxAvailability } : {}),
  };
}

/** One job's branch on a worker: the same ScopeRunner a local branch uses, in a run context
 *  of its own (no run budget or wall: the coordinator keeps those). */
class JobBranch {
  readonly outcome = settlement<JobOutcome>();
  readonly ctx: RunContext;
  private readonly map: MapNode;
  private readonly scope: ScopeRunner;
  /** The counts before the branch ran (kept nodes count in the coordinator already). */
  private readonly counts0: RunCounts;

  constructor(
    private readonly job: BranchJob,
    graph: GraphFile,
    ports: RunPorts,
    baseDir: string,
    sandboxAvailability?: SandboxAvailability,
  ) {
    this.map = graph.nodes[job.map] as MapNode;
    const options = jobOptions(job, graph, ports, baseDir, sandboxAvailability);
    this.ctx = new RunContext({
      options,
      ports,
      emitter: new Emitter(job.runId, ports.clock, ports.ledger, 0),
      inputs: job.inputs,
      limits: { concurrency: job.concurrency, budgetUsd: null, wallMs: null },
      priorWorkspaces: priorWorkspaces(walkNodes(graph, job.graphPath, undefined), options.resume?.nodes),
      onQuiet: () => this.onQuiet(),
      onFatal: (e) => this.outcome.reject(e),
    });
    this.counts0 = { ...this.ctx.counts };
    const place = {
      map: job.map,
      index: job.index,
      item: job.item,
      ...(this.map.as ? { as: this.map.as } : {}),
      signal: this.ctx.signal,
      failFastTripped: () => false,
      outer: job.upstream as Record<string, NodeView>,
    };
    this.scope = new ScopeRunner(this.ctx, scopeIndexOf(this.map.branch), topFrame(this.ctx), place, {
      onComplete: () => this.onComplete(),
    });
  }

  start(): void {
    this.ctx.begin();
    try {
      this.scope.start();
    } catch (e) {
      this.outcome.reject(e);
    } finally {
      this.ctx.end();
    }
  }

  /** Nothing on a worker answers an approval or lifts a limit: a branch left waiting on one fails its job. */
  private onQuiet(): void {
    const { ctx } = this;
    if (ctx.paused.size > 0) this.outcome.reject(new Error("the branch waits on an approval: approvals cannot run on a worker"));
    // Nothing on a worker lifts a limit (the coordinator's limit book waits or pauses):
    // a branch whose only live work is parked on one would hold its job for ever.
    else if (ctx.usageLimits.parkedCount > 0) {
      const harnesses = [...new Set(ctx.usageLimits.parkedAttempts().map((p) => p.harness))].join(", ");
      this.outcome.reject(
        new Error(`the branch is held by a usage limit of ${harnesses}: a worker cannot wait for a limit; resume the run once it lifts`),
      );
    }
  }

  private onComplete(): void {
    const { ctx } = this;
    const r = summarizeBranch(this.scope, this.map, this.job.index, this.job.item);
    const counts = { ...ZERO_COUNTS, self_reported: 0 };
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] = (ctx.counts[k] ?? 0) - (this.counts0[k] ?? 0);
    const result: JobOutcome = {
      status: r.status,
      output: r.output,
      error: r.error,
      ...(r.recovered ? { recovered: true } : {}),
      counts,
      costUnknown: ctx.costUnknown,
    };
    // Worktrees `keep` does not keep go first, as at a local run's end (ADR 0020); branches stay.
    void ctx.workspaces.close().then(() => this.outcome.resolve(result));
  }
}
