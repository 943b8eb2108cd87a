// The edges of a graph as a picture shows them (`vouch graph`): needs, router
// routes with their conditions, fallbacks, feedback loops, and a map's arrow
// into its branch.
import { conditionText } from "./condition-text.ts";
import { GraphIndex } from "./graph-index.ts";
import type { GraphFile } from "./schema.ts";

export type EdgeKind = "needs" | "route" | "default" | "fallback" | "feedback" | "item";

export interface DrawEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label?: string;
}

export function drawingEdges(graph: GraphFile): DrawEdge[] {
  const index = new GraphIndex(graph);
  const edges: DrawEdge[] = [];
  for (const n of index.nodes) {
    const node = n.node!;
    for (const need of n.needs) edges.push({ from: need, to: n.id, kind: "needs" });
    if (node.kind === "router") {
      for (const r of node.routes) for (const t of r.to) edges.push({ from: n.id, to: t, kind: "route", label: conditionText(r.when, 40) });
      for (const t of node.default ?? []) edges.push({ from: n.id, to: t, kind: "default", label: "otherwise" });
    }
    if (node.kind === "agent" || node.kind === "script") {
      if (node.fallback !== undefined) edges.push({ from: n.id, to: node.fallback, kind: "fallback", label: "fallback" });
      if (node.feedback) {
        const when = node.feedback.when !== undefined ? `, when ${conditionText(node.feedback.when, 30)}` : "";
        edges.push({ from: n.id, to: node.feedback.to, kind: "feedback", label: `feedback, max ${node.feedback.max}${when}` });
      }
    }
    if (node.kind === "map") {
      const branch = Object.entries(node.branch);
      const deps = index.deps(n.id);
      for (const [bid] of branch)
        if ((deps.get(bid) ?? []).length === 0) edges.push({ from: n.id, to: bid, kind: "item", label: `each ${node.as ?? "item"}` });
    }
  }
  return edges;
}
