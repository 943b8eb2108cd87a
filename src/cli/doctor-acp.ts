// The ACP agents a graph names (ADR 0080): the `acp.command` of each agent node whose harness
// is acp (its own, else `defaults`'), in the top file and its sub-graphs, map branches included.
// Read only where the schema puts them: an `acp` key elsewhere (an input's default, an output
// schema) is data, and doctor starts nothing from data (security review).
import type { GraphFile } from "../engine/graph/schema.ts";

type NodeLike = { kind?: unknown; harness?: unknown; acp?: { command?: unknown } | null; branch?: unknown };

export function acpCommandsOf(graphs: readonly GraphFile[]): string[][] {
  const out: string[][] = [];
  for (const g of graphs) {
    const defaults = g.defaults as { harness?: unknown; acp?: { command?: unknown } } | undefined;
    const visit = (nodes: unknown): void => {
      if (typeof nodes !== "object" || nodes === null) return;
      for (const node of Object.values(nodes as Record<string, NodeLike>)) {
        if (node?.kind === "map") visit(node.branch);
        if (node?.kind !== "agent" || (node.harness ?? defaults?.harness) !== "acp") continue;
        const command = (node.acp ?? defaults?.acp)?.command;
        if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string")) out.push(command);
      }
    };
    visit(g.nodes);
  }
  return out;
}
