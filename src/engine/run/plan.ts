// The plan of a run (`--dry-run`, and the first step of every run): inputs,
// the order nodes can start in, each agent node's harness and caps, and what
// the harnesses refuse. Starts nothing.
import { resolve } from "node:path";
import { GraphInvalidError, TemplateError, type GraphProblem } from "../errors.ts";
import type { AgentNode, GraphFile, Retry, ScriptNode } from "../graph/schema.ts";
import type { SessionMode } from "../sessions.ts";
import { nodeSessionAsk } from "./agent-session.ts";
import { refusingAgentRunner, type AgentPlan, type AgentRunner, type Refusal } from "../ports.ts";
import { scopeIndexOf, type ScopeNode } from "../scheduler/scope-index.ts";
import { renderText } from "../template/render.ts";
import { OutputSchemas } from "../verdict/output-schema.ts";
import { resolveInputs } from "./inputs.ts";
import { walkNodes, type WalkedNode } from "../graph/graph-walk.ts";
import { agentSettings, DEFAULT_CONCURRENCY } from "./node-settings.ts";
import type { PlannedNode, RunLimits, RunOptions, RunPlan } from "./types.ts";
import { planSeal } from "./node-seal.ts";

export function runLimits(options: RunOptions): RunLimits {
  return {
    concurrency: options.concurrency ?? options.graph.concurrency ?? DEFAULT_CONCURRENCY,
    budgetUsd: options.budgetUsd ?? options.graph.caps?.budget_usd ?? null,
    wallMs: options.wallMs ?? options.graph.caps?.wall ?? null,
  };
}

/** Author mistakes the schema cannot see but a run would trip on: found before anything starts. */
function contractProblems(file: { graph: GraphFile; path: string }, id: string, node: ScopeNode, schemas: OutputSchemas): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const at = (message: string): GraphProblem => ({ file: file.path, line: 1, col: 1, message: `node ${id}: ${message}` });
  if ((node.kind === "agent" || node.kind === "script") && node.output?.schema) {
    try {
      schemas.compile(node.output.schema);
    } catch (e) {
      problems.push(at(`output.schema is not a valid JSON Schema: ${(e as Error).message}`));
    }
  }
  if ((node.kind === "agent" || node.kind === "script") && node.success?.result_matches) {
    try {
      new RegExp(node.success.result_matches);
    } catch (e) {
      problems.push(at(`success.result_matches is not a regular expression: ${(e as Error).message}`));
    }
  }
  if (node.kind === "agent" || node.kind === "script" || node.kind === "merge") {
    for (const ref of node.success?.checks ?? []) {
      if (typeof ref === "string" && !file.graph.checks?.[ref]) problems.push(at(`check "${ref}" is not in the graph's checks library`));
    }
  }
  return problems;
}

function staticCwd(template: string | undefined, inputs: Record<string, unknown>, baseDir: string): string | undefined {
  if (template === undefined) return baseDir;
  try {
    return resolve(baseDir, renderText(template, { inputs }));
  } catch (e) {
    if (e instanceof TemplateError) return undefined; // depends on run data: known only at run time
    throw e;
  }
}

/** A run budget counts every sitting's cost: a node on a harness that reports no cost
 *  would spend outside it unseen, so the run budget is refused for it (docs/architecture.md §6),
 *  unless the node's own budget_usd was already refused. */
function runBudgetRefusals(agents: AgentRunner, plan: AgentPlan, runBudget: number | null): Refusal[] {
  if (runBudget === null || plan.caps.budgetUsd !== undefined) return [];
  const asked = agents.refuse({ ...plan, caps: { budgetUsd: runBudget } }).filter((r) => r.field === "caps.budget_usd");
  return asked.map((r) => ({
    harness: r.harness,
    field: "run caps.budget_usd",
    message: `harness "${r.harness}" cannot keep the run's budget_usd ($${runBudget}): it reports no cost in US dollars, so its spending would not count; remove the run budget (caps.budget_usd, --budget) or choose another harness for this node`,
  }));
}

/** What an agent node's sittings may do with a session (ADR 0023), for the harness to refuse. */
function sessionModes(node: AgentNode, retry: Retry | undefined): SessionMode[] {
  const ask = nodeSessionAsk(node);
  const modes = new Set<SessionMode>(ask ? [ask.mode] : []);
  if (retry?.session === "continue") modes.add("resume");
  return [...modes];
}

/** The node's seal on its plan (sealed, or why not); the refusal when `required` cannot be kept,
 *  "warn" when it runs unsealed because sealing does not work here. */
function planNodeSeal(file: GraphFile, node: AgentNode | ScriptNode, options: RunOptions, planned: PlannedNode): Refusal | "warn" | null {
  const seal = planSeal(file, node, options);
  if ("refused" in seal) {
    const r: Refusal = {
      harness: "sandbox",
      field: "sandbox",
      message: `${seal.refused}; install bubblewrap, or set sandbox: auto (or off) for this node`,
    };
    planned.refusals.push(r);
    return r;
  }
  planned.sealed = seal.sealed;
  if (seal.sealed) return null;
  planned.unsealed = seal.reason;
  return seal.warn ? "warn" : null;
}

/** An agent node's harness, caps, settings and what its harness refuses, on its plan. */
function planAgent(
  file: GraphFile,
  node: AgentNode,
  planned: PlannedNode,
  c: { options: RunOptions; agents: AgentRunner; budgetUsd: number | null; inputs: Record<string, unknown> },
): void {
  const s = agentSettings(file, node, c.options);
  const agentPlan: AgentPlan = { node: planned.id, harness: s.harness, caps: s.caps };
  if (s.acp !== undefined) agentPlan.acp = planned.acp = s.acp;
  if (s.model !== undefined) agentPlan.model = planned.model = s.model;
  if (s.tools !== undefined) agentPlan.tools = planned.tools = s.tools;
  if (s.permissionMode !== undefined) agentPlan.permissionMode = planned.permissionMode = s.permissionMode;
  const modes = sessionModes(node, s.retry);
  if (modes.length > 0) agentPlan.sessionModes = modes;
  // A sub-graph's inputs are known only once its graph node runs.
  const cwd = staticCwd(s.cwd, c.inputs, c.options.baseDir);
  if (cwd !== undefined) agentPlan.cwd = planned.cwd = cwd;
  planned.harness = s.harness;
  planned.caps = s.caps;
  if (s.defaultedCaps.length > 0) planned.defaultedCaps = s.defaultedCaps;
  planned.refusals.push(...c.agents.refuse(agentPlan));
  planned.refusals.push(...runBudgetRefusals(c.agents, agentPlan, c.budgetUsd));
}

export function planRun(options: RunOptions): RunPlan {
  const { graph } = options;
  const inputs = resolveInputs(graph, options.inputs);
  const agents: AgentRunner = options.ports.agents ?? refusingAgentRunner;
  const limits = runLimits(options);
  const schemas = new OutputSchemas();
  const problems: GraphProblem[] = [];
  const nodes: PlannedNode[] = [];
  const refusals: RunPlan["refusals"] = [];
  const unsealed: RunPlan["unsealed"] = [];
  const top = scopeIndexOf(graph.nodes);

  const plan = (w: WalkedNode) => {
    const { id, node } = w;
    problems.push(...contractProblems({ graph: w.file, path: w.filePath }, id, node, schemas));
    const planned: PlannedNode = { id, kind: node.kind, needs: w.needs, refusals: [] };
    if (w.map !== undefined) planned.map = w.map;
    if (w.graph !== undefined) planned.graph = w.graph;
    if (node.kind === "agent" || node.kind === "script") {
      const r = planNodeSeal(w.file, node, options, planned);
      if (r === "warn") unsealed.push({ node: id, reason: planned.unsealed! });
      else if (r !== null) refusals.push({ node: id, ...r });
    }
    if (node.kind === "agent") {
      planAgent(w.file, node, planned, { options, agents, budgetUsd: limits.budgetUsd, inputs: w.file === graph ? inputs : {} });
      for (const r of planned.refusals.filter((x) => x.harness !== "sandbox"))
        refusals.push({ node: id, harness: r.harness, field: r.field, message: r.message });
    }
    nodes.push(planned);
  };

  // Graph order (topological within each scope), every branch and sub-graph right after its node.
  const walked = walkNodes(graph, options.graphPath, options.subgraphs);
  const rank = new Map(top.order.map((id, i) => [id, i]));
  const topId = (w: WalkedNode) => w.id.split("/")[0]!;
  const ownerOf = (w: WalkedNode) => (w.map === undefined && w.graph === undefined ? w.id : topId(w));
  const outerOf = (w: WalkedNode) => (w.map !== undefined && !w.map.includes("/") ? w.map : ownerOf(w));
  const sorted = walked.map((w, i) => ({ w, i })).sort((a, b) => rank.get(outerOf(a.w))! - rank.get(outerOf(b.w))! || a.i - b.i);
  for (const { w } of sorted) plan(w);
  if (problems.length > 0) throw new GraphInvalidError(problems);
  return {
    graph: graph.name,
    inputs,
    concurrency: limits.concurrency,
    caps: { budgetUsd: limits.budgetUsd, wallMs: limits.wallMs },
    order: top.order,
    nodes,
    refusals,
    unsealed,
    passEnv: options.passEnv ?? [],
  };
}
