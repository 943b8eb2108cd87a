// Which git branches a `kind: merge` node combines, in order (ADR 0021). Pure:
// decided from the graph and the upstream results, never from git.
//   from: a map  → every branch of it that passed (not one `exhausted:` recovered),
//                  in input order; in each, the tips of its worktree chains.
//   from: [a, b] → each node that passed, in the listed order.
// A "tip" is a node with a worktree that no other node of its scope continues
// (`workspace.from`): a reviewer working on from the implementer holds both
// their commits, so merging the tip merges the chain once.
import type { GraphFile, MergeNode } from "../graph/schema.ts";
import { mergeFromIds, worktreeTips } from "../graph/merge-from.ts";
import { branchKey, nodeKey, type BranchRef } from "../events.ts";
import type { AnyNode } from "../graph/graph-index.ts";
import { workspaceOf } from "../workspace/spec.ts";
import { branchName } from "../workspace/names.ts";
import type { NodeView } from "./node-view.ts";

export interface MergeSource {
  /** What made the work: a node id, or "map#index". */
  from: string;
  /** The git branch vouch made for it (named in the output; its commit now is never read). */
  branch: string;
  /** The node whose recorded commit is merged (nodeKey): the commit vouch judged. */
  key: string;
  /** The protect globs of the work's nodes: the merged tree takes these paths from base. */
  protect: string[];
}

export interface SourcePlan {
  sources: MergeSource[];
  /** Upstream work that did not pass, so it is not merged ("map#index" or a node id). */
  notPassed: string[];
}

interface BranchOutcome {
  index: number;
  status: string;
  recovered?: boolean;
}

function branchOutcomes(view: NodeView | undefined): BranchOutcome[] {
  const results = view?.results ?? [];
  return results.filter((r): r is BranchOutcome => typeof r === "object" && r !== null && typeof (r as BranchOutcome).index === "number");
}

/** @param graph the merge node's own file (a sub-graph's, ADR 0024), whose ids `from` names
 *  @param prefix that file's id prefix: its nodes' worktree branches carry it (vouch/<run>/<prefix><id>) */
export function mergeSources(graph: GraphFile, node: MergeNode, runId: string, views: Record<string, NodeView>, prefix = ""): SourcePlan {
  const plan: SourcePlan = { sources: [], notPassed: [] };
  for (const id of mergeFromIds(node)) {
    const target = graph.nodes[id];
    const view = Object.hasOwn(views, id) ? views[id] : undefined;
    if (target?.kind === "map") {
      const tips = worktreeTips(graph, target.branch);
      for (const r of branchOutcomes(view)) {
        const where = branchKey(id, r.index);
        if (r.status !== "passed" || r.recovered) {
          plan.notPassed.push(where);
          continue;
        }
        const ref: BranchRef = { map: prefix + id, index: r.index };
        const protect = protectOf(graph, Object.values(target.branch));
        for (const tip of tips)
          plan.sources.push({ from: where, branch: branchName(runId, prefix + tip, ref), key: nodeKey(prefix + tip, ref), protect });
      }
    } else if (view?.status === "passed") {
      const chain = target === undefined ? [] : fromChain(graph, target);
      plan.sources.push({ from: id, branch: branchName(runId, prefix + id), key: prefix + id, protect: protectOf(graph, chain) });
    } else plan.notPassed.push(id);
  }
  return plan;
}

/** The node and the nodes it continues (`workspace.from`), upstream first. */
function fromChain(graph: GraphFile, node: AnyNode): AnyNode[] {
  const chain: AnyNode[] = [];
  for (let n: AnyNode | undefined = node; n !== undefined && !chain.includes(n); ) {
    chain.unshift(n);
    const from: string | undefined = workspaceOf(graph, n)?.from;
    n = from === undefined ? undefined : graph.nodes[from];
  }
  return chain;
}

/** Every protect glob of these nodes, once each. */
function protectOf(graph: GraphFile, nodes: AnyNode[]): string[] {
  return [...new Set(nodes.flatMap((n) => workspaceOf(graph, n)?.protect ?? []))];
}
