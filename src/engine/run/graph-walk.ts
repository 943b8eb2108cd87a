// Every node of a run, sub-graphs' included (ADR 0024), in graph order: what
// run.started lists, what the plan checks, what env names a run may hand on.
// A sub-graph's nodes come right after their graph node, with prefixed ids.
import type { GraphFile } from "../graph/schema.ts";
import type { ScopeNode } from "../scheduler/scope-index.ts";
import { usedPath } from "./subgraph-runner.ts";

export interface WalkedNode {
  /** The id events use: "review/lint" inside sub-graph review. */
  id: string;
  node: ScopeNode;
  /** The needs, as event ids. */
  needs: string[];
  /** The map whose branch holds it (its event id). */
  map?: string;
  /** The graph node whose sub-graph holds it (its event id). */
  graph?: string;
  /** The graph file it is written in, and that file's absolute path. */
  file: GraphFile;
  filePath: string;
}

export function walkNodes(graph: GraphFile, graphPath: string, subgraphs: ReadonlyMap<string, GraphFile> | undefined): WalkedNode[] {
  const out: WalkedNode[] = [];
  const visit = (file: GraphFile, filePath: string, prefix: string, owner: string | undefined, depth: number) => {
    const add = (id: string, node: ScopeNode, map?: string) => {
      const w: WalkedNode = { id: prefix + id, node, needs: (node.needs ?? []).map((n) => prefix + n), file, filePath };
      if (map !== undefined) w.map = prefix + map;
      if (owner !== undefined) w.graph = owner;
      out.push(w);
      // The loader refuses use cycles and depth over 8; the bound here only keeps a bug finite.
      const sub = node.kind === "graph" && depth < 64 ? subgraphs?.get(usedPath(filePath, node.use)) : undefined;
      if (node.kind === "graph" && sub) visit(sub, usedPath(filePath, node.use), `${prefix}${id}/`, prefix + id, depth + 1);
    };
    for (const [id, node] of Object.entries(file.nodes)) {
      add(id, node);
      if (node.kind === "map") for (const [bid, b] of Object.entries(node.branch)) add(bid, b, id);
    }
  };
  visit(graph, graphPath, "", undefined, 0);
  return out;
}
