// `vouch graph --format mermaid|dot`: diagrams for Mermaid (Markdown, GitHub)
// and Graphviz. Map branches are subgraphs; needs are solid arrows, routes carry
// their condition, fallbacks are dashed, feedback loops dotted.
import { drawingEdges, type EdgeKind } from "./graph-edges.ts";
import { graphOrder, type AnyNode } from "./graph-index.ts";
import type { GraphFile } from "./schema.ts";

function caption(id: string, node: AnyNode): string {
  if (node.kind === "end") return `${id}\nend (${node.status ?? "success"})`;
  if (node.kind === "map") return `${id}\nmap over ${node.over}`;
  return `${id}\n${node.kind}`;
}

// ---- Mermaid ----
function mermaidText(s: string): string {
  return s.replace(/&/g, "#amp;").replace(/"/g, "#quot;").replace(/</g, "#lt;").replace(/>/g, "#gt;").replace(/\|/g, "#124;").replace(/\n/g, "<br/>");
}

const MERMAID_SHAPE: Record<AnyNode["kind"], [string, string]> = {
  agent: ["[", "]"],
  script: ["[/", "/]"],
  map: ["[[", "]]"],
  router: ["{", "}"],
  approval: ["{{", "}}"],
  end: ["([", "])"],
};

const MERMAID_ARROW: Record<EdgeKind, string> = { needs: "-->", route: "-->", default: "-->", item: "==>", fallback: "-.->", feedback: "-.->" };

export function drawMermaid(graph: GraphFile): string {
  const order = graphOrder(graph);
  const ids = new Map(order.map((n, i) => [n.id, `n${i}`]));
  const lines = ["flowchart TD"];
  let openMap: string | undefined;
  for (const { id, node, map } of order) {
    if (openMap !== undefined && map !== openMap) {
      lines.push("  end");
      openMap = undefined;
    }
    if (map !== undefined && openMap === undefined) {
      const owner = order.find((o) => o.id === map)?.node;
      const each = owner?.kind === "map" ? owner.as ?? "item" : "item";
      lines.push(`  subgraph ${ids.get(map)}_branch["${mermaidText(`${map}: branch, once per ${each}`)}"]`);
      openMap = map;
    }
    const [open, close] = MERMAID_SHAPE[node.kind];
    lines.push(`  ${map ? "  " : ""}${ids.get(id)}${open}"${mermaidText(caption(id, node))}"${close}`);
  }
  if (openMap !== undefined) lines.push("  end");
  for (const e of drawingEdges(graph)) {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (!from || !to) continue;
    lines.push(`  ${from} ${MERMAID_ARROW[e.kind]}${e.label ? `|"${mermaidText(e.label)}"|` : ""} ${to}`);
  }
  return `${lines.join("\n")}\n`;
}

// ---- Graphviz DOT ----
function dotString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

const DOT_SHAPE: Record<AnyNode["kind"], string> = { agent: "box", script: "parallelogram", map: "box3d", router: "diamond", approval: "hexagon", end: "doubleoctagon" };
const DOT_STYLE: Record<EdgeKind, string> = {
  needs: "",
  route: "",
  default: "",
  item: "style=bold",
  fallback: "style=dashed",
  feedback: "style=dotted, constraint=false",
};

export function drawDot(graph: GraphFile): string {
  const order = graphOrder(graph);
  const lines = [`digraph ${dotString(graph.name)} {`, "  rankdir=TB;", '  node [fontname="Helvetica", fontsize=11];', '  edge [fontname="Helvetica", fontsize=9];'];
  const decl = (id: string, node: AnyNode, indent: string) => lines.push(`${indent}${dotString(id)} [shape=${DOT_SHAPE[node.kind]}, label=${dotString(caption(id, node))}];`);
  for (const { id, node, map } of order) {
    if (map !== undefined) continue;
    decl(id, node, "  ");
    if (node.kind === "map") {
      lines.push(`  subgraph ${dotString(`cluster_${id}`)} {`, `    label=${dotString(`${id}: branch, once per ${node.as ?? "item"}`)};`, "    style=dashed;");
      for (const b of order.filter((o) => o.map === id)) decl(b.id, b.node, "    ");
      lines.push("  }");
    }
  }
  for (const e of drawingEdges(graph)) {
    const attrs = [DOT_STYLE[e.kind], e.label ? `label=${dotString(e.label)}` : ""].filter(Boolean).join(", ");
    lines.push(`  ${dotString(e.from)} -> ${dotString(e.to)}${attrs ? ` [${attrs}]` : ""};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
