// Loads a graph file: YAML (keeping source positions) -> zod schema -> semantic
// validator, reporting every problem at once as file:line:col. Pure: the caller
// reads the file (src/cli/graph-file.ts). Never throws, whatever the input.
import { LineCounter, parseDocument, type Document } from "yaml";
import type { GraphProblem } from "../errors.ts";
import type { Path, PathProblem } from "./problem.ts";
import { endOrderWarnings } from "./end-order.ts";
import { reservedNames } from "./reserved-names.ts";
import { salvage } from "./salvage.ts";
import { graphSchema, type GraphFile } from "./schema.ts";
import { validateGraph } from "./validate.ts";
import { badAliases, duplicateKeys, isStackOverflow, shoutedBooleans, unquotedTemplates, yamlErrorProblem, YAML_TOO_DEEP, YAML_TOO_DEEP_HINT, type OffsetProblem } from "./yaml-checks.ts";
import { offsetOf, positionOf } from "./yaml-positions.ts";
import { withoutQuoteFallout } from "./unclosed-quote.ts";
import { zodProblems, type Issue } from "./zod-issues.ts";

/** `warnings` (a valid graph only) are advice: `vouch validate` prints them and still exits 0. */
export type LoadResult = { graph: GraphFile; problems: []; warnings: GraphProblem[]; locate: Locate } | { graph: null; problems: GraphProblem[] };
/** Places a problem found on a valid graph (by path) in its file: the sub-graph rules (ADR 0024) use it. */
export type Locate = (problem: PathProblem) => GraphProblem;

export function loadGraph(file: string, text: string): LoadResult {
  try {
    return load(file, text);
  } catch (e) {
    // A bug in the validator must not become a stack trace for a user mistake.
    const message = e instanceof Error ? e.message : String(e);
    return { graph: null, problems: [{ file, line: 1, col: 1, message: `internal error in the validator: ${message}`, hint: "this is a bug in vouch; please report it with this file" }] };
  }
}

function isUnder(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(seg) === String(path[i]));
}

function load(file: string, text: string): LoadResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true, logLevel: "error" });
  const place = (offset: number) => positionOf(lineCounter, offset);
  const lineCol = (offset: number) => {
    const p = place(offset);
    return `${p.line}:${p.col}`;
  };
  const fromOffset = (p: OffsetProblem): GraphProblem => ({ file, ...place(p.offset), message: p.message, ...(p.hint ? { hint: p.hint } : {}) });

  const problems: GraphProblem[] = [];
  for (const e of [...withoutQuoteFallout(doc.errors, text), ...doc.warnings]) problems.push(fromOffset(yamlErrorProblem(e, text, lineCol)));
  problems.push(...duplicateKeys(doc, lineCol).map(fromOffset));
  const aliases = badAliases(doc);
  problems.push(...aliases.map(fromOffset));
  // A syntax error leaves a guessed structure: schema problems on it would mislead.
  // Duplicate keys and warnings leave the structure intact, so checking goes on.
  if (doc.errors.length > 0 || aliases.length > 0) return finish(problems);
  if (doc.contents === null) {
    problems.push({ file, line: 1, col: 1, message: "the file is empty", hint: "a graph needs at least version: 1, name: and nodes:" });
    return finish(problems);
  }
  const templates = unquotedTemplates(doc);
  problems.push(...templates.map(fromOffset));
  problems.push(...shoutedBooleans(doc).map(fromOffset));
  const hidden = templates.map((t) => t.path ?? []);

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    problems.push(isStackOverflow(message)
      ? { file, line: 1, col: 1, message: YAML_TOO_DEEP, hint: YAML_TOO_DEEP_HINT }
      : { file, line: 1, col: 1, message: `YAML: ${message}` });
    return finish(problems);
  }

  const located = (list: PathProblem[]) =>
    list
      .filter((p) => !hidden.some((h) => isUnder(p.path, h)))
      .map((p): GraphProblem => ({ file, ...place(offsetOf(doc as Document, text, p)), message: p.message, ...(p.hint ? { hint: p.hint } : {}) }));

  // Before the schema step: it drops a `__proto__` key without a word.
  problems.push(...located(reservedNames(raw)));
  // One-shot parse: zod's eval-compiled fast path costs more than it saves here
  // (test/graph/loader-no-eval.test.ts).
  const parsed = graphSchema.safeParse(raw, { jitless: true });
  if (parsed.success) {
    problems.push(...located(validateGraph(parsed.data)));
    const locate: Locate = (p) => located([p])[0] ?? { file, line: 1, col: 1, message: p.message };
    return problems.length === 0 ? { graph: parsed.data, problems: [], warnings: located(endOrderWarnings(parsed.data)), locate } : finish(problems);
  }
  const issues = parsed.error.issues as unknown as Issue[];
  problems.push(...located(zodProblems(issues, raw)));
  const sound = salvage(raw, issues);
  if (sound) problems.push(...located(validateGraph(sound.graph, sound.unparsed)));
  return finish(problems);
}

function finish(problems: GraphProblem[]): LoadResult {
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${p.line}:${p.col}:${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  unique.sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
  return { graph: null, problems: unique };
}

/** file:line:col for problems found after loading (the command line's git checks, ADR 0020):
 *  the text is parsed again, so the loader's result stays plain data. */
export function locateProblems(file: string, text: string, list: readonly PathProblem[]): GraphProblem[] {
  if (list.length === 0) return [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true, logLevel: "error" });
  return list.map((p) => ({ file, ...positionOf(lineCounter, offsetOf(doc as Document, text, p)), message: p.message, ...(p.hint ? { hint: p.hint } : {}) }));
}
