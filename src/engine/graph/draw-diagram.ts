// `vouch graph --format mermaid|dot`: diagrams for Mermaid (Markdown, GitHub)
// and Graphviz (through the one DOT writer, draw-dot.ts, which the HTML report's
// graph uses too). Map branches are subgraphs; needs are solid arrows, routes
// carry their condition, fallbacks are dashed, feedback loops dotted.
import { writeDot, type DotNode, type Drawing } from "./draw-dot.ts";
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

// ---- Graphviz DOT (written by the one DOT writer, draw-dot.ts) ----
/** The graph as a Drawing: nodes in graph order, each map's branch and each sub-graph a
 *  cluster, every edge drawingEdges finds (the report draws the same one, with statuses). */
export function drawingOf(graph: GraphFile, path = "", lookup: SubgraphLookup = noSubgraphs): Drawing {
  const order = graphOrder(graph);
  const items: Drawing["items"] = [];
  const dotNode = (id: string, node: AnyNode): DotNode => ({ id, kind: node.kind, label: caption(id, node) });
  for (const { id, node, map } of order) {
    if (map !== undefined) continue;
    items.push(dotNode(id, node));
    if (node.kind === "map") {
      const nodes = order.filter((o) => o.map === id).map((b) => dotNode(b.id, b.node));
      items.push({ id, label: `${id}: branch, once per ${node.as ?? "item"}`, style: "dashed", nodes });
    }
  }
  const edges = drawingEdges(graph);
  for (const sub of subgraphsOf(graph, path, lookup, "", 0)) {
    const nodes = graphOrder(sub.graph).map(({ id, node }) => dotNode(sub.prefix + id, node));
    items.push({ id: sub.owner, label: `${sub.owner}: sub-graph ${sub.graph.name}`, style: "rounded", nodes });
    for (const e of drawingEdges(sub.graph)) edges.push({ ...e, from: sub.prefix + e.from, to: sub.prefix + e.to });
    for (const r of rootsOf(sub.graph)) edges.push({ from: sub.owner, to: sub.prefix + r, kind: "item", label: "runs" });
  }
  return { name: graph.name, items, edges };
}

export function drawDot(graph: GraphFile, path = "", lookup: SubgraphLookup = noSubgraphs): string {
  return writeDot(drawingOf(graph, path, lookup));
}
