// Problems the YAML layer itself finds: syntax errors, duplicate keys, aliases
// that name no anchor, and a `{{ template }}` left unquoted at the start of a
// value (YAML reads it as a mapping inside a mapping, silently).
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type YAMLError } from "yaml";
import { keyString } from "./yaml-positions.ts";
import { isMissingQuote, unclosedQuoteBefore } from "./unclosed-quote.ts";
import type { Path } from "./problem.ts";

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

/** Messages for the yaml library's errors (duplicate keys get the key's name and first place). */
export function yamlErrorProblem(doc: Document, error: YAMLError, source: string, lineCol: (offset: number) => string): OffsetProblem {
  // The library points at the indentation of a badly indented line; the text after it is what to fix.
  let offset = error.pos[0];
  while (source[offset] === " " && offset + 1 < source.length) offset++;
  if (error.code === "DUPLICATE_KEY") {
    const dup = findKeyAt(doc, offset);
    const name = dup?.name ?? source.slice(error.pos[0], error.pos[1]);
    return {
      offset,
      message: `duplicate key "${name}"`,
      hint: dup?.firstOffset !== undefined ? `"${name}" is first written at ${lineCol(dup.firstOffset)}; keep one of them` : "keep one of them",
    };
  }
  const quote = isMissingQuote(error) ? unclosedQuoteBefore(source, error.pos[0]) : null;
  if (quote) {
    const example = quote.quote === '"' ? `'say "hi"'` : `"it's"`;
    return {
      offset: quote.offset,
      message: `YAML: this ${quote.quote} quote is never closed (YAML read on to ${lineCol(error.pos[0])} looking for its end)`,
      hint: `close it on its line (a value that holds this quote can be written in the other kind: ${example})`,
    };
  }
  const base = FRIENDLY[error.code] ?? error.message.replace(/\s+/g, " ").replace(/^./, (c) => c.toLowerCase());
  return { offset, message: `YAML: ${base}` };
}

interface Visit {
  node: unknown;
  path: Path;
}

/** Every collection and scalar in the document with its path (bounded depth). */
function* nodes(doc: Document): Generator<Visit> {
  const stack: (Visit & { depth: number })[] = [{ node: doc.contents, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    yield { node, path };
    if (depth > 200) continue;
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = keyString(pair.key);
        stack.push({ node: pair.key, path: [...path, "<key>"], depth: depth + 1 });
        stack.push({ node: pair.value, path: k === undefined ? [...path, "<merge>"] : [...path, k], depth: depth + 1 });
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => stack.push({ node: item, path: [...path, i], depth: depth + 1 }));
    else if (isPair(node)) stack.push({ node: node.value, path, depth: depth + 1 });
  }
}

function findKeyAt(doc: Document, offset: number): { name: string; firstOffset?: number } | undefined {
  for (const { node } of nodes(doc)) {
    if (!isMap(node)) continue;
    const pair = node.items.find((p) => isScalar(p.key) && p.key.range?.[0] === offset);
    if (!pair) continue;
    const name = keyString(pair.key) ?? "";
    const first = node.items.find((p) => keyString(p.key) === name);
    const firstOffset = first && first !== pair && isScalar(first.key) ? first.key.range?.[0] : undefined;
    return firstOffset === undefined ? { name } : { name, firstOffset };
  }
  return undefined;
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
  for (const { node, path } of nodes(doc)) {
    if (isMap(node) && node.flow && node.items.length === 1 && isMap(node.items[0]!.key) && node.range) {
      out.push({
        offset: node.range[0],
        path,
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
