// Loads a graph file: YAML (keeping source positions) -> zod schema -> semantic
// validator, reporting every problem at once as file:line:col. Pure: the caller
// reads the file (src/cli/graph-file.ts), and the checks files of checks_from
// through the ChecksReader it passes. Never throws, whatever the input.
import type { GraphProblem } from "../errors.ts";
import { validatorBug, type PathProblem } from "./problem.ts";
import { externalLibrary, type ChecksReader } from "./checks-library.ts";
import { endOrderWarnings } from "./end-order.ts";
import { unprotectedProblems, withLibraryProtect } from "./planned-protect.ts";
import { reservedNames } from "./reserved-names.ts";
import type { GraphFile } from "./schema.ts";
import { fastGraph } from "./schema-fast.ts";
import { UNSURE } from "./schema-fast-kit.ts";
import type * as Zod from "./graph-zod.ts";
import { validateGraph } from "./validate.ts";
import { yamlFront, type YamlFront } from "./yaml-front.ts";

/** `warnings` (a valid graph only) are advice: `vouch validate` prints them and still exits 0.
 *  A valid graph's `checks` holds its whole library: its own checks and those of checks_from. */
export type LoadResult =
  | { graph: GraphFile; problems: []; warnings: GraphProblem[]; locate: Locate; checkSources: Record<string, string> }
  | { graph: null; problems: GraphProblem[] };
/** Places a problem found on a valid graph (by path) in its file: the sub-graph rules (ADR 0024) use it. */
export type Locate = (problem: PathProblem) => GraphProblem;

export interface LoadOptions {
  /** Reads the files checks_from names; without it, checks_from is refused. */
  readChecks?: ChecksReader;
  /** Give checkSources for the graph's own checks even without checks_from (`vouch checks`). */
  sources?: boolean;
}

export function loadGraph(file: string, text: string, options: LoadOptions = {}): LoadResult {
  try {
    return load(file, text, options);
  } catch (e) {
    // A bug in the validator must not become a stack trace for a user mistake.
    return { graph: null, problems: [validatorBug(file, e)] };
  }
}

const NO_READER: ChecksReader = () => ({ error: "checks files cannot be read here" });

function load(file: string, text: string, options: LoadOptions): LoadResult {
  const front = yamlFront(file, text, "a graph needs at least version: 1, name: and nodes:");
  const problems = [...front.problems];
  if (!("raw" in front)) return finish(file, problems);
  const { raw, located } = front;

  // Before the schema step: it drops a `__proto__` key without a word.
  problems.push(...located(reservedNames(raw)));
  const library = libraryOf(file, raw, front, options);
  problems.push(...library.problems);
  const extra = Object.keys(library.checks);
  const parsed = readGraph(raw);
  if ("graph" in parsed) {
    problems.push(...located(validateGraph(parsed.graph, { nodes: [], checks: extra, inputs: [] })));
    const planned = parsed.graph.origin === "planned";
    if (planned) problems.push(...located(unprotectedProblems(library.unprotected)));
    if (problems.length > 0) return finish(file, problems);
    // Merged after validation: a planned graph's rules speak about its own checks only.
    const merged = extra.length > 0 ? { ...parsed.graph, checks: { ...library.checks, ...parsed.graph.checks } } : parsed.graph;
    const graph = planned ? withLibraryProtect(merged, library.protect) : merged;
    const locate: Locate = (p) => located([p])[0] ?? { file, line: 1, col: 1, message: p.message };
    return { graph, problems: [], warnings: located(endOrderWarnings(graph)), locate, checkSources: library.where };
  }
  problems.push(...located(parsed.problems));
  const sound = parsed.sound;
  if (sound) {
    const unparsed = sound.unparsed.checks === "any" ? sound.unparsed : { ...sound.unparsed, checks: [...sound.unparsed.checks, ...extra] };
    problems.push(...located(validateGraph(sound.graph, unparsed)));
  }
  return finish(file, problems);
}

/** The graph zod would give: by the fast check when it is sure (ADR 0083), else by zod,
 *  required here on first use (a synchronous require; the bundle initialises it only then). */
function readGraph(raw: unknown): Zod.ZodGraph {
  const fast = fastGraph(raw);
  if (fast !== UNSURE) return { graph: fast as GraphFile };
  return (require("./graph-zod.ts") as typeof Zod).zodGraph(raw);
}

/** checks_from's files, as far as the entry list itself is readable (the schema reports the rest). */
function libraryOf(file: string, raw: unknown, front: YamlFront, options: LoadOptions) {
  const top = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  // Each readable entry with its index in the list, so a problem points at its own entry.
  const entries = Array.isArray(top.checks_from)
    ? top.checks_from.flatMap((e: unknown, i) => (typeof e === "string" && e.length > 0 ? [{ entry: e, index: i }] : []))
    : [];
  const own = typeof top.checks === "object" && top.checks !== null ? (top.checks as Record<string, unknown>) : undefined;
  // Positions cost a walk per name: only when something asks for them.
  if (entries.length === 0 && !options.sources) return { checks: {}, where: {}, problems: [], protect: [], unprotected: [] };
  return externalLibrary(file, entries, own, front.located, options.readChecks ?? NO_READER);
}

/** Unique problems; the graph file's first, then each checks file's, each by position. */
function finish(file: string, problems: GraphProblem[]): LoadResult {
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${p.file}:${p.line}:${p.col}:${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const rank = (p: GraphProblem) => (p.file === file ? "" : p.file);
  unique.sort((a, b) => rank(a).localeCompare(rank(b)) || a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
  return { graph: null, problems: unique };
}

/** file:line:col for problems found after loading (the command line's git checks, ADR 0020):
 *  the text is parsed again, so the loader's result stays plain data. */
export function locateProblems(file: string, text: string, list: readonly PathProblem[]): GraphProblem[] {
  if (list.length === 0) return [];
  return yamlFront(file, text, "").located([...list]);
}
