// `vouch graph --format mermaid|dot`: diagrams for Mermaid (Markdown, GitHub)
// and Graphviz. Map branches are subgraphs; needs are solid arrows, routes carry
// their condition, fallbacks are dashed, feedback loops dotted.
import { drawingEdges, type EdgeKind } from "./graph-edges.ts";
import { graphOrder, type AnyNode } from "./graph-index.ts";
import type { GraphFile } from "./schema.ts";
import { noSubgraphs, type SubgraphLookup } from "./draw-text.ts";

function caption(id: string, node: AnyNode): string {
  if (node.kind === "end") return `${id}\nend (${node.status ?? "success"})`;
  if (node.kind === "map") return `${id}\nmap over ${node.over}`;
  if (node.kind === "graph") return `${id}\nsub-graph ${node.use}`;
  if (node.kind === "merge") return `${id}\nmerge ${[node.from].flat().join(", ")}`;
  return `${id}\n${node.kind}`;
}

// ---- Mermaid ----
function mermaidText(s: string): string {
  return s
    .replace(/&/g, "#amp;")
    .replace(/"/g, "#quot;")
    .replace(/</g, "#lt;")
    .replace(/>/g, "#gt;")
    .replace(/\|/g, "#124;")
    .replace(/\n/g, "<br/>");
}

const MERMAID_SHAPE: Record<AnyNode["kind"], [string, string]> = {
  agent: ["[", "]"],
  script: ["[/", "/]"],
  map: ["[[", "]]"],
  router: ["{", "}"],
  approval: ["{{", "}}"],
  end: ["([", "])"],
  graph: ["[[", "]]"],
  merge: ["[(", ")]"],
};

const MERMAID_ARROW: Record<EdgeKind, string> = {
  needs: "-->",
  route: "-->",
  default: "-->",
  item: "==>",
  fallback: "-.->",
  feedback: "-.->",
};

/** Each graph node's sub-graph, drawn nested with ids "review/x" (ADR 0024). */
function subgraphsOf(
  graph: GraphFile,
  path: string,
  lookup: SubgraphLookup,
  prefix: string,
  depth: number,
): { owner: string; prefix: string; graph: GraphFile; path: string; depth: number }[] {
  if (depth >= 16) return [];
  const out: { owner: string; prefix: string; graph: GraphFile; path: string; depth: number }[] = [];
  for (const { id, node } of graphOrder(graph)) {
    const sub = node.kind === "graph" ? lookup(path, node.use) : undefined;
    if (!sub) continue;
    out.push({ owner: prefix + id, prefix: `${prefix}${id}/`, graph: sub.graph, path: sub.path, depth });
    out.push(...subgraphsOf(sub.graph, sub.path, lookup, `${prefix}${id}/`, depth + 1));
  }
  return out;
}

/** The roots of a drawn sub-graph: what its graph node's arrow leads to. */
function rootsOf(graph: GraphFile): string[] {
  return graphOrder(graph)
    .filter((n) => n.map === undefined && (n.node.needs ?? []).length === 0)
    .map((n) => n.id);
}

export function drawMermaid(graph: GraphFile, path = "", lookup: SubgraphLookup = noSubgraphs): string {
  const subs = subgraphsOf(graph, path, lookup, "", 0);
  const order = graphOrder(graph);
  const ids = new Map(order.map((n, i) => [n.id, `n${i}`]));
  let next = order.length;
  for (const sub of subs) for (const n of graphOrder(sub.graph)) ids.set(sub.prefix + n.id, `n${next++}`);
  const lines = ["flowchart TD"];
  let openMap: string | undefined;
  for (const { id, node, map } of order) {
    if (openMap !== undefined && map !== openMap) {
      lines.push("  end");
      openMap = undefined;
    }
    if (map !== undefined && openMap === undefined) {
      const owner = order.find((o) => o.id === map)?.node;
      const each = owner?.kind === "map" ? (owner.as ?? "item") : "item";
      lines.push(`  subgraph ${ids.get(map)}_branch["${mermaidText(`${map}: branch, once per ${each}`)}"]`);
      openMap = map;
    }
    const [open, close] = MERMAID_SHAPE[node.kind];
    lines.push(`  ${map ? "  " : ""}${ids.get(id)}${open}"${mermaidText(caption(id, node))}"${close}`);
  }
  if (openMap !== undefined) lines.push("  end");
  for (const sub of subs) {
    lines.push(`  subgraph ${ids.get(sub.owner)}_sub["${mermaidText(`${sub.owner}: sub-graph ${sub.graph.name}`)}"]`);
    for (const { id, node } of graphOrder(sub.graph)) {
      const [open, close] = MERMAID_SHAPE[node.kind];
      lines.push(`    ${ids.get(sub.prefix + id)}${open}"${mermaidText(caption(id, node))}"${close}`);
    }
    lines.push("  end");
  }
  const edge = (from: string | undefined, to: string | undefined, kind: EdgeKind, label?: string) => {
    if (from && to) lines.push(`  ${from} ${MERMAID_ARROW[kind]}${label ? `|"${mermaidText(label)}"|` : ""} ${to}`);
  };
  for (const e of drawingEdges(graph)) edge(ids.get(e.from), ids.get(e.to), e.kind, e.label);
  for (const sub of subs) {
    for (const e of drawingEdges(sub.graph)) edge(ids.get(sub.prefix + e.from), ids.get(sub.prefix + e.to), e.kind, e.label);
    for (const r of rootsOf(sub.graph)) edge(ids.get(sub.owner), ids.get(sub.prefix + r), "item", "runs");
  }
  return `${lines.join("\n")}\n`;
}

// ---- Graphviz DOT ----
function dotString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

const DOT_SHAPE: Record<AnyNode["kind"], string> = {
  agent: "box",
  script: "parallelogram",
  map: "box3d",
  router: "diamond",
  approval: "hexagon",
  end: "doubleoctagon",
  graph: "component",
  merge: "cylinder",
};
const DOT_STYLE: Record<EdgeKind, string> = {
  needs: "",
  route: "",
  default: "",
  item: "style=bold",
  fallback: "style=dashed",
  feedback: "style=dotted, constraint=false",
};

export function drawDot(graph: GraphFile, path = "", lookup: SubgraphLookup = noSubgraphs): string {
  const subs = subgraphsOf(graph, path, lookup, "", 0);
  const order = graphOrder(graph);
  const lines = [
    `digraph ${dotString(graph.name)} {`,
    "  rankdir=TB;",
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  const decl = (id: string, node: AnyNode, indent: string) =>
    lines.push(`${indent}${dotString(id)} [shape=${DOT_SHAPE[node.kind]}, label=${dotString(caption(id, node))}];`);
  for (const { id, node, map } of order) {
    if (map !== undefined) continue;
    decl(id, node, "  ");
    if (node.kind === "map") {
      lines.push(
        `  subgraph ${dotString(`cluster_${id}`)} {`,
        `    label=${dotString(`${id}: branch, once per ${node.as ?? "item"}`)};`,
        "    style=dashed;",
      );
      for (const b of order.filter((o) => o.map === id)) decl(b.id, b.node, "    ");
      lines.push("  }");
    }
  }
  for (const sub of subs) {
    lines.push(
      `  subgraph ${dotString(`cluster_${sub.owner}`)} {`,
      `    label=${dotString(`${sub.owner}: sub-graph ${sub.graph.name}`)};`,
      "    style=rounded;",
    );
    for (const { id, node } of graphOrder(sub.graph))
      lines.push(`    ${dotString(sub.prefix + id)} [shape=${DOT_SHAPE[node.kind]}, label=${dotString(caption(id, node))}];`);
    lines.push("  }");
  }
  const edge = (from: string, to: string, kind: EdgeKind, label?: string) => {
    const attrs = [DOT_STYLE[kind], label ? `label=${dotString(label)}` : ""].filter(Boolean).join(", ");
    lines.push(`  ${dotString(from)} -> ${dotString(to)}${attrs ? ` [${attrs}]` : ""};`);
  };
  for (const e of drawingEdges(graph)) edge(e.from, e.to, e.kind, e.label);
  for (const sub of subs) {
    for (const e of drawingEdges(sub.graph)) edge(sub.prefix + e.from, sub.prefix + e.to, e.kind, e.label);
    for (const r of rootsOf(sub.graph)) edge(sub.owner, sub.prefix + r, "item", "runs");
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
