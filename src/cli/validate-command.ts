// `vouch validate GRAPH...`: every problem of every file, as file:line:col:
// message (+ an indented hint line) on stdout — the problems are this command's
// output — and a one-line summary on stderr. --json prints the problems as one
// JSON array on stdout. Exit 0 when every file is valid, 2 otherwise.
import { EXIT, InputError, UsageError, formatProblem, type GraphProblem } from "../engine/errors.ts";
import { locateProblems } from "../engine/graph/loader.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { checkWorkspaces } from "./workspace-check.ts";
import { parseCommandArgs } from "./args.ts";
import { loadChecksFile } from "../engine/graph/checks-file.ts";
import { graphFilesIn, isChecksFile, loadGraphSources, readGraphSource } from "./graph-file.ts";
import type { Command } from "./io.ts";
import { isAbsolute, resolve } from "node:path";
import { sanitize } from "../tui/text.ts";
import { fileLimits } from "../spawn/read-limited.ts";
import { historiesIfLedger, lazyGit } from "./validate-lazy.ts";
import { flakyWarnings } from "./flaky-marks.ts";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Problems of one file (a file that cannot be read is one problem at 1:1), and the
 *  warnings of a valid one. */
export function checkFile(
  file: string,
  cwd: string,
  env: Record<string, string | undefined>,
): { problems: GraphProblem[]; warnings: GraphProblem[]; loaded?: { graph: GraphFile; text: string } } {
  try {
    if (isChecksFile(file))
      return { problems: loadChecksFile(file, readGraphSource(file, cwd, env, "checks file").text).problems, warnings: [] };
    // Every file the graph uses is validated too; their problems name their own file (ADR 0024).
    const { source, tree } = loadGraphSources(file, cwd, env);
    return tree.graph
      ? { problems: [], warnings: tree.warnings, loaded: { graph: tree.graph, text: source.text } }
      : { problems: tree.problems, warnings: [] };
  } catch (e) {
    if (e instanceof InputError)
      return { problems: [{ file, line: 1, col: 1, message: e.message, ...(e.hint !== undefined ? { hint: e.hint } : {}) }], warnings: [] };
    throw e;
  }
}

export function validateFile(file: string, cwd: string, env: Record<string, string | undefined>): GraphProblem[] {
  return checkFile(file, cwd, env).problems;
}

const validateCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("validate", args, { json: { type: "boolean" } });
  if (positionals.length === 0) throw new UsageError("validate needs at least one graph file", "usage: vouch validate GRAPH... [--json]");
  fileLimits(io.env); // a bad VOUCH_MAX_GRAPH_BYTES is a usage error, not a problem of each file
  const files = positionals.flatMap((p) => {
    const found = graphFilesIn(p, io.cwd);
    // Only a folder gives no file: "0 files valid" (exit 0) would pass a typo'd or empty folder.
    if (found.length === 0) {
      const where = isAbsolute(p) ? p : `${p} (${resolve(io.cwd, p)})`;
      throw new UsageError(
        `nothing to validate: the folder ${where} holds no graph file (*.yaml or *.yml; folders inside it are not read)`,
        "name graph files, or a folder that holds some",
      );
    }
    return found;
  });
  const all: (GraphProblem & { severity?: "warning" })[] = [];
  let invalid = 0;
  const histories = await historiesIfLedger(io); // the ledger's, read once: checks flaky in their recent runs are warned of
  for (const file of files) {
    const checked = checkFile(file, io.cwd, io.env);
    const warnings = checked.loaded
      ? [...checked.warnings, ...flakyWarnings(file, checked.loaded.text, checked.loaded.graph, histories)]
      : checked.warnings;
    // A valid graph's workspaces are checked against git too (ADR 0020): the repository and the base.
    const problems = checked.loaded
      ? locateProblems(file, checked.loaded.text, (await checkWorkspaces(checked.loaded.graph, io.cwd, lazyGit)).problems)
      : checked.problems;
    if (problems.length > 0) invalid++;
    all.push(...problems, ...warnings.map((w) => ({ ...w, severity: "warning" as const })));
    // A problem may quote a key or value of the file: its control characters stay out of the terminal.
    if (!values.json) for (const p of [...problems, ...warnings]) io.out(sanitize(formatProblem(p)));
  }
  if (values.json) io.out(`${JSON.stringify(all, null, 2)}\n`);
  const problemCount = all.filter((p) => p.severity === undefined).length;
  const warningCount = all.length - problemCount;
  const warned = warningCount > 0 ? `, ${plural(warningCount, "warning")}` : "";
  const summary =
    invalid === 0
      ? `${plural(files.length, "file")} valid${warned}`
      : `${plural(files.length, "file")}, ${plural(invalid, "invalid file")}, ${plural(problemCount, "problem")}${warned}`;
  io.err(`${summary}\n`);
  return invalid === 0 ? EXIT.passed : EXIT.usage;
};
export default validateCommand;
