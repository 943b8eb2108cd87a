// Where each entry of a file the YAML fast path took (ADR 0074) is written: a second,
// line-by-line pass over the same subset, run only when a problem needs a place (ADR 0091).
// Building the yaml library's document just for places cost 1.8 s of 2.4 s for 8,000
// unknown needs. Conservative like the scan: anything it is unsure of returns null, and
// the library places the problems as before. test/graph/yaml-fast-places.test.ts holds
// it to the library's places.
import { quotedEnd, trimSpacesEnd } from "./yaml-fast-scalars.ts";

export interface Place {
  line: number;
  col: number;
}

export interface Entry {
  kind: "map" | "seq" | "scalar" | "empty";
  /** Where the key is (entries of a mapping only). */
  key?: Place;
  /** Where the value starts (absent for an empty value). */
  node?: Place;
}

/** A path as a map key: a mapping key and a list index never collide. */
export function pathKey(path: readonly (string | number)[]): string {
  return path.map((s) => (typeof s === "number" ? `#${s}` : `.${s}`)).join("\u0000");
}

interface Frame {
  indent: number;
  kind: "map" | "seq";
  path: (string | number)[];
  count: number;
}

interface State {
  entries: Map<string, Entry>;
  frames: Frame[];
  /** An entry whose value is on the next lines, and the column that value must exceed. */
  open: { path: (string | number)[]; column: number } | null;
  /** A `|`/`>` block in progress: lines deeper than this column belong to it. */
  block: number;
  line: number;
  /** Characters left for the entries' map keys: each repeats its whole path (ADR 0091 review). */
  budget: number;
}

class Unsure extends Error {}

function entry(s: State, path: (string | number)[], fields: Entry): Entry {
  const k = pathKey(path);
  s.budget -= k.length;
  if (s.budget < 0 || s.entries.has(k)) throw new Unsure();
  s.entries.set(k, fields);
  return fields;
}

/** The open entry's value starts at `col`: a collection of `kind` there. */
function openInto(s: State, col: number, kind: "map" | "seq"): (string | number)[] {
  const e = s.entries.get(pathKey(s.open!.path))!;
  e.kind = kind;
  e.node = { line: s.line, col: col + 1 };
  const path = s.open!.path;
  s.open = null;
  s.frames.push({ indent: col, kind, path, count: 0 });
  return path;
}

/** The frame a line of `kind` at `col` belongs to (opening one when the line before left its value open). */
function frameFor(s: State, col: number, kind: "map" | "seq"): Frame {
  const { frames } = s;
  while (frames.length > 0 && frames.at(-1)!.indent > col) frames.pop();
  const top = frames.at(-1);
  const open = s.open;
  if (top && top.indent === col) {
    if (top.kind === kind) {
      if (open) s.open = null;
      return top;
    }
    if (kind === "seq" && open && open.column === col) return openFrame(s, col, kind);
    if (kind === "map" && top.kind === "seq" && frames.at(-2)?.indent === col && frames.at(-2)?.kind === "map") {
      frames.pop();
      s.open = null;
      return frames.at(-1)!;
    }
    throw new Unsure();
  }
  if (open && col > open.column) return openFrame(s, col, kind);
  if (!top && !open && col === 0) {
    entry(s, [], { kind, node: { line: s.line, col: 1 } });
    frames.push({ indent: 0, kind, path: [], count: 0 });
    return frames.at(-1)!;
  }
  throw new Unsure();
}

function openFrame(s: State, col: number, kind: "map" | "seq"): Frame {
  openInto(s, col, kind);
  return s.frames.at(-1)!;
}

/** An empty value left open by the line before (`key:` and nothing under it). */
function closeOpen(s: State): void {
  if (s.open) s.open = null; // its entry is already "empty"
}

/** A value starting at `text[at]` (on the current line), for the entry at `path`. */
function inlineValue(s: State, text: string, at: number, path: (string | number)[], column: number, fields: Entry): void {
  const c = text[at];
  fields.node = { line: s.line, col: at + 1 };
  if (c === "[" || c === "{") {
    fields.kind = c === "[" ? "seq" : "map";
    flow(s, text, at, path);
  } else {
    fields.kind = "scalar";
    if (c === "|" || c === ">") s.block = column;
  }
}

/** The rest of a line after `key:` or `- `: the entry's value, or an open one. */
function rest(s: State, text: string, at: number, path: (string | number)[], column: number, fields: Entry): void {
  let i = at;
  while (text[i] === " ") i++;
  if (i >= text.length || text[i] === "#") {
    fields.kind = "empty";
    s.open = { path, column };
    return;
  }
  inlineValue(s, text, i, path, column, fields);
}

function spaces(text: string, i: number): number {
  while (text[i] === " ") i++;
  return i;
}

/** A one-line flow collection at `text[at]`; records its entries; returns the index after it. */
function flow(s: State, text: string, at: number, path: (string | number)[]): number {
  const map = text[at] === "{";
  const close = map ? "}" : "]";
  let i = spaces(text, at + 1);
  if (text[i] === close) return i + 1;
  for (let n = 0; ; n++) {
    i = spaces(text, i);
    let here: (string | number)[] = [...path, n];
    let key: Place | undefined;
    if (map) {
      const start = i;
      let name: string;
      if (text[i] === '"' || text[i] === "'") {
        i = quotedEnd(text, i);
        if (i < 0) throw new Unsure();
        name = text.slice(start + 1, i - 1);
      } else {
        const m = /^[^:,[\]{}# ]+/.exec(text.slice(i));
        if (!m) throw new Unsure();
        name = m[0];
        i += name.length;
      }
      if (text[i] !== ":") throw new Unsure();
      i = spaces(text, i + 1);
      here = [...path, name];
      key = { line: s.line, col: start + 1 };
    }
    const fields = entry(s, here, { kind: "scalar", node: { line: s.line, col: i + 1 }, ...(key ? { key } : {}) });
    i = flowNode(s, text, i, here, fields);
    i = spaces(text, i);
    const next = text[i++];
    if (next === close) return i;
    if (next !== ",") throw new Unsure();
  }
}

function flowNode(s: State, text: string, i: number, path: (string | number)[], fields: Entry): number {
  const c = text[i];
  if (c === "[" || c === "{") {
    fields.kind = c === "[" ? "seq" : "map";
    return flow(s, text, i, path);
  }
  if (c === '"' || c === "'") {
    const end = quotedEnd(text, i);
    if (end < 0) throw new Unsure();
    return end;
  }
  const m = /^[^,[\]{}]+/.exec(text.slice(i));
  if (!m) throw new Unsure();
  return i + m[0].length;
}

/** One content line: its `- ` items, then a key or a value. */
function contentLine(s: State, raw: string): void {
  let col = raw.search(/[^ ]/);
  let text = raw;
  for (;;) {
    const isDash = text[col] === "-" && (col + 1 === text.length || text[col + 1] === " ");
    if (!isDash) break;
    const frame = frameFor(s, col, "seq");
    const path = [...frame.path, frame.count++];
    const fields = entry(s, path, { kind: "empty" });
    const after = spaces(text, col + 1);
    if (after >= text.length || text[after] === "#") {
      s.open = { path, column: col };
      return;
    }
    if (text[after] === "-" && (after + 1 === text.length || text[after + 1] === " ")) {
      s.open = { path, column: col };
      col = after;
      continue;
    }
    if (keyAt(text, after)) {
      s.open = { path, column: col };
      col = after;
      break;
    }
    inlineValue(s, text, after, path, col, fields);
    return;
  }
  const k = keyAt(text, col);
  if (!k) throw new Unsure();
  const frame = frameFor(s, col, "map");
  const path = [...frame.path, k.name];
  const fields = entry(s, path, { kind: "empty", key: { line: s.line, col: col + 1 } });
  rest(s, text, k.after, path, col, fields);
}

/** A block key at `text[at]`: its name and the index after its colon, or null. */
function keyAt(text: string, at: number): { name: string; after: number } | null {
  if (text[at] === '"' || text[at] === "'") {
    const end = quotedEnd(text, at);
    if (end < 0 || text[end] !== ":" || (end + 1 < text.length && text[end + 1] !== " ")) return null;
    return { name: text.slice(at + 1, end - 1), after: end + 1 };
  }
  const m = /:( |$)/.exec(text.slice(at));
  if (!m) return null;
  const name = text.slice(at, at + m.index);
  if (/^[\[{"'|>]/.test(name) || /[,\[\]{}#]/.test(name)) return null;
  return { name, after: at + m.index + 1 };
}

/** Every entry's place, or null when the text is not in the subset as this pass reads it. */
export function fastPlaces(text: string): Map<string, Entry> | null {
  const s: State = { entries: new Map(), frames: [], open: null, block: -1, line: 0, budget: 16 * text.length + 1024 };
  try {
    for (const raw of text.split("\n")) {
      s.line++;
      if (s.block >= 0) {
        const indent = raw.search(/[^ ]/);
        if (indent < 0 || indent > s.block) continue;
        s.block = -1;
      }
      if (/^ *(#.*)?$/.test(raw)) continue;
      lineOf(s, trimSpacesEnd(raw));
    }
  } catch (e) {
    if (e instanceof Unsure) return null;
    throw e;
  }
  return s.entries;
}

function lineOf(s: State, raw: string): void {
  const col = raw.search(/[^ ]/);
  if (s.open && col <= s.open.column && !(raw[col] === "-" && col === s.open.column)) closeOpen(s);
  contentLine(s, raw);
}
