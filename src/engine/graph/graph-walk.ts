// Every node of a run, sub-graphs' included (ADR 0024), in graph order: what
// run.started lists, what the plan checks, what env names a run may hand on,
// which worktrees a resumed run kept. A sub-graph's nodes come right after
// their graph node, with prefixed ids. Pure: the sub-graphs are already loaded.
import { dirname, resolve } from "node:path";
import type { AnyNode } from "./graph-index.ts";
import type { GraphFile } from "./schema.ts";

/** Where a graph node's `use` points: relative to the file that names it (the loader, the
 *  walk, the run and `vouch graph` all resolve it here). */
export function usedPath(fromGraphPath: string, use: string): string {
  return resolve(dirname(fromGraphPath), use);
}

export interface WalkedNode {
  /** The id events use: "review/lint" inside sub-graph review. */
  id: string;
  node: AnyNode;
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
    const add = (id: string, node: AnyNode, map?: string) => {
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
