// The JSON text of the long values inside an event, as slices of the event's own text (ADR 0084).
// A 100,000-item map's node.finished holds every branch's result: its text is ~9 MB, and the
// ledger needed the text of its output and of the results inside it too (stored-text.ts finds a
// long value in its parent's text by its own text). Made by JSON.stringify, each was another
// ~9 MB string (and ~20 MB while it was built): the map's end peaked ~100 MB above the run. A
// slice of the event's text shares its characters, so the three texts cost one.
//
// One pass over the text, guided by the value it was made from: each member's key is checked
// against the text and each object or array is walked in step with it. Anything unexpected (a
// toJSON, a class instance, a key or kind that does not match) stops the walk: what was not
// seeded is stringified as before, so the seeds change how much memory a write takes, never
// what it stores.
import { markShortMembers, type Texts } from "./stored-text.ts";

/** The walk's view of one pass: the text, where it is, and the keys known to print as themselves. */
interface Walk {
  text: string;
  at: number;
  texts: Texts;
  min: number;
  plain: Map<string, boolean>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Seeds `texts` with the text of each object or array inside `value` (to `levels` deep) whose
 *  text is at least `min` characters: slices of `text`, which must be JSON.stringify(value). */
export function seedTexts(text: string, value: unknown, texts: Texts, min: number, levels: number): void {
  const w: Walk = { text, at: 0, texts, min, plain: new Map() };
  walk(w, value, levels);
}

/** A plain object or array, which JSON.stringify prints member by member (no toJSON, no class). */
function walkable(v: unknown): v is Record<string, unknown> | unknown[] {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  if (Array.isArray(v)) return proto === Array.prototype;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== "function";
}

/** Walks the value at w.at; false when the text is not what the value prints (the walk stops). */
function walk(w: Walk, v: unknown, levels: number): boolean {
  if (!walkable(v) || levels < 0) return skip(w);
  const start = w.at;
  const longest = Array.isArray(v) ? walkArray(w, v, levels) : walkObject(w, v, levels);
  if (longest < 0) return false;
  // A value shorter than `min` is never looked inside (compact keeps it inline): no note for it.
  if (w.at - start < w.min) return true;
  w.texts.set(v, w.text.slice(start, w.at));
  if (longest < w.min) markShortMembers(w.texts, v);
  return true;
}

/** walk() of a member: the length of its text, or -1 when the walk stops. */
function member(w: Walk, v: unknown, levels: number): number {
  const start = w.at;
  return walk(w, v, levels) ? w.at - start : -1;
}

/** The members of an array; returns the longest member's length, or -1 when the walk stops. */
function walkArray(w: Walk, v: unknown[], levels: number): number {
  if (!expect(w, 0x5b)) return -1; // [
  let longest = 0;
  for (let i = 0; i < v.length; i++) {
    if (i > 0 && !expect(w, 0x2c)) return -1; // ,
    const n = member(w, v[i], levels - 1);
    if (n < 0) return -1;
    if (n > longest) longest = n;
  }
  return expect(w, 0x5d) ? longest : -1; // ]
}

/** The members of an object (those JSON.stringify prints); as walkArray. */
function walkObject(w: Walk, v: Record<string, unknown>, levels: number): number {
  if (!expect(w, 0x7b)) return -1; // {
  let longest = 0;
  let first = true;
  for (const key of Object.keys(v)) {
    const child = v[key];
    // JSON.stringify leaves these members out of an object.
    if (child === undefined || typeof child === "function" || typeof child === "symbol") continue;
    if (!first && !expect(w, 0x2c)) return -1;
    first = false;
    if (!keyAt(w, key) || !expect(w, 0x3a)) return -1; // :
    const n = member(w, child, levels - 1);
    if (n < 0) return -1;
    if (n > longest) longest = n;
  }
  return expect(w, 0x7d) ? longest : -1; // }
}

function expect(w: Walk, code: number): boolean {
  if (w.text.charCodeAt(w.at) !== code) return false;
  w.at++;
  return true;
}

/** The member's key at w.at, as JSON.stringify prints it; moves past it. */
function keyAt(w: Walk, key: string): boolean {
  let plain = w.plain.get(key);
  if (plain === undefined) {
    plain = JSON.stringify(key) === `"${key}"`;
    w.plain.set(key, plain);
  }
  const printed = plain ? key : JSON.stringify(key).slice(1, -1);
  const { text, at } = w;
  if (text.charCodeAt(at) !== QUOTE || !text.startsWith(printed, at + 1) || text.charCodeAt(at + 1 + printed.length) !== QUOTE)
    return false;
  w.at = at + printed.length + 2;
  return true;
}

/** Moves past one value without looking inside (a string, number, literal, or a whole nested value). */
function skip(w: Walk): boolean {
  const { text } = w;
  let depth = 0;
  let i = w.at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return false;
      if (depth === 0) {
        i++;
        break;
      }
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) break; // the end of the parent: a number or literal just ended
      depth--;
      if (depth === 0) {
        i++;
        break;
      }
    } else if (c === 0x2c && depth === 0) break;
  }
  if (depth !== 0 || i === w.at) return false;
  w.at = i;
  return true;
}

/** The index of the quote that ends the string opening at `open`; -1 when there is none. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}
