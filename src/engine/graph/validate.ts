// The semantic validator: every rule that needs more than one field at a time
// (ids that must exist, cycles, scopes, templates, commands). Pure: takes the
// parsed graph, returns problems located by path (the loader adds line:col).
import { GraphIndex, type IndexedNode } from "./graph-index.ts";
import type { PathProblem } from "./problem.ts";
import type { GraphFile } from "./schema.ts";
import type { Rule, ValidateContext } from "./validate-context.ts";
import { cycles, inputNames, maps, references, uniqueIds } from "./validate-structure.ts";
import { acpOnAcp, checks, plannedPowers, scriptCommand, stampNeedsJson, staticCommands } from "./validate-commands.ts";
import { dataPaths } from "./validate-templates.ts";
import { valueDepth } from "./validate-depth.ts";
import { schemaRefs } from "./validate-schema-refs.ts";
import { argvValues } from "./validate-argv-values.ts";
import { merges } from "./validate-merge.ts";
import { plannedReach } from "./validate-planned.ts";
import { sessions } from "./validate-sessions.ts";
import { workspaces } from "./validate-workspace.ts";
import { retryCost } from "./validate-retry.ts";
import { notifiers } from "./validate-notify.ts";

export { graphOrder, ancestors, type OrderedNode } from "./graph-index.ts";

const RULES: Rule[] = [
  uniqueIds,
  references,
  cycles,
  maps,
  inputNames,
  staticCommands,
  acpOnAcp,
  plannedPowers,
  plannedReach,
  scriptCommand,
  checks,
  stampNeedsJson,
  dataPaths,
  valueDepth,
  schemaRefs,
  argvValues,
  workspaces,
  merges,
  sessions,
  retryCost,
  notifiers,
];

/** What exists in the file but did not pass the schema (so rules neither check it nor
 *  report references to it as unknown). Filled by the loader's salvage step. */
export interface Unparsed {
  nodes: IndexedNode[];
  checks: string[] | "any";
  inputs: string[] | "any";
}

export function validateGraph(graph: GraphFile, unparsed: Unparsed = { nodes: [], checks: [], inputs: [] }): PathProblem[] {
  const problems: PathProblem[] = [];
  const names = (declared: Record<string, unknown> | undefined, extra: string[] | "any") =>
    extra === "any" ? ("any" as const) : new Set([...Object.keys(declared ?? {}), ...extra]);
  const ctx: ValidateContext = {
    graph,
    index: new GraphIndex(graph, unparsed.nodes),
    checkNames: names(graph.checks, unparsed.checks),
    inputNames: names(graph.inputs, unparsed.inputs),
    report: (p) => problems.push(p),
  };
  for (const rule of RULES) rule(ctx);
  return problems;
}
