// The ACP agents a graph names (ADR 0080): every `acp.command` — under `defaults`
// and on any node, in the top file and its sub-graphs — for `vouch doctor GRAPH`.
// The graph was validated (depth and sizes bounded) before this walks it.
import type { GraphFile } from "../engine/graph/schema.ts";

export function acpCommandsOf(graphs: readonly GraphFile[]): string[][] {
  const out: string[][] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 200 || typeof v !== "object" || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(v)) {
      const command = key === "acp" ? (value as { command?: unknown } | null)?.command : undefined;
      if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === "string")) out.push(command);
      else walk(value, depth + 1);
    }
  };
  for (const g of graphs) walk(g, 0);
  return out;
}
