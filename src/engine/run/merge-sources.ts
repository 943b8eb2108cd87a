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
import { branchKey, type BranchRef } from "../events.ts";
import { branchName } from "../workspace/names.ts";
import type { NodeView } from "./node-view.ts";

export interface MergeSource {
  /** What made the work: a node id, or "map#index". */
  from: string;
  /** The git branch holding it. */
  branch: string;
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
        for (const tip of tips) plan.sources.push({ from: where, branch: branchName(runId, prefix + tip, ref) });
      }
    } else if (view?.status === "passed") plan.sources.push({ from: id, branch: branchName(runId, prefix + id) });
    else plan.notPassed.push(id);
  }
  return plan;
}
