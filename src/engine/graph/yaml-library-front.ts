// The yaml library's reading of a vouch YAML file: positions, every YAML-level
// problem (syntax, duplicate keys, aliases, unquoted templates, shouted booleans)
// and the plain value. yaml-front.ts takes Bun's reader first (ADR 0074) and loads
// this module only for a file outside that subset, or to place a problem.
import { LineCounter, parseDocument, type Document } from "yaml";
import type { GraphProblem } from "../errors.ts";
import type { Path, PathProblem } from "./problem.ts";
import {
  badAliases,
  duplicateKeys,
  isStackOverflow,
  shoutedBooleans,
  unquotedTemplates,
  yamlErrorProblem,
  YAML_TOO_DEEP,
  YAML_TOO_DEEP_HINT,
  type OffsetProblem,
} from "./yaml-checks.ts";
import { offsetOf, positionOf } from "./yaml-positions.ts";
import { withoutQuoteFallout } from "./unclosed-quote.ts";

export interface YamlFront {
  /** YAML-level problems found so far (duplicate keys, unquoted templates, ...). */
  problems: GraphProblem[];
  /** The document as plain values; absent when it could not be read as one. */
  raw?: unknown;
  /** Path problems → file:line:col, leaving out those under an unquoted template. */
  located(list: PathProblem[]): GraphProblem[];
}

function isUnder(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(seg) === String(path[i]));
}

/** The yaml library's reading: every YAML-level problem with its place. */
export function libraryFront(file: string, text: string, emptyHint: string): YamlFront {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false, merge: true, logLevel: "error" });
  const place = (offset: number) => positionOf(lineCounter, offset);
  const lineCol = (offset: number) => {
    const p = place(offset);
    return `${p.line}:${p.col}`;
  };
  const fromOffset = (p: OffsetProblem): GraphProblem => ({
    file,
    ...place(p.offset),
    message: p.message,
    ...(p.hint ? { hint: p.hint } : {}),
  });
  let hidden: Path[] = [];
  const located = (list: PathProblem[]) =>
    list
      .filter((p) => !hidden.some((h) => isUnder(p.path, h)))
      .map(
        (p): GraphProblem => ({
          file,
          ...place(offsetOf(doc as Document, text, p)),
          message: p.message,
          ...(p.hint ? { hint: p.hint } : {}),
        }),
      );

  const problems: GraphProblem[] = [];
  for (const e of [...withoutQuoteFallout(doc.errors, text), ...doc.warnings])
    problems.push(fromOffset(yamlErrorProblem(e, text, lineCol)));
  problems.push(...duplicateKeys(doc, lineCol).map(fromOffset));
  const aliases = badAliases(doc);
  problems.push(...aliases.map(fromOffset));
  // A syntax error leaves a guessed structure: schema problems on it would mislead.
  // Duplicate keys and warnings leave the structure intact, so checking goes on.
  if (doc.errors.length > 0 || aliases.length > 0) return { problems, located };
  if (doc.contents === null) {
    problems.push({ file, line: 1, col: 1, message: "the file is empty", hint: emptyHint });
    return { problems, located };
  }
  const templates = unquotedTemplates(doc);
  problems.push(...templates.map(fromOffset));
  problems.push(...shoutedBooleans(doc).map(fromOffset));
  hidden = templates.map((t) => t.path ?? []);
  try {
    return { problems, located, raw: doc.toJS({ maxAliasCount: 1000 }) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    problems.push(
      isStackOverflow(message)
        ? { file, line: 1, col: 1, message: YAML_TOO_DEEP, hint: YAML_TOO_DEEP_HINT }
        : { file, line: 1, col: 1, message: `YAML: ${message}` },
    );
    return { problems, located };
  }
}
