// The fast path of reading a vouch YAML file (ADR 0074): Bun's native YAML reader
// (about 0.5 ms for the largest shipped graph) instead of the yaml library (about
// 13 ms cold: start-up is the whole cost of `vouch validate`). Taken only when the
// text is in a plain subset this file recognises line by line (block mappings and
// sequences, one-line flow collections, quoted and plain scalars, `|`/`>` blocks)
// in which the two readers agree; anything else — anchors, aliases, tags, merge
// keys, `---`, tabs, CR, a BOM, `{{` unquoted, typed-looking plain words, deep
// nesting, huge files — returns null and the yaml library reads it as before, with
// its positions and messages. The count of keys the scan sees must equal the count
// in Bun's value: Bun keeps the last of two duplicate keys silently, the library
// reports them, so a mismatch is a fallback too. test/graph/yaml-fast.test.ts holds
// both readers to the same value on shipped, broken and generated files.
import { flowEnd, plainMeaningSafe, quotedEnd, scanFlow, trimSpacesEnd } from "./yaml-fast-scalars.ts";

/** Bounds of the subset: past them the library reads the file (its own limits apply). The size
 *  bound is the default graph limit (4 MiB, VOUCH_MAX_GRAPH_BYTES): below it both the scan and
 *  Bun's reader are linear, and 20× faster than the library (ADR 0089); a limit a user raised
 *  past it gets the library's reading. Counted in UTF-8 bytes, as that limit is. */
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_DEPTH = 48;
/** Printable characters both readers treat alike: no tab, CR, BOM, control, surrogate or non-character. */
const UNSAFE_CHAR = /[^\n\x20-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
const KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const TYPED_WORD = /^(?:true|false|null)$/i;
const RESERVED_KEY = new Set(["__proto__", "constructor", "prototype"]);

interface Block {
  indent: number;
  kind: "map" | "seq";
}

interface Scan {
  keys: string[];
  blocks: Block[];
  /** A line that leaves its value to the next lines: its column (a key's or an item dash's), or -1. */
  open: number;
  /** A `|` or `>` block scalar in progress: the indent it must exceed, and its content indent once seen. */
  block: { parent: number; indent: number } | null;
}

/** A plain key, or a quoted one, then `:` and a space or the end: [key text, rest after the colon]. */
/** YAML limits an implicit block key to 1,024 characters before its `:`; the library refuses a
 *  longer one, so the fast path leaves any key near that to it. */
const MAX_BLOCK_KEY = 1000;

function keyOf(content: string): [string, string] | null {
  if (content[0] === '"' || content[0] === "'") {
    const end = quotedEnd(content, 0);
    if (end < 0 || end > MAX_BLOCK_KEY || content[end] !== ":" || (end + 1 < content.length && content[end + 1] !== " ")) return null;
    const key = content.slice(0, end);
    // Only quoted keys without escapes: the text between the quotes is the key.
    if (/[\\]|''/.test(key)) return null;
    return [key.slice(1, -1), content.slice(end + 1)];
  }
  const colon = content.search(/:( |$)/);
  if (colon < 0 || colon > MAX_BLOCK_KEY) return null;
  const key = content.slice(0, colon);
  if (!KEY.test(key) || TYPED_WORD.test(key)) return null;
  return [key, content.slice(colon + 1)];
}

/** A value after `key:` or `- `: false when it is outside the subset. Sets `open`/`block` as needed. */
function value(rest: string, column: number, scan: Scan): boolean {
  const text = rest.replace(/^ +/, "");
  if (text === "" || text[0] === "#") {
    if (text !== "" && rest[0] !== " ") return false;
    scan.open = column;
    return true;
  }
  if (rest[0] !== " ") return false;
  if (text[0] === "|" || text[0] === ">") {
    if (!/^[|>]-?( +#.*)?$/.test(text)) return false;
    scan.block = { parent: column, indent: -1 };
    return true;
  }
  let end: number;
  if (text[0] === '"' || text[0] === "'") end = quotedEnd(text, 0);
  else if (text[0] === "[" || text[0] === "{") {
    end = flowEnd(text);
    if (end > 0 && !scanFlow(text.slice(0, end), scan.keys, MAX_DEPTH)) return false;
  } else {
    const comment = text.indexOf(" #");
    const plain = trimSpacesEnd(comment < 0 ? text : text.slice(0, comment));
    if (plain.includes(": ") || plain.endsWith(":") || !plainMeaningSafe(plain)) return false;
    end = text.length;
    if (comment >= 0) return true;
  }
  if (end < 0) return false;
  const after = text.slice(end);
  return after === "" || /^ +(#.*)?$/.test(after);
}

/** Closes the blocks deeper than `indent`, and checks a line at `indent` of `kind` fits. */
function place(indent: number, kind: Block["kind"], scan: Scan): boolean {
  const { blocks } = scan;
  const opened = scan.open;
  scan.open = -1;
  while (blocks.length > 0 && blocks.at(-1)!.indent > indent) blocks.pop();
  const top = blocks.at(-1);
  if (top && top.indent === indent) {
    if (top.kind === kind) return true;
    // `key:` then `- item` at the key's own column: a sequence inside the mapping.
    if (kind === "seq" && opened === indent) {
      blocks.push({ indent, kind });
      return true;
    }
    // The sequence at a key's column ends at the next key of that mapping.
    if (kind === "map" && top.kind === "seq" && blocks.at(-2)?.indent === indent && blocks.at(-2)?.kind === "map") {
      blocks.pop();
      return true;
    }
    return false;
  }
  // A new, deeper block: only where the line before left its value open, or at the start.
  if (top ? opened < 0 || indent <= opened : indent !== 0) return false;
  if (blocks.length >= MAX_DEPTH) return false;
  blocks.push({ indent, kind });
  return true;
}

/** One content line (not blank, not a comment): its `- ` items, then a key or a value. */
function line(raw: string, scan: Scan): boolean {
  let indent = raw.search(/[^ ]/);
  let content = raw.slice(indent);
  let dashed = false;
  while (content === "-" || content.startsWith("- ")) {
    if (!place(indent, "seq", scan)) return false;
    if (content === "-") {
      scan.open = indent;
      return true;
    }
    if (content[2] === " ") return false; // one space after a dash: the column of what follows is then known
    indent += 2;
    content = content.slice(2);
    scan.open = indent - 2;
    dashed = true;
  }
  const key = keyOf(content);
  if (key === null) {
    // A value on its own line is only an item's (`- value`); a bare scalar line is left to the library.
    if (!dashed) return false;
    scan.open = -1;
    return value(` ${content}`, indent - 2, scan);
  }
  if (RESERVED_KEY.has(key[0])) return false;
  if (!place(indent, "map", scan)) return false;
  scan.keys.push(key[0]);
  return value(key[1], indent, scan);
}

/** Inside a `|`/`>` block: true while the line belongs to it (then it is consumed). */
function blockLine(raw: string, scan: Scan): boolean | "outside" {
  const block = scan.block!;
  const indent = raw.search(/[^ ]/);
  if (indent < 0) {
    // A blank line with more spaces than the content will have is an error for one reader only.
    return raw.length <= Math.max(block.indent, block.parent + 1) || "outside";
  }
  if (indent <= block.parent) {
    scan.block = null;
    return "outside";
  }
  if (block.indent < 0) block.indent = indent;
  return indent >= block.indent;
}

function scanText(text: string): string[] | null {
  const scan: Scan = { keys: [], blocks: [], open: -1, block: null };
  for (const raw of text.split("\n")) {
    if (scan.block) {
      const inside = blockLine(raw, scan);
      if (inside === true) continue;
      if (inside === false) return null;
      if (scan.block) return null; // a blank line the subset does not take
    }
    if (/^ *(#.*)?$/.test(raw)) continue; // blank, or a comment
    if (!line(trimSpacesEnd(raw), scan)) return null;
  }
  return scan.blocks.length > 0 ? scan.keys : null;
}

/** Every mapping key in Bun's value, or null when a value is not plain data (or too deep). */
function keysIn(value: unknown, depth: number, out: string[]): string[] | null {
  if (depth > MAX_DEPTH * 2) return null;
  if (Array.isArray(value)) {
    for (const v of value) if (keysIn(v, depth + 1, out) === null) return null;
  } else if (typeof value === "object" && value !== null) {
    if (Object.getPrototypeOf(value) !== Object.prototype) return null;
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      if (keysIn(v, depth + 1, out) === null) return null;
    }
  }
  return out;
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((k, i) => k === y[i]);
}

/** Past MAX_BYTES in UTF-8. A UTF-16 unit is at most 3 bytes (the safe set has no surrogates),
 *  so a text under a third of the bound is counted without encoding it. */
function tooLarge(text: string): boolean {
  if (text.length > MAX_BYTES) return true;
  return text.length > MAX_BYTES / 3 && Buffer.byteLength(text, "utf8") > MAX_BYTES;
}

/** The file's value read by Bun's YAML reader, or null: then read it with the yaml library. */
export function fastYamlValue(text: string): { value: unknown } | null {
  const reader = (globalThis as { Bun?: { YAML?: { parse(text: string): unknown } } }).Bun?.YAML;
  if (!reader || tooLarge(text) || UNSAFE_CHAR.test(text)) return null;
  const keys = scanText(text);
  if (keys === null) return null;
  let value: unknown;
  try {
    value = reader.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  // Bun keeps the last of two duplicate keys: the scan's keys then outnumber the value's.
  const found = keysIn(value, 0, []);
  return found !== null && sameKeys(found, keys) ? { value } : null;
}
