// What a run says of itself at its start and at its end: run.started (the plan,
// every node of every sub-graph and branch, the env names it may hand on) and
// run.finished with the outcome runGraph returns. Pure given the run's state.
import { EXIT } from "../errors.ts";
import type { EventOf, RunCounts, RunStatus } from "../events.ts";
import type { WalkedNode } from "../graph/graph-walk.ts";
import type { GraphFile } from "../graph/schema.ts";
import type { RunLimits, RunOptions, RunOutcome, RunPlan } from "./types.ts";

type Body<T extends "run.started" | "run.finished"> = Omit<EventOf<T>, "v" | "run" | "t" | "seq">;

const EXIT_OF: Record<RunStatus, number> = {
  passed: EXIT.passed,
  failed: EXIT.failed,
  error: EXIT.error,
  paused: EXIT.paused,
  interrupted: EXIT.interrupted,
};

function graphNodes(walked: readonly WalkedNode[]): Body<"run.started">["nodes"] {
  return walked.map((w) => ({
    id: w.id,
    kind: w.node.kind,
    needs: w.needs,
    ...(w.map !== undefined ? { map: w.map } : {}),
    ...(w.graph !== undefined ? { graph: w.graph } : {}),
    ...(w.node.description ? { description: w.node.description } : {}),
  }));
}

/** Every name the graph's `env:` lists hand to children (defaults and nodes, branches and sub-graphs included). */
export function graphEnvNames(graph: GraphFile, walked: readonly WalkedNode[]): string[] {
  const names = new Set<string>();
  for (const file of new Set([graph, ...walked.map((w) => w.file)])) file.defaults?.env?.forEach((n) => names.add(n));
  for (const { node } of walked) if (node.kind === "agent" || node.kind === "script") node.env?.forEach((n) => names.add(n));
  return [...names].sort();
}

export function runStarted(options: RunOptions, plan: RunPlan, limits: RunLimits, walked: readonly WalkedNode[]): Body<"run.started"> {
  return {
    type: "run.started",
    graph: options.graph.name,
    graph_path: options.graphPath,
    graph_digest: options.graphDigest,
    inputs: plan.inputs,
    caps: { budget_usd: limits.budgetUsd, wall_ms: limits.wallMs },
    concurrency: limits.concurrency,
    nodes: graphNodes(walked),
    pass_env: options.passEnv ?? [],
    graph_env: graphEnvNames(options.graph, walked),
    harness: options.harness ?? null,
    base_dir: options.baseDir,
    resumed: options.resume !== undefined,
    version: options.version,
    ...(options.executorUrl !== undefined ? { executor: options.executorUrl } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
  };
}

/** What the run spent and counted, as run.finished and the outcome both carry it. */
export interface RunTotals {
  runId: string;
  costUsd: number;
  costUnknown: number;
  wallMs: number;
  counts: RunCounts;
}

/** run.finished and the outcome it stands for: one status, its exit code, the totals. */
export function runFinished(
  totals: RunTotals,
  status: RunStatus,
  output: unknown,
  reason: string | undefined,
): { event: Body<"run.finished">; outcome: RunOutcome } {
  const exitCode = EXIT_OF[status];
  const event: Body<"run.finished"> = {
    type: "run.finished",
    status,
    exit_code: exitCode,
    cost_usd: totals.costUsd,
    cost_unknown: totals.costUnknown,
    wall_ms: totals.wallMs,
    counts: { ...totals.counts },
    ...(reason !== undefined ? { reason } : {}),
    ...(output !== undefined ? { output } : {}),
  };
  const outcome: RunOutcome = {
    runId: totals.runId,
    status,
    exitCode,
    costUsd: totals.costUsd,
    costUnknown: totals.costUnknown,
    wallMs: totals.wallMs,
    counts: { ...totals.counts },
  };
  if (reason !== undefined) outcome.reason = reason;
  if (output !== undefined) outcome.output = output;
  return { event, outcome };
}
