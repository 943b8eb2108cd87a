// What a `kind: merge` node's `from` names (ADR 0021): the listed ids, and in a
// map's branch the nodes whose worktrees hold the work — the tips of the
// worktree chains. A node with a worktree that another node of its scope
// continues (`workspace.from`) is not a tip: the continuing node's branch holds
// both their commits, so merging the tip merges the chain once.
import type { AnyNode } from "./graph-index.ts";
import type { GraphFile, MergeNode } from "./schema.ts";
import { workspaceOf } from "../workspace/spec.ts";

/** The ids listed in `from`, in order. */
export function mergeFromIds(node: MergeNode): string[] {
  return typeof node.from === "string" ? [node.from] : node.from;
}

/** Nodes of one scope with a worktree that no node of the scope continues, in declaration order. */
export function worktreeTips(graph: GraphFile, nodes: Record<string, AnyNode>): string[] {
  const own = Object.entries(nodes).filter(([, n]) => workspaceOf(graph, n) !== null);
  const continued = new Set(own.map(([, n]) => workspaceOf(graph, n)!.from).filter((f) => f !== undefined));
  return own.map(([id]) => id).filter((id) => !continued.has(id));
}
