// The graph of a recorded run as `vouch graph` draws it, for the HTML report
// (src/report/graph-svg.ts): read from the run's graph file when that file, and
// every sub-graph and checks file it uses, is as it was when the run's latest
// session started (the digest resume checks too). Otherwise there is no drawing
// and the report draws the nodes run.started recorded, with their needs only.
import type { Drawing } from "../engine/graph/draw-dot.ts";
import { drawingOf } from "../engine/graph/draw-diagram.ts";
import type { SubgraphLookup } from "../engine/graph/draw-text.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { usedPath } from "../engine/graph/graph-walk.ts";
import type { RunSummary } from "../ledger/index.ts";
import { readGraphFile } from "./graph-file.ts";

/** Sub-graphs found by the path a graph node's `use:` names (ADR 0024). */
export function subgraphLookup(subgraphs: ReadonlyMap<string, GraphFile>): SubgraphLookup {
  return (from, use) => {
    const p = usedPath(from, use);
    const g = subgraphs.get(p);
    return g ? { graph: g, path: p } : undefined;
  };
}

/** The drawing of `summary`'s graph, or undefined when its file is gone, unreadable, invalid or changed. */
export function recordedDrawing(io: {
  cwd: string;
  env: Record<string, string | undefined>;
}): (summary: RunSummary) => Drawing | undefined {
  return (summary) => {
    try {
      const tree = readGraphFile(summary.run.graph_path, io.cwd, io.env);
      if (tree.digest !== summary.run.graph_digest) return undefined;
      return drawingOf(tree.graph, tree.path, subgraphLookup(tree.subgraphs));
    } catch {
      return undefined; // the report says it drew the recorded nodes instead
    }
  };
}
