// The graph as inline SVG, laid out by Graphviz compiled to WebAssembly
// (@hpcc-js/wasm-graphviz, its wasm inlined in the JS, so it is inside the
// compiled binary). Loaded lazily: only `vouch report` and `--report html` pay
// for it. The picture is `vouch graph`'s (one DOT writer, src/engine/graph/draw-dot.ts,
// fed the same edges: routes, fallbacks, feedback), each node filled with its status's
// colour. Every name reaches DOT only as a quoted string with quotes, backslashes and
// controls escaped (dotString), so no name can inject DOT, SVG or script.
import { writeDot, type DotNode, type Drawing } from "../engine/graph/draw-dot.ts";
import type { DrawEdge } from "../engine/graph/graph-edges.ts";
import type { ReportModel } from "./model.ts";

export const STATUS_COLORS: Record<string, string> = {
  passed: "#2e7d32",
  failed: "#c62828",
  error: "#ef6c00",
  skipped: "#9e9e9e",
  cancelled: "#616161",
  running: "#1565c0",
  waiting: "#6a1b9a",
  unfinished: "#8d6e63",
  "not started": "#bdbdbd",
};

const SEVERITY = ["failed", "error", "cancelled", "unfinished", "running", "waiting", "not started", "skipped", "passed"];

/** Status of each graph node by id: a top-level node's own; a branch node's worst over its branches, with counts. */
function statusOf(model: ReportModel): Map<string, { status: string; note: string }> {
  const out = new Map<string, { status: string; note: string }>();
  for (const n of model.summary.nodes) out.set(n.node, { status: n.status, note: n.status });
  const perBranchNode = new Map<string, string[]>();
  for (const b of model.summary.branches)
    for (const n of b.nodes) perBranchNode.set(n.node, [...(perBranchNode.get(n.node) ?? []), n.status]);
  for (const [id, statuses] of perBranchNode) {
    const worst = SEVERITY.find((s) => statuses.includes(s)) ?? statuses[0] ?? "not started";
    const passed = statuses.filter((s) => s === "passed").length;
    out.set(id, { status: worst, note: `${passed}/${statuses.length} passed` });
  }
  return out;
}

/** Without the graph file as it was (moved, changed, unreadable): the nodes run.started
 *  recorded, with their needs and each map's arrow into its branch. */
export function recordedDrawing(model: ReportModel): Drawing {
  const graph = model.graph;
  const dotNode = (n: (typeof graph)[number]): DotNode => ({ id: n.id, kind: n.kind, label: n.id });
  const items: Drawing["items"] = [];
  const edges: DrawEdge[] = [];
  for (const n of graph.filter((g) => g.map === undefined)) {
    items.push(dotNode(n));
    const branch = graph.filter((g) => g.map === n.id);
    if (branch.length === 0) continue;
    items.push({ id: n.id, label: `${n.id}: branch, once per item`, style: "dashed", nodes: branch.map(dotNode) });
    for (const b of branch.filter((g) => g.needs.length === 0)) edges.push({ from: n.id, to: b.id, kind: "item" });
  }
  for (const n of graph) for (const need of n.needs) edges.push({ from: need, to: n.id, kind: "needs" });
  return { name: model.summary.run.graph, items, edges };
}

/** The DOT text of the report's graph: the drawing `vouch graph` makes, each node coloured by its status. */
export function dotOf(model: ReportModel): string {
  const drawing = model.drawing ?? recordedDrawing(model);
  const statuses = statusOf(model);
  const paint = (n: DotNode): DotNode => {
    const s = statuses.get(n.id) ?? { status: "not started", note: "not started" };
    return { ...n, label: `${n.id}\n${n.kind} · ${s.note}`, fill: STATUS_COLORS[s.status] ?? STATUS_COLORS["not started"]! };
  };
  const items = drawing.items.map((item) => ("nodes" in item ? { ...item, nodes: item.nodes.map(paint) } : paint(item)));
  return writeDot({ ...drawing, items }, { rankdir: "LR", filled: true });
}

/** Graphviz's SVG without its XML prolog and comments, ready to inline. Labels
 *  are escaped by Graphviz; as a second line of defence, an SVG with a script
 *  element, an event handler or any link/source attribute is not inlined. */
export function inlineSvg(svg: string): string {
  const start = svg.indexOf("<svg");
  const body = start < 0 ? "" : svg.slice(start);
  const cleaned = body.replace(/<!--[\s\S]*?-->/g, "");
  const tags = (cleaned.match(/<[^>]*>/g) ?? []).map((t) => t.replace(/"[^"]*"|'[^']*'/g, '""'));
  const unsafe = tags.some((t) => /^<\s*(script|foreignobject|iframe)|\s(on[a-z]+|href|xlink:href|src)\s*=/i.test(t));
  return unsafe || cleaned === "" ? '<p class="why">The graph could not be drawn safely.</p>' : cleaned;
}

let graphviz: Promise<{ dot(src: string): string }> | null = null;

/** The graph as SVG markup; Graphviz is loaded on first use. */
export async function graphSvg(model: ReportModel): Promise<string> {
  graphviz ??= import("@hpcc-js/wasm-graphviz").then((m) => m.Graphviz.load());
  const gv = await graphviz;
  return inlineSvg(gv.dot(dotOf(model)));
}
