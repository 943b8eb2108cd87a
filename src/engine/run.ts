// The engine's API: run a graph, plan it (--dry-run), and derive what a
// resumed run keeps. The CLI, the ledger's resume and the benchmarks call these.
export { runGraph, withDefaultPorts } from "./run/run-graph.ts";
export { planRun } from "./run/plan.ts";
export { anyNodeSeals } from "./run/node-seal.ts";
export { priorFromEvents } from "./run/resume.ts";
export { systemClock } from "./clock.ts";
export { branchKey, nodeKey, type RunCounts } from "./events.ts";
export type {
  KeptBranch,
  KeptNode,
  PlannedNode,
  ResumeState,
  RunOptions,
  RunOutcome,
  RunPlan,
  RunPorts,
} from "./run/types.ts";
