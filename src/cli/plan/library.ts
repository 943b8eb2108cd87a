// The library a plan may use, from `--checks FILE`: a checks file, or a graph, whose
// checks_from files are taken (the graph's own checks: are commands in a file the
// plan cannot name, so they are not). Both the planner's prompt and its check read
// the library through here, so they always agree.
import { isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { GraphInvalidError, UsageError, type GraphProblem } from "../../engine/errors.ts";
import { unprotectedProblems } from "../../engine/graph/planned-protect.ts";
import { loadChecksFile } from "../../engine/graph/checks-file.ts";
import { checksPath, type ChecksReader } from "../../engine/graph/checks-library.ts";
import type { ListedCheck } from "../checks-command.ts";
import { loadGraph } from "../../engine/graph/loader.ts";
import { checksReader as fileChecksReader, readGraphSource, type GraphSource } from "../graph-file.ts";
import type { CliIO } from "../io.ts";

export interface PlanLibrary {
  /** Absolute paths of the checks files, in order: the plan's checks_from. */
  files: string[];
  checks: ListedCheck[];
}

/** Reads checks files as graphs are read (bounded); the plan command and its check share it. */
export function checksReader(io: Pick<CliIO, "cwd" | "env">): ChecksReader {
  return fileChecksReader(io.cwd, io.env);
}

function isGraph(source: GraphSource): boolean {
  try {
    const top: unknown = parse(source.text, { logLevel: "silent", uniqueKeys: false });
    return typeof top === "object" && top !== null && Object.hasOwn(top, "nodes");
  } catch {
    return false; // read as a checks file, which reports the YAML problem
  }
}

/** The checks files of `--checks ARG`; a graph must be valid and name at least one. */
function libraryFiles(io: Pick<CliIO, "cwd" | "env">, arg: string, source: GraphSource): string[] {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));
  if (!isGraph(source)) return [abs(arg)];
  const loaded = loadGraph(arg, source.text, { readChecks: checksReader(io) });
  if (!loaded.graph) throw new GraphInvalidError(loaded.problems);
  const entries = loaded.graph.checks_from ?? [];
  if (entries.length === 0)
    throw new UsageError(
      `--checks ${arg}: this graph names no checks files (checks_from), and a plan may use only those`,
      "move the checks a plan may use into a checks file (NAME.checks.yaml) and name it in the graph's checks_from, or pass that file",
    );
  return entries.map((e) => abs(checksPath(arg, e)));
}

function unprotectedLibrary(file: string): GraphProblem {
  const [p] = unprotectedProblems([{ entry: file, index: 0 }]);
  return { file, line: 1, col: 1, message: p!.message, ...(p!.hint !== undefined ? { hint: p!.hint } : {}) };
}

export function planLibrary(io: Pick<CliIO, "cwd" | "env">, arg: string): PlanLibrary {
  const source = readGraphSource(arg, io.cwd, io.env, "checks file");
  const files = libraryFiles(io, arg, source);
  const checks: ListedCheck[] = [];
  for (const file of files) {
    const text = file === source.path ? source.text : readGraphSource(file, io.cwd, io.env, "checks file").text;
    const shown = file === source.path ? arg : file;
    const loaded = loadChecksFile(shown, text);
    if (!("checks" in loaded)) throw new GraphInvalidError(loaded.problems);
    // Before any sitting: a plan's agents could rewrite what an unprotected library runs (ADR 0047).
    if (loaded.protect === undefined) throw new GraphInvalidError([unprotectedLibrary(shown)]);
    for (const [name, def] of Object.entries(loaded.checks))
      checks.push({
        name,
        description: def.description ?? null,
        run: def.run,
        timeout_ms: def.timeout ?? null,
        expect: def.expect ?? null,
        defined_at: loaded.where[name]!,
      });
  }
  return { files, checks };
}
