// The scalar and one-line flow rules of the YAML fast path's subset (yaml-fast.ts,
// ADR 0074). Each function answers "is this in the subset?" conservatively: a
// false or -1 sends the file to the yaml library, never a different value.

/** Escapes in a double-quoted scalar the subset takes (both readers agree on them). */
const ESCAPES = new Set(["\\", '"', "/", "n", "t"]);
const FLOW_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
/** Words with a type in YAML 1.2's core schema: as keys they are left to the library. */
const TYPED_WORD = /^(?:true|false|null)$/i;
const NUMBER = /^-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?$/;
/** A duration like 10m or 1h30m: a string to both readers. No `e` (1e3 is a number). */
const DURATION = /^(?:[0-9]{1,9}[a-df-z]{1,2})+$/;
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`<=~+]/;
/** What may read as a number (.5, 1e3, 0x1F, .inf): only NUMBER and DURATION are taken. */
const NUMERIC = /^[-+.]?[0-9]|^\.(?:inf|nan)$/i;

/** The index just after the quoted scalar starting at `start`, or -1 (unclosed, or an escape outside the subset). */
export function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (quote === '"' && c === "\\") {
      if (!ESCAPES.has(text[i + 1] ?? "")) return -1;
      i++;
    } else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i + 1;
    }
  }
  return -1;
}

/** The index just after the flow collection starting at 0 (quotes skipped), or -1 when it does not close on the line. */
export function flowEnd(text: string): number {
  let depth = 0;
  let prev = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const before = prev;
    if (c !== " ") prev = c;
    // A quote opens a quoted scalar only where a scalar starts (`user's` inside a plain one does not).
    if ((c === '"' || c === "'") && "[{,:".includes(before) && before !== "") {
      const end = quotedEnd(text, i);
      if (end < 0) return -1;
      i = end - 1;
      prev = c;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** A plain scalar whose meaning is plain: text, or exactly true/false/null/~, or a simple number. */
export function plainMeaningSafe(plain: string): boolean {
  if (plain === "") return false;
  if (NUMBER.test(plain) || plain === "~") return true;
  // True, FALSE, Null: typed in both readers, and a list's shouted FALSE is a problem the library reports.
  if (TYPED_WORD.test(plain)) return plain === "true" || plain === "false" || plain === "null";
  if (NUMERIC.test(plain)) return DURATION.test(plain);
  return !INDICATOR.test(plain);
}

interface Cursor {
  text: string;
  at: number;
}

function spaces(c: Cursor): void {
  while (c.text[c.at] === " ") c.at++;
}

function flowKey(c: Cursor, keys: string[]): boolean {
  const { text } = c;
  let key: string;
  if (text[c.at] === '"' || text[c.at] === "'") {
    const end = quotedEnd(text, c.at);
    if (end < 0) return false;
    key = text.slice(c.at + 1, end - 1);
    if (/[\\]|''/.test(key)) return false;
    c.at = end;
  } else {
    const m = /^[^:,[\]{}# ]+/.exec(text.slice(c.at));
    if (!m || !FLOW_KEY.test(m[0]) || TYPED_WORD.test(m[0])) return false;
    key = m[0];
    c.at += m[0].length;
  }
  if (key === "__proto__" || key === "constructor" || key === "prototype") return false;
  if (text[c.at] !== ":" || text[c.at + 1] !== " ") return false;
  c.at += 2;
  keys.push(key);
  return true;
}

function flowNode(c: Cursor, keys: string[], depth: number): boolean {
  spaces(c);
  const ch = c.text[c.at];
  if (ch === "[" || ch === "{") return depth > 0 && flowCollection(c, keys, depth - 1);
  if (ch === '"' || ch === "'") {
    const end = quotedEnd(c.text, c.at);
    if (end < 0) return false;
    c.at = end;
    return true;
  }
  // A plain scalar in flow ends at , ] or }; a colon or # inside it is left to the library.
  const m = /^[^,[\]{}]+/.exec(c.text.slice(c.at));
  if (!m || /[:#]/.test(m[0])) return false;
  c.at += m[0].length;
  return plainMeaningSafe(trimSpacesEnd(m[0]));
}

function flowCollection(c: Cursor, keys: string[], depth: number): boolean {
  const close = c.text[c.at] === "[" ? "]" : "}";
  const map = close === "}";
  c.at++;
  spaces(c);
  if (c.text[c.at] === close) {
    c.at++;
    return true;
  }
  for (;;) {
    spaces(c);
    if (map && !flowKey(c, keys)) return false;
    if (!flowNode(c, keys, depth)) return false;
    spaces(c);
    const next = c.text[c.at++];
    if (next === close) return true;
    if (next !== ",") return false;
  }
}

/** A whole one-line flow collection (`text` is exactly it) in the subset; its mapping keys are added to `keys`. */
export function scanFlow(text: string, keys: string[], depth: number): boolean {
  const c: Cursor = { text, at: 0 };
  return flowCollection(c, keys, depth) && c.at === text.length;
}

/** `s` without its trailing ASCII spaces (only those: NBSP and U+2028 are content to YAML).
 *  A loop, not `/ +$/`: that regex backtracks over every start in a run of spaces, quadratic
 *  on a line of many spaces followed by text (250,000 of them took 47 s). */
export function trimSpacesEnd(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}
