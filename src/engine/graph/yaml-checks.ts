// Problems the YAML layer itself finds: syntax errors, duplicate keys, aliases
// that name no anchor, and a `{{ template }}` left unquoted at the start of a
// value (YAML reads it as a mapping inside a mapping, silently).
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Scalar, type YAMLError } from "yaml";
import { keyString } from "./yaml-positions.ts";
import { isMissingQuote, unclosedQuoteBefore } from "./unclosed-quote.ts";
import type { Path } from "./problem.ts";
import { MAX_JSON_DEPTH, TOO_DEEP } from "../json-depth.ts";

export interface OffsetProblem {
  offset: number;
  message: string;
  hint?: string;
  /** Where the problem sits in the value, when known (zod issues at or under it are then dropped). */
  path?: Path;
}

const FRIENDLY: Record<string, string> = {
  TAB_AS_INDENT: "tabs are not allowed for indentation in YAML; indent with spaces",
  MULTIPLE_DOCS: 'a graph file holds one YAML document; remove the "---" separator and what follows, or split the file',
};

/** The yaml library parses nested flow collections recursively: tens of
 *  thousands of levels overflow its stack. Said in the graph's terms, the
 *  bound graph values are held to (ADR 0019), never as the parser's stack. */
export const YAML_TOO_DEEP = `YAML: data ${TOO_DEEP} (so deep the YAML reader cannot read it)`;
export const YAML_TOO_DEEP_HINT = `vouch keeps data at most ${MAX_JSON_DEPTH} levels deep; flatten it`;

export function isStackOverflow(message: string): boolean {
  return /maximum call stack size exceeded/i.test(message);
}

/** Messages for the yaml library's errors. */
export function yamlErrorProblem(error: YAMLError, source: string, lineCol: (offset: number) => string): OffsetProblem {
  // The library points at the indentation of a badly indented line; the text after it is what to fix.
  let offset = error.pos[0];
  while (source[offset] === " " && offset + 1 < source.length) offset++;
  const quote = isMissingQuote(error) ? unclosedQuoteBefore(source, error.pos[0]) : null;
  if (quote) {
    const example = quote.quote === '"' ? `'say "hi"'` : `"it's"`;
    return {
      offset: quote.offset,
      message: `YAML: this ${quote.quote} quote is never closed (YAML read on to ${lineCol(error.pos[0])} looking for its end)`,
      hint: `close it on its line (a value that holds this quote can be written in the other kind: ${example})`,
    };
  }
  if (isStackOverflow(error.message)) return { offset, message: YAML_TOO_DEEP, hint: YAML_TOO_DEEP_HINT };
  const base = FRIENDLY[error.code] ?? error.message.replace(/\s+/g, " ").replace(/^./, (c) => c.toLowerCase());
  return { offset, message: `YAML: ${base}` };
}

interface Visit {
  node: unknown;
  depth: number;
  parent: Visit | null;
  /** The step from the parent: a key, an index, "<key>" or "<merge>". */
  seg: string | number | null;
}

/** Where a visited node sits in the value. Built on demand: most visits never need it. */
function pathOf(v: Visit): Path {
  const path: Path = [];
  for (let at: Visit | null = v; at?.parent; at = at.parent) if (at.seg !== null) path.push(at.seg);
  return path.reverse();
}

const walks = new WeakMap<Document, Visit[]>();

/** Every collection and scalar in the document (bounded depth). Walked once per
 *  document and shared by the checks below. */
function nodes(doc: Document): Visit[] {
  const done = walks.get(doc);
  if (done) return done;
  const out: Visit[] = [];
  const stack: Visit[] = [{ node: doc.contents, depth: 0, parent: null, seg: null }];
  while (stack.length > 0) {
    const v = stack.pop()!;
    out.push(v);
    const { node, depth } = v;
    if (depth > 200) continue;
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = keyString(pair.key);
        stack.push({ node: pair.key, depth: depth + 1, parent: v, seg: "<key>" });
        stack.push({ node: pair.value, depth: depth + 1, parent: v, seg: k === undefined ? "<merge>" : k });
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => stack.push({ node: item, depth: depth + 1, parent: v, seg: i }));
    else if (isPair(node)) stack.push({ node: node.value, depth: depth + 1, parent: v, seg: null });
  }
  walks.set(doc, out);
  return out;
}

/** Keys written twice in one mapping, at the second (third, ...) place, with where the
 *  key was first written. One pass with a Set per mapping: the yaml library's own
 *  `uniqueKeys` check compares each key with every earlier one, quadratic in the keys
 *  of a mapping (40,000 keys took 15 s), so the loader turns it off and asks here. */
export function duplicateKeys(doc: Document, lineCol: (offset: number) => string): OffsetProblem[] {
  const out: OffsetProblem[] = [];
  for (const { node } of nodes(doc)) {
    if (!isMap(node)) continue;
    const first = new Map<string, number>();
    for (const pair of node.items) {
      // Only scalar keys: the merge key "<<" may repeat, and a mapping as a key is an unquoted template.
      const name = isScalar(pair.key) ? keyString(pair.key) : undefined;
      const offset = (pair.key as Scalar | null)?.range?.[0];
      if (name === undefined || offset === undefined) continue;
      const at = first.get(name);
      if (at === undefined) first.set(name, offset);
      else out.push({ offset, message: `duplicate key "${name}"`, hint: `"${name}" is first written at ${lineCol(at)}; keep one of them` });
    }
  }
  return out;
}

/** Aliases (*name) that resolve to no anchor (the yaml library would throw on them later),
 *  or that sit inside their own anchor (the value would contain itself, without end). */
export function badAliases(doc: Document): OffsetProblem[] {
  const out: OffsetProblem[] = [];
  for (const { node } of nodes(doc)) {
    if (!isAlias(node)) continue;
    const target = node.resolve(doc);
    const offset = node.range?.[0] ?? 0;
    if (target === undefined) {
      out.push({ offset, message: `alias *${node.source} names no anchor`, hint: `define &${node.source} before it is used` });
    } else if (target.range && offset >= target.range[0] && offset < target.range[1]) {
      out.push({ offset, message: `alias *${node.source} is inside its own anchor &${node.source}, so the value would contain itself` });
    }
  }
  return out;
}

/** `prompt: {{ inputs.x }}` is a flow mapping whose only key is a flow mapping. */
export function unquotedTemplates(doc: Document): OffsetProblem[] {
  const out: OffsetProblem[] = [];
  for (const v of nodes(doc)) {
    const node = v.node;
    if (isMap(node) && node.flow && node.items.length === 1 && isMap(node.items[0]!.key) && node.range) {
      out.push({
        offset: node.range[0],
        path: pathOf(v),
        message: "a value that starts with {{ must be quoted (YAML reads {{ ... }} as a mapping)",
        hint: `write it in quotes: "{{ ... }}"`,
      });
    }
  }
  return out;
}

const SHOUTED_BOOLEAN = /^(TRUE|True|FALSE|False)$/;

/** `enum: [VERIFIED, FALSE]`: YAML reads an unquoted FALSE as the boolean false, so a list of
 *  words silently holds a boolean and a model answering "FALSE" breaks its own contract.
 *  Flagged only in a list that also holds text, where a boolean is almost surely a mistake. */
export function shoutedBooleans(doc: Document): OffsetProblem[] {
  const out: OffsetProblem[] = [];
  for (const { node } of nodes(doc)) {
    if (!isSeq(node)) continue;
    const hasText = node.items.some((i) => isScalar(i) && typeof i.value === "string");
    if (!hasText) continue;
    for (const item of node.items) {
      if (!isScalar(item) || typeof item.value !== "boolean" || item.type !== "PLAIN") continue;
      const source = typeof item.source === "string" ? item.source : String(item.value);
      if (!SHOUTED_BOOLEAN.test(source) || !item.range) continue;
      out.push({
        offset: item.range[0],
        message: `${source} in this list is read as the boolean ${item.value}, not the text "${source}"`,
        hint: `quote it: "${source}"`,
      });
    }
  }
  return out;
}
