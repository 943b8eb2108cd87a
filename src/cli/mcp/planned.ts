// A graph an MCP client passes as text (ADR 0065) is a planned graph, as `vouch plan`
// makes one of a model's answer: `origin: planned` set whatever the text says,
// `checks_from` the server's library and nothing else, validated with the planned
// rules (no commands of its own, no shell tools, no notify:, …). A valid one is
// written under the ledger home, private, named by its digest, so the run can be
// shown, reported and resumed like any other.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GraphProblem } from "../../engine/errors.ts";
import { sha256 } from "../graph-file.ts";
import { checkAnswer, problemsOf } from "../plan/answer.ts";
import { checksReader } from "../plan/library.ts";
import type { CliIO } from "../io.ts";

/** A client's graph text is read up to this size (a graph, not a data set). */
export const MAX_GRAPH_TEXT = 256 * 1024;

export type Planned = { file: string; text: string } | { problems: GraphProblem[] };

export function plannedGraph(text: string, library: readonly string[], home: string, io: Pick<CliIO, "cwd" | "env">): Planned {
  if (text.length > MAX_GRAPH_TEXT)
    return { problems: [{ file: "graph", line: 1, col: 1, message: `the graph text is over ${MAX_GRAPH_TEXT} characters` }] };
  const dir = join(home, "mcp");
  const file = join(dir, `planned-${sha256(text).slice(0, 16)}.yaml`);
  const checked = checkAnswer(text, file, [...library], checksReader(io));
  const problems = problemsOf(checked.loaded);
  if (problems.length > 0) return { problems };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, checked.text, { mode: 0o600 });
  return { file, text: checked.text };
}
