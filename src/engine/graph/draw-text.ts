// `vouch graph --format text`: the nodes in graph order, each with what it
// waits for and where it leads (routes with their conditions, fallbacks,
// feedback loops); map branches nested under their map.
import { conditionText } from "./condition-text.ts";
import { graphOrder, type AnyNode } from "./graph-index.ts";
import type { GraphFile } from "./schema.ts";

function summary(node: AnyNode): string {
  switch (node.kind) {
    case "agent":
      return `agent${node.harness ? ` (${node.harness})` : ""}${node.output?.format === "json" ? ", json output" : ""}`;
    case "script":
      return node.argv ? `script: ${node.argv.join(" ")}` : `script: ${node.run ?? ""}`;
    case "map":
      return `map over ${node.over}${node.as ? ` as ${node.as}` : ""}${node.verdict ? `, verdict ${node.verdict}` : ""}`;
    case "router":
      return "router";
    case "approval":
      return "approval";
    case "end":
      return `end (${node.status ?? "success"})`;
    case "graph":
      return `sub-graph ${node.use}`;
    case "merge":
      return `merge ${[node.from].flat().join(", ")}${node.into ? ` into ${node.into}` : ""}`;
  }
}

/** Finds the graph a `use` names, from the file that names it (the CLI loaded them all). */
export type SubgraphLookup = (fromPath: string, use: string) => { graph: GraphFile; path: string } | undefined;
export const noSubgraphs: SubgraphLookup = () => undefined;

function short(text: string, max = 60): string {
  const line = text.split("\n")[0]!;
  return line.length > max || text.includes("\n") ? `${line.slice(0, max - 1)}…` : line;
}

function details(node: AnyNode): string[] {
  const lines: string[] = [];
  if (node.needs?.length) lines.push(`needs ${node.needs.join(", ")}`);
  if (node.when !== undefined) lines.push(`only if ${conditionText(node.when)}`);
  if (node.kind === "router") {
    for (const r of node.routes) lines.push(`when ${conditionText(r.when)} → ${r.to.join(", ")}`);
    if (node.default?.length) lines.push(`otherwise → ${node.default.join(", ")}`);
  }
  if (node.kind === "merge") {
    const checks = (node.success?.checks ?? []).map((c) => (typeof c === "string" ? c : c.name));
    if (checks.length) lines.push(`checks ${checks.join(", ")} (on the merged tree)`);
  }
  if (node.kind === "agent" || node.kind === "script") {
    const checks = (node.success?.checks ?? []).map((c) => (typeof c === "string" ? c : c.name));
    if (checks.length) lines.push(`checks ${checks.join(", ")}`);
    if (node.retry) lines.push(`retry max ${node.retry.max}`);
    if (node.fallback !== undefined) lines.push(`fallback → ${node.fallback}`);
    if (node.exhausted) lines.push("exhausted → recorded output");
    if (node.feedback) {
      const when = node.feedback.when !== undefined ? `, when ${conditionText(node.feedback.when)}` : "";
      lines.push(`feedback → ${node.feedback.to} (max ${node.feedback.max}${when})`);
    }
  }
  return lines;
}

export function drawText(graph: GraphFile, path = "", lookup: SubgraphLookup = noSubgraphs): string {
  const order = graphOrder(graph);
  const out: string[] = [`graph ${graph.name} (${order.length} node${order.length === 1 ? "" : "s"})`];
  if (graph.description) out.push(short(graph.description, 76));
  const inputs = Object.entries(graph.inputs ?? {}).map(
    ([k, v]) => `${k}${v.required ? " (required)" : v.default !== undefined ? ` = ${short(JSON.stringify(v.default), 30)}` : ""}`,
  );
  if (inputs.length) out.push(`inputs: ${inputs.join(", ")}`);
  out.push("");
  drawBody(graph, path, lookup, "", out, 0);
  return `${out.join("\n")}\n`;
}

/** The nodes of one graph; a sub-graph's nodes nested under its graph node (ADR 0024). */
function drawBody(graph: GraphFile, path: string, lookup: SubgraphLookup, base: string, out: string[], depth: number): void {
  const order = graphOrder(graph);
  const width = Math.min(24, Math.max(...order.map((n) => n.id.length + (n.map ? 4 : 0)))) + 2;
  for (const { id, node, map } of order) {
    const indent = base + (map ? "    " : "");
    out.push(`${indent}${id.padEnd(width - (indent.length - base.length))}${summary(node)}`);
    for (const line of details(node)) out.push(`${indent}  ${line}`);
    if (node.kind === "map") out.push(`${base}  branch (once per ${node.as ?? "item"}):`);
    const sub = node.kind === "graph" && depth < 16 ? lookup(path, node.use) : undefined;
    if (sub) {
      out.push(`${indent}  runs ${sub.graph.name}:`);
      drawBody(sub.graph, sub.path, lookup, `${indent}    `, out, depth + 1);
    }
  }
}
