// Small helpers for the graph tests: load YAML text, list problems as "L:C message".
import { loadGraph } from "../../src/engine/graph/loader.ts";
import type { GraphProblem } from "../../src/engine/errors.ts";

export function problems(text: string): GraphProblem[] {
  return loadGraph("g.yaml", text).problems;
}

/** "line:col message" for each problem (hints left out). */
export function lines(text: string): string[] {
  return problems(text).map((p) => `${p.line}:${p.col} ${p.message}`);
}

/** A valid graph header followed by `body` (YAML lines for under `nodes:`). */
export function withNodes(body: string, head = ""): string {
  return `version: 1\nname: t\n${head}nodes:\n${body}`;
}
