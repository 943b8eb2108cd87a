// The graph as inline SVG, laid out by Graphviz compiled to WebAssembly
// (@hpcc-js/wasm-graphviz, its wasm inlined in the JS, so it is inside the
// compiled binary). Loaded lazily: only `vouch report` and `--report html` pay
// for it. Node ids never reach DOT as identifiers: nodes are n0, n1, ... and the
// id is only a quoted label, so no name can inject DOT, SVG or script.
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

/** A DOT double-quoted string: backslashes and quotes escaped, newlines as DOT's \n, other controls dropped. */
export function dotString(text: string): string {
  const clean = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, " ");
  return `"${clean.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** Status of each graph node: a top-level node's own; a branch node's worst over its branches, with counts. */
function statusOf(model: ReportModel): Map<string, { status: string; note: string }> {
  const out = new Map<string, { status: string; note: string }>();
  for (const n of model.summary.nodes) out.set(`\u0000${n.node}`, { status: n.status, note: n.status });
  const perBranchNode = new Map<string, string[]>();
  for (const b of model.summary.branches) {
    for (const n of b.nodes) {
      const key = `${b.map}\u0000${n.node}`;
      perBranchNode.set(key, [...(perBranchNode.get(key) ?? []), n.status]);
    }
  }
  for (const [key, statuses] of perBranchNode) {
    const worst = SEVERITY.find((s) => statuses.includes(s)) ?? statuses[0] ?? "not started";
    const passed = statuses.filter((s) => s === "passed").length;
    out.set(key, { status: worst, note: `${passed}/${statuses.length} passed` });
  }
  return out;
}

export function dotOf(model: ReportModel): string {
  const ids = new Map<string, string>();
  model.graph.forEach((n, i) => ids.set(`${n.map ?? ""}\u0000${n.id}`, `n${i}`));
  const statuses = statusOf(model);
  const lines = [
    "digraph G {",
    '  graph [rankdir=LR, bgcolor="transparent", fontname="sans-serif"];',
    '  node [shape=box, style="rounded,filled", fontname="sans-serif", fontsize=11, fontcolor="white"];',
  ];
  const node = (n: ReportModel["graph"][number]) => {
    const key = `${n.map ?? ""}\u0000${n.id}`;
    const s = statuses.get(key) ?? { status: "not started", note: "not started" };
    const color = STATUS_COLORS[s.status] ?? STATUS_COLORS["not started"]!;
    return `  ${ids.get(key)} [label=${dotString(`${n.id}\n${n.kind} · ${s.note}`)}, fillcolor="${color}", color="${color}"];`;
  };
  const maps = [...new Set(model.graph.filter((n) => n.map !== undefined).map((n) => n.map!))];
  for (const n of model.graph.filter((g) => g.map === undefined)) lines.push(node(n));
  maps.forEach((map, i) => {
    lines.push(
      `  subgraph cluster_${i} {`,
      `    label=${dotString(`${map}: each branch`)}; style="dashed"; color="#888888"; fontcolor="#444444";`,
    );
    for (const n of model.graph.filter((g) => g.map === map)) lines.push(`  ${node(n)}`);
    lines.push("  }");
  });
  for (const n of model.graph) {
    const to = ids.get(`${n.map ?? ""}\u0000${n.id}`)!;
    for (const need of n.needs) {
      const from = ids.get(`${n.map ?? ""}\u0000${need}`) ?? ids.get(`\u0000${need}`);
      if (from) lines.push(`  ${from} -> ${to};`);
    }
  }
  // A map's branch nodes run after the map starts: an edge from the map into its cluster.
  for (const map of maps) {
    const from = ids.get(`\u0000${map}`);
    const first = model.graph.find((n) => n.map === map && n.needs.length === 0);
    if (from && first) lines.push(`  ${from} -> ${ids.get(`${map}\u0000${first.id}`)} [style=dashed];`);
  }
  lines.push("}");
  return lines.join("\n");
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
