// The one DOT writer: `vouch graph --format dot` and the HTML report's graph
// (src/report/graph-svg.ts) both write a Drawing with it, so the report shows the
// edges `vouch graph` draws — needs, routes with their conditions, fallbacks
// (dashed), feedback loops (dotted), a map's arrow into its branch — and the
// same shapes. Pure, and free of zod: the report loads it without the schemas.
import type { DrawEdge, EdgeKind } from "./graph-edges.ts";

export interface DotNode {
  /** The node's id in the drawing ("review/lint" inside a sub-graph); a quoted DOT id. */
  id: string;
  /** A node kind (agent, script, map, ...): its shape. */
  kind: string;
  label: string;
  /** A fill colour (the report's status colours); none: an outline. */
  fill?: string;
}

export interface DotCluster {
  id: string;
  label: string;
  /** dashed: a map's branch; rounded: a sub-graph. */
  style: "dashed" | "rounded";
  nodes: DotNode[];
}

/** What a picture of a graph holds, in the order it is written. */
export interface Drawing {
  name: string;
  items: (DotNode | DotCluster)[];
  edges: DrawEdge[];
}

export interface DotLook {
  /** TB for `vouch graph`, LR for the report's wide page. */
  rankdir: "TB" | "LR";
  /** White lettering on the nodes' fills (the report) or black on outlines (`vouch graph`). */
  filled: boolean;
}

const SHAPE: Record<string, string> = {
  agent: "box",
  script: "parallelogram",
  map: "box3d",
  router: "diamond",
  approval: "hexagon",
  end: "doubleoctagon",
  graph: "component",
  merge: "cylinder",
};

const EDGE_STYLE: Record<EdgeKind, string> = {
  needs: "",
  route: "",
  default: "",
  item: "style=bold",
  fallback: "style=dashed",
  feedback: "style=dotted, constraint=false",
};

/** A DOT double-quoted string: backslashes and quotes escaped, newlines as DOT's \n, other controls dropped. */
export function dotString(text: string): string {
  const clean = text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, " ");
  return `"${clean.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function isCluster(item: DotNode | DotCluster): item is DotCluster {
  return "nodes" in item;
}

function nodeLine(n: DotNode, indent: string): string {
  const shape = SHAPE[n.kind] ?? "box";
  // Rounded corners only where Graphviz draws them (a box); a fill on every shape.
  const fill =
    n.fill === undefined
      ? ""
      : `, style="${shape === "box" ? "rounded," : ""}filled", fillcolor=${dotString(n.fill)}, color=${dotString(n.fill)}`;
  return `${indent}${dotString(n.id)} [shape=${shape}, label=${dotString(n.label)}${fill}];`;
}

function header(name: string, look: DotLook): string[] {
  const font = 'fontname="Helvetica"';
  const node = look.filled ? `[${font}, fontsize=11, fontcolor="white"]` : `[${font}, fontsize=11]`;
  const graph = look.filled ? [`  graph [bgcolor="transparent", ${font}];`] : [];
  return [`digraph ${dotString(name)} {`, `  rankdir=${look.rankdir};`, ...graph, `  node ${node};`, `  edge [${font}, fontsize=9];`];
}

/** The drawing as DOT text. An edge whose ends the drawing does not hold is left out. */
export function writeDot(d: Drawing, look: DotLook = { rankdir: "TB", filled: false }): string {
  const lines = header(d.name, look);
  const declared = new Set<string>();
  for (const item of d.items) {
    if (!isCluster(item)) {
      declared.add(item.id);
      lines.push(nodeLine(item, "  "));
      continue;
    }
    lines.push(`  subgraph ${dotString(`cluster_${item.id}`)} {`, `    label=${dotString(item.label)};`, `    style=${item.style};`);
    for (const n of item.nodes) {
      declared.add(n.id);
      lines.push(nodeLine(n, "    "));
    }
    lines.push("  }");
  }
  for (const e of d.edges) {
    if (!declared.has(e.from) || !declared.has(e.to)) continue;
    const attrs = [EDGE_STYLE[e.kind], e.label ? `label=${dotString(e.label)}` : ""].filter(Boolean).join(", ");
    lines.push(`  ${dotString(e.from)} -> ${dotString(e.to)}${attrs ? ` [${attrs}]` : ""};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
