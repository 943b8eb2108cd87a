// A checks file (`checks_from: [./vouch.checks.yaml]`): a YAML file holding a
// `checks:` mapping, the library a user owns apart from any graph, and the
// `protect:` globs of the files those checks run from the tree (ADR 0047). Pure, like the
// graph loader: the caller reads the bytes. Never throws.
import type { GraphProblem } from "../errors.ts";
import { GraphIndex } from "./graph-index.ts";
import { validatorBug, type PathProblem } from "./problem.ts";
import { reservedNames } from "./reserved-names.ts";
import type { CheckDef, GraphFile } from "./schema.ts";
import { fastChecksFile } from "./schema-fast.ts";
import { UNSURE } from "./schema-fast-kit.ts";
import type * as Zod from "./checks-file-zod.ts";
import type { ValidateContext } from "./validate-context.ts";
import { checks, staticCommands } from "./validate-commands.ts";
import { yamlFront } from "./yaml-front.ts";
import { compileGlob } from "../workspace/glob.ts";

export interface LoadedChecks {
  checks: Record<string, CheckDef>;
  /** The file's `protect:` globs; absent when it says nothing of what its checks run. */
  protect?: string[];
  /** Where each check's name is written, file:line:col. */
  where: Record<string, string>;
}

export type ChecksFileResult = ({ problems: [] } & LoadedChecks) | { problems: GraphProblem[] };

const EMPTY_HINT = "a checks file holds one mapping: checks: { NAME: { run: COMMAND, description: ... } }";

export function loadChecksFile(file: string, text: string): ChecksFileResult {
  try {
    return load(file, text);
  } catch (e) {
    return { problems: [validatorBug(file, e)] };
  }
}

function load(file: string, text: string): ChecksFileResult {
  const front = yamlFront(file, text, EMPTY_HINT);
  const problems = [...front.problems];
  if (!("raw" in front)) return { problems: problems.sort((a, b) => a.line - b.line || a.col - b.col) };
  const raw = front.raw;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      problems: [...problems, { file, line: 1, col: 1, message: "a checks file is a mapping with one key, checks:", hint: EMPTY_HINT }],
    };
  }
  if (Object.hasOwn(raw, "nodes")) {
    return {
      problems: [
        ...problems,
        {
          file,
          line: 1,
          col: 1,
          message: "this is a graph (it has nodes:), not a checks file, which holds only checks:",
          hint: "move the checks both graphs need into a checks file (NAME.checks.yaml) and name it in checks_from",
        },
      ],
    };
  }
  const extra: PathProblem[] = Object.keys(raw)
    .filter((k) => k !== "checks" && k !== "$schema" && k !== "protect")
    .map((k) => ({
      path: [k],
      at: "key",
      message: `a checks file holds only checks: (found ${JSON.stringify(k)})`,
      hint: "inputs, nodes and the rest belong in a graph; the graph names this file in checks_from",
    }));
  problems.push(...front.located(extra));
  problems.push(...front.located(reservedNames({ checks: (raw as { checks?: unknown }).checks })));
  // Only the known keys: the others are reported above, and the checks are still checked.
  const { $schema, checks: library, protect } = raw as { $schema?: unknown; checks?: unknown; protect?: unknown };
  const known = { ...($schema !== undefined ? { $schema } : {}), ...(protect !== undefined ? { protect } : {}), checks: library };
  const parsed = readChecksFile(known, raw);
  if ("problems" in parsed) {
    problems.push(...front.located(parsed.problems));
    return { problems: problems.sort((a, b) => a.line - b.line || a.col - b.col) };
  }
  problems.push(...front.located([...libraryRules(parsed.data.checks), ...protectRules(parsed.data.protect)]));
  if (problems.length > 0) return { problems: problems.sort((a, b) => a.line - b.line || a.col - b.col) };
  const where: Record<string, string> = Object.create(null);
  for (const name of Object.keys(parsed.data.checks)) {
    const p = front.located([{ path: ["checks", name], at: "key", message: "" }])[0]!;
    where[name] = `${p.file}:${p.line}:${p.col}`;
  }
  const out: LoadedChecks = { checks: parsed.data.checks, where };
  if (parsed.data.protect !== undefined) out.protect = parsed.data.protect;
  return { problems: [], ...out };
}

/** The file zod would give: by the fast check when it is sure (ADR 0083), else by zod,
 *  required on first use, so a valid checks file never loads zod. */
function readChecksFile(known: unknown, raw: unknown): Zod.ZodChecksFile {
  const fast = fastChecksFile(known);
  if (fast !== UNSURE) return { data: fast as Zod.ChecksFileData };
  return (require("./checks-file-zod.ts") as typeof Zod).zodChecksFile(known, raw);
}

/** Each `protect:` glob must mean something, as a worktree's protect globs must. */
function protectRules(protect: string[] | undefined): PathProblem[] {
  return (protect ?? []).flatMap((glob, i) => {
    const g = compileGlob(glob);
    return g.ok
      ? []
      : [
          {
            path: ["protect", i],
            message: `protect glob "${glob}" is not valid: ${g.reason}`,
            hint: 'globs are repository paths, e.g. "scripts/**"',
          },
        ];
  });
}

/** The graph rules that speak about a library: static commands, valid regular expressions. */
function libraryRules(library: Record<string, CheckDef>): PathProblem[] {
  const out: PathProblem[] = [];
  const graph = { version: 1, name: "checks", nodes: {}, checks: library } as GraphFile;
  const ctx: ValidateContext = {
    graph,
    index: new GraphIndex(graph, []),
    checkNames: new Set(Object.keys(library)),
    inputNames: new Set(),
    report: (p) => out.push(p),
  };
  staticCommands(ctx);
  checks(ctx);
  return out;
}
