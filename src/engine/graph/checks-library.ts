// A graph's check library: its own `checks:` plus the checks files its
// `checks_from` names (paths relative to the graph file). A name defined twice is
// refused with both places. Pure: files are read through the ChecksReader port.
import { isAbsolute, join, normalize, dirname } from "node:path";
import type { GraphProblem } from "../errors.ts";
import { loadChecksFile } from "./checks-file.ts";
import type { PathProblem } from "./problem.ts";
import type { CheckDef } from "./schema.ts";

export type ChecksRead = { text: string } | { error: string; hint?: string };
/** Reads a checks file; `path` is the graph's entry joined to the graph file's folder. */
export type ChecksReader = (path: string) => ChecksRead;

export interface LibraryResult {
  /** The checks the files add (not the graph's own). */
  checks: Record<string, CheckDef>;
  /** Where every check of the library is defined (the graph's own too), file:line:col. */
  where: Record<string, string>;
  problems: GraphProblem[];
  /** Every file's `protect:` globs, in order (ADR 0047). */
  protect: string[];
  /** The checks_from entries (their indexes) whose file has no `protect:`. */
  unprotected: { entry: string; index: number }[];
}

/** Where a checks_from entry points, as the caller should read it. */
export function checksPath(graphFile: string, entry: string): string {
  return isAbsolute(entry) ? normalize(entry) : normalize(join(dirname(graphFile), entry));
}

export function externalLibrary(
  graphFile: string,
  entries: readonly { entry: string; index: number }[],
  own: Record<string, unknown> | undefined,
  located: (list: PathProblem[]) => GraphProblem[],
  read: ChecksReader,
): LibraryResult {
  const checks: Record<string, CheckDef> = Object.create(null);
  const where: Record<string, string> = Object.create(null);
  for (const name of Object.keys(own ?? {})) {
    const p = located([{ path: ["checks", name], at: "key", message: "" }])[0]!;
    where[name] = `${p.file}:${p.line}:${p.col}`;
  }
  const problems: GraphProblem[] = [];
  const protect: string[] = [];
  const unprotected: LibraryResult["unprotected"] = [];
  const seen = new Set<string>();
  for (const { entry, index } of entries) {
    const at = (message: string, hint?: string) =>
      void problems.push(...located([{ path: ["checks_from", index], message, ...(hint ? { hint } : {}) }]));
    if (entry.includes("\u0000")) {
      at("a checks_from path cannot hold a NUL character");
      continue;
    }
    const path = checksPath(graphFile, entry);
    if (seen.has(path)) {
      at(`checks_from names ${path} twice`);
      continue;
    }
    seen.add(path);
    const got = readSafely(read, path);
    if ("error" in got) {
      at(`checks_from ${JSON.stringify(entry)}: ${got.error}`, got.hint);
      continue;
    }
    const loaded = loadChecksFile(path, got.text);
    problems.push(...loaded.problems);
    if (!("checks" in loaded)) continue;
    if (loaded.protect === undefined) unprotected.push({ entry, index });
    else protect.push(...loaded.protect.filter((g) => !protect.includes(g)));
    for (const [name, def] of Object.entries(loaded.checks)) {
      const here = loaded.where[name]!;
      const first = where[name];
      if (first !== undefined) {
        problems.push({
          ...position(here),
          message: `check "${name}" is defined twice: at ${first} and at ${here}`,
          hint: "a check name means one command in a graph's library: rename one of them, or drop one file from checks_from",
        });
        continue;
      }
      where[name] = here;
      checks[name] = def;
    }
  }
  return { checks, where, problems, protect, unprotected };
}

function readSafely(read: ChecksReader, path: string): ChecksRead {
  try {
    return read(path);
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** "file:line:col" → a problem's place (the file part may itself hold colons). */
function position(where: string): { file: string; line: number; col: number } {
  const m = /^(.*):(\d+):(\d+)$/.exec(where)!;
  return { file: m[1]!, line: Number(m[2]), col: Number(m[3]) };
}
