// A map branch as a job (ADR 0026): what the coordinator puts in it, and how a
// worker runs it — with the same ScopeRunner a local branch uses, in a run
// context of its own whose events go back to the coordinator.
import { branchKey, nodeKey, ZERO_COUNTS } from "../events.ts";
import { graphSchema, type GraphFile, type MapNode } from "../graph/schema.ts";
import { sourceForm } from "../graph/source-form.ts";
import type { BranchJob, BranchJobOutcome, Ledger } from "../ports.ts";
import type { RunStop } from "../verdict/conjunction.ts";
import { workspaceOf } from "../workspace/spec.ts";
import { summarizeBranch } from "./branch-summary.ts";
import { branchIndex } from "./branch-launch.ts";
import { RunContext } from "./context.ts";
import { Emitter } from "./emitter.ts";
import type { NodeView } from "./node-view.ts";
import { ScopeRunner } from "./scope-runner.ts";
import { topFrame } from "./frame.ts";
import type { KeptNode, RunPorts } from "./types.ts";

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
export function runBranchJob(job: BranchJob, graph: GraphFile, ports: RunPorts, ledger: Ledger, baseDir: string): WorkerRun {
  const map = graph.nodes[job.map] as MapNode;
  const options = {
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
  };
  let settle!: (v: Omit<BranchJobOutcome, "worker" | "attempt">) => void;
  let reject!: (e: unknown) => void;
  const outcome = new Promise<Omit<BranchJobOutcome, "worker" | "attempt">>((res, rej) => ((settle = res), (reject = rej)));
  let scope: ScopeRunner | null = null;
  const onQuiet = () => {
    if (ctx.paused.size > 0) reject(new Error("the branch waits on an approval: approvals cannot run on a worker"));
    // Nothing on a worker lifts a limit (the coordinator's limit book waits or pauses):
    // a branch whose only live work is parked on one would hold its job for ever.
    else if (ctx.usageLimits.parkedCount > 0) {
      const harnesses = [...new Set(ctx.usageLimits.parkedAttempts().map((p) => p.harness))].join(", ");
      reject(
        new Error(`the branch is held by a usage limit of ${harnesses}: a worker cannot wait for a limit; resume the run once it lifts`),
      );
    }
  };
  const ctx: RunContext = new RunContext(
    options,
    { ...ports, ledger },
    new Emitter(job.runId, ports.clock, ledger, 0),
    job.inputs,
    { concurrency: job.concurrency, budgetUsd: null, wallMs: null },
    onQuiet,
    (e) => reject(e),
  );
  const counts0 = { ...ctx.counts };
  scope = new ScopeRunner(
    ctx,
    branchIndex(map),
    topFrame(ctx),
    {
      map: job.map,
      index: job.index,
      item: job.item,
      ...(map.as ? { as: map.as } : {}),
      signal: ctx.signal,
      failFastTripped: () => false,
      outer: job.upstream as Record<string, NodeView>,
    },
    {
      onComplete: () => {
        const r = summarizeBranch(scope!, map, job.index, job.item);
        const counts = { ...ZERO_COUNTS, self_reported: 0 };
        for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] = (ctx.counts[k] ?? 0) - (counts0[k] ?? 0);
        const result = {
          status: r.status,
          output: r.output,
          error: r.error,
          ...(r.recovered ? { recovered: true } : {}),
          counts,
          costUnknown: ctx.costUnknown,
        };
        // Worktrees `keep` does not keep go first, as at a local run's end (ADR 0020); branches stay.
        void ctx.workspaces.close().then(() => settle(result));
      },
    },
  );
  ctx.begin();
  try {
    scope.start();
  } catch (e) {
    reject(e);
  } finally {
    ctx.end();
  }
  return {
    outcome,
    stop: (reason) => ctx.requestStop(reason),
    abandon: () => {
      ctx.requestStop("interrupted");
      reject(new Error("handed back"));
    },
  };
}
