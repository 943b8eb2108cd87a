// The MCP tools that act (ADR 0065): validate a graph, start a run (a graph file
// under the root, or a graph passed as text: a planned graph), cancel a run. No
// tool decides an approval: a person does, in the run's live view or with
// `vouch approve`.
import { formatProblem, UsageError, type GraphProblem } from "../../engine/errors.ts";
import { HARNESS_NAMES } from "../../engine/graph/schema.ts";
import { readGraphFile } from "../graph-file.ts";
import { cancelRun } from "../remote/cancel-run.ts";
import { checkFile } from "../validate-command.ts";
import { withLedger, type McpContext } from "./context.ts";
import { plannedGraph } from "./planned.ts";

export interface GraphArg {
  /** A graph file, relative to the root. */
  path?: string;
  /** A graph's YAML text: a planned graph. */
  graph?: string;
}

const shownProblem = (p: GraphProblem) => formatProblem(p).trimEnd();

function oneGraph(a: GraphArg): "path" | "graph" {
  if ((a.path === undefined) === (a.graph === undefined))
    throw new UsageError("give exactly one of path (a graph file under the root) and graph (a graph's YAML text: a planned graph)");
  return a.path !== undefined ? "path" : "graph";
}

export function validateGraph(ctx: McpContext, a: GraphArg) {
  if (oneGraph(a) === "graph") {
    const planned = plannedGraph(a.graph!, ctx.library, ctx.home, { cwd: ctx.root.real, env: ctx.env });
    if ("problems" in planned) return { valid: false, origin: "planned", problems: planned.problems.map(shownProblem) };
    return { valid: true, origin: "planned", graph: planned.text };
  }
  const file = ctx.root.resolve(a.path!, "graph file");
  const { problems, warnings } = checkFile(file, ctx.root.real, ctx.env);
  return {
    valid: problems.length === 0,
    path: ctx.root.shown(file),
    problems: problems.map(shownProblem),
    warnings: warnings.map(shownProblem),
  };
}

export interface StartArg extends GraphArg {
  inputs?: Record<string, unknown>;
  harness?: string;
  wait_approvals?: boolean;
}

/** Starts the run in the background; resolves with its id once it has started. */
export async function startRun(ctx: McpContext, a: StartArg) {
  if (a.harness !== undefined && !(HARNESS_NAMES as readonly string[]).includes(a.harness))
    throw new UsageError(`harness "${a.harness}" is not a harness (harnesses: ${HARNESS_NAMES.join(", ")})`);
  const file = graphFileOf(ctx, a);
  const run = await ctx.runs.start({
    file,
    ...(a.inputs !== undefined ? { inputs: a.inputs } : {}),
    ...(a.harness !== undefined ? { harness: a.harness } : {}),
    ...(a.wait_approvals ? { waitApprovals: true } : {}),
  });
  return {
    run,
    status: "running",
    graph_file: ctx.root.shown(file),
    next: "wait_run (bounded) or run_status; run_report when it has ended",
  };
}

/** The file to run: one under the root (its sub-graphs and checks files under it too), or the
 *  planned graph a text makes (refused, with every problem, when it breaks a planned rule). */
function graphFileOf(ctx: McpContext, a: StartArg): string {
  if (oneGraph(a) === "path") {
    const file = ctx.root.resolve(a.path!, "graph file");
    const tree = readGraphFile(file, ctx.root.real, ctx.env);
    ctx.root.refuseReachingOut(file, tree.graph, tree.subgraphs);
    return file;
  }
  const planned = plannedGraph(a.graph!, ctx.library, ctx.home, { cwd: ctx.root.real, env: ctx.env });
  if ("problems" in planned)
    throw new UsageError(
      `the graph is refused: it is a planned graph (origin: planned), and ${planned.problems.length === 1 ? "this breaks" : "these break"} its rules:\n${planned.problems.map(shownProblem).join("\n")}`,
      "a graph passed as text may not run commands of its own; name checks from the server's library (list_checks)",
    );
  const tree = readGraphFile(planned.file, ctx.root.real, ctx.env);
  ctx.root.refuseReachingOut(planned.file, { ...tree.graph, checks_from: [] }, tree.subgraphs);
  return planned.file;
}

export function cancel(ctx: McpContext, run: string) {
  return withLedger(
    ctx,
    async (ledger) => {
      const o = await cancelRun({ ledger, ref: run, via: "mcp", env: ctx.env, waitMs: 60_000 });
      if (o.kind === "not_running") return { run: o.runId, cancelled: false, status: o.status, why: "the run is not running" };
      if (o.kind === "ended")
        return { run: o.runId, cancelled: o.took, status: o.status, exit_code: o.exitCode, resume: `vouch resume ${o.runId}` };
      if (o.kind === "timeout")
        return { run: o.runId, cancelled: false, requested: true, why: "the run has not stopped within 60s; the request stays recorded" };
      return { run: o.runId, cancelled: false, requested: true };
    },
    true,
  );
}
