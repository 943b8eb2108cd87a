// Which of a graph's checks their history calls flaky (ADR 0067): `vouch validate` warns of
// them, and `vouch run`/`resume` name them in run.started for the live view. A check is
// looked up by its name and the digest of its command and expectation, as the graph has
// them now: a check whose command was changed since is a new history, not marked.
import { commandDigest } from "../engine/check-digest.ts";
import type { GraphProblem } from "../engine/errors.ts";
import { locateProblems } from "../engine/graph/loader.ts";
import type { PathProblem } from "../engine/graph/problem.ts";
import type { CheckRef, GraphFile, GraphNode } from "../engine/graph/schema.ts";
import type { RunOptions } from "../engine/run.ts";
import { flakyText, type CheckHistory } from "../read/check-history.ts";

export interface GraphCheck {
  name: string;
  digest: string;
  /** Where the graph file writes it. */
  path: PathProblem["path"];
}

function inline(ref: CheckRef, path: PathProblem["path"]): GraphCheck[] {
  return typeof ref === "string" ? [] : [{ name: ref.name, digest: commandDigest(ref.run, ref.expect ?? "exit_zero"), path }];
}

function nodeChecks(
  node: GraphNode | NonNullable<Extract<GraphNode, { kind: "map" }>["branch"]>[string],
  at: PathProblem["path"],
): GraphCheck[] {
  if (node.kind !== "agent" && node.kind !== "script") return [];
  return (node.success?.checks ?? []).flatMap((ref, i) => inline(ref, [...at, "success", "checks", i]));
}

/** The checks one graph file defines: its library (checks_from merged in) and its nodes' inline checks. */
export function graphChecks(graph: GraphFile): GraphCheck[] {
  const out: GraphCheck[] = Object.entries(graph.checks ?? {}).map(([name, def]) => ({
    name,
    digest: commandDigest(def.run, def.expect ?? "exit_zero"),
    path: ["checks", name],
  }));
  for (const [id, node] of Object.entries(graph.nodes)) {
    out.push(...nodeChecks(node, ["nodes", id]));
    if (node.kind === "map") for (const [bid, b] of Object.entries(node.branch)) out.push(...nodeChecks(b, ["nodes", id, "branch", bid]));
  }
  return out;
}

const keyOf = (name: string, digest: string | null) => JSON.stringify([name, digest]);

/** The checks among `checks` whose history is marked flaky, each once. */
export function markedChecks(
  checks: readonly GraphCheck[],
  histories: readonly CheckHistory[],
): { check: GraphCheck; history: CheckHistory }[] {
  const marked = new Map(histories.filter((h) => h.marked).map((h) => [keyOf(h.name, h.command_digest), h]));
  const seen = new Set<string>();
  return checks.flatMap((check) => {
    const k = keyOf(check.name, check.digest);
    const history = marked.get(k);
    if (history === undefined || seen.has(k)) return [];
    seen.add(k);
    return [{ check, history }];
  });
}

/** run.started's flaky_checks for the graph and the sub-graphs it uses. */
export function flakyChecksFor(
  graph: GraphFile,
  subgraphs: ReadonlyMap<string, GraphFile>,
  histories: readonly CheckHistory[],
): NonNullable<RunOptions["flakyChecks"]> {
  const checks = [graph, ...subgraphs.values()].flatMap(graphChecks);
  return markedChecks(checks, histories).map(({ check, history }) => ({
    name: check.name,
    command_digest: check.digest,
    flaky_runs: history.flaky_runs,
    runs: history.runs,
  }));
}

/** `vouch validate`'s warnings: each flaky check of the file, where the file writes it. */
export function flakyWarnings(file: string, text: string, graph: GraphFile, histories: readonly CheckHistory[]): GraphProblem[] {
  const problems: PathProblem[] = markedChecks(graphChecks(graph), histories).map(({ check, history }) => ({
    path: check.path,
    at: "key",
    message: `check "${check.name}" was ${flakyText(history)} (it both failed and passed on one tree)`,
    hint: `see its history with: vouch checks ${check.name} --history; a check may declare reruns: N`,
  }));
  return locateProblems(file, text, problems);
}
