// `vouch checks [FILE] [--json]`: the check library a graph or a checks file
// gives — each check's name, description, command, and where it is defined.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { GraphInvalidError, UsageError } from "../engine/errors.ts";
import { loadChecksFile } from "../engine/graph/checks-file.ts";
import { formatDuration } from "../engine/graph/duration.ts";
import type { CheckDef } from "../engine/graph/schema.ts";
import { sanitize } from "../tui/text.ts";
import { parseCommandArgs } from "./args.ts";
import { loadGraph } from "../engine/graph/loader.ts";
import { checksReader, isChecksFile, readGraphSource } from "./graph-file.ts";
import type { CliIO, Command } from "./io.ts";
import { recordedHistories, renderHistories } from "./check-history.ts";
import { checkedLedgerHome } from "../ledger/index.ts";

export const DEFAULT_CHECKS_FILE = "vouch.checks.yaml";

export interface ListedCheck {
  name: string;
  description: string | null;
  run: string;
  timeout_ms: number | null;
  expect: CheckDef["expect"] | null;
  /** file:line:col of the name. */
  defined_at: string;
}

/** The library FILE gives, as a list (a checks file's, or a graph's merged one). */
export function readLibrary(file: string, io: Pick<CliIO, "cwd" | "env">): ListedCheck[] {
  const source = readGraphSource(file, io.cwd, io.env, isChecksFile(file) ? "checks file" : "graph file");
  let checks: Record<string, CheckDef>;
  let where: Record<string, string>;
  if (isChecksFile(file)) {
    const loaded = loadChecksFile(file, source.text);
    if (!("checks" in loaded)) throw new GraphInvalidError(loaded.problems);
    ({ checks, where } = loaded);
  } else {
    // The graph's own library (its checks and its checks_from files'); a sub-graph's is its own.
    const loaded = loadGraph(file, source.text, { readChecks: checksReader(io.cwd, io.env), sources: true });
    if (!loaded.graph) throw new GraphInvalidError(loaded.problems);
    checks = loaded.graph.checks ?? {};
    where = loaded.checkSources;
  }
  return Object.entries(checks).map(([name, def]) => ({
    name,
    description: def.description ?? null,
    run: def.run,
    timeout_ms: def.timeout ?? null,
    expect: def.expect ?? null,
    defined_at: where[name] ?? file,
  }));
}

function expectText(e: CheckDef["expect"] | null): string {
  if (e === null || e === undefined || e === "exit_zero") return "";
  if (typeof e === "string") return ` (expects ${e.replace("_", " ")})`;
  return "exit" in e ? ` (expects exit ${e.exit})` : ` (expects output matching /${e.output_matches}/)`;
}

export function renderLibrary(file: string, list: ListedCheck[]): string {
  if (list.length === 0) return `${file}: no checks\n`;
  const width = Math.max(...list.map((c) => c.name.length));
  const lines = [`${list.length} check${list.length === 1 ? "" : "s"} in ${file}:`];
  for (const c of list) {
    lines.push(`  ${c.name.padEnd(width)}  ${c.description ?? "(no description)"}`);
    const timeout = c.timeout_ms !== null ? `, timeout ${formatDuration(c.timeout_ms)}` : "";
    lines.push(`  ${" ".repeat(width)}  run: ${c.run}${timeout}${expectText(c.expect)} — ${c.defined_at}`);
  }
  return `${lines.join("\n")}\n`;
}

const checksCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("checks", args, { json: { type: "boolean" }, history: { type: "boolean" } });
  if (values.history) return history(positionals, values.json === true, io);
  if (positionals.length > 1)
    throw new UsageError(`checks takes one file (got ${positionals.length})`, "usage: vouch checks [FILE] [--json]");
  const file = positionals[0] ?? DEFAULT_CHECKS_FILE;
  if (positionals.length === 0 && !existsSync(join(io.cwd, file))) {
    throw new UsageError(`checks: no ${DEFAULT_CHECKS_FILE} in this folder`, "name a graph or a checks file: vouch checks FILE");
  }
  const list = readLibrary(file, io);
  // Names, descriptions and commands come from the file: no control character reaches the terminal.
  io.out(values.json ? `${JSON.stringify(list, null, 2)}\n` : sanitize(renderLibrary(file, list)));
  return 0;
};
/** --history: the ledger's outcomes of every check, or of the one NAME (ADR 0067). */
function history(positionals: string[], json: boolean, io: CliIO): number {
  if (positionals.length > 1)
    throw new UsageError(
      `checks --history takes one check name (got ${positionals.length})`,
      "usage: vouch checks [NAME] --history [--json]",
    );
  const name = positionals[0];
  const list = recordedHistories(io, name);
  // Check names come from graphs: no control character reaches the terminal.
  io.out(
    json
      ? `${JSON.stringify(list, null, 2)}
`
      : sanitize(renderHistories(list, checkedLedgerHome(io.env, io.cwd), name)),
  );
  return 0;
}
export default checksCommand;
