// How deep a JSON value may nest (ADR 0019). Every value vouch takes
// from outside — a model's or a script's output, a harness's stream, a graph's
// own values — is measured here before anything recursive touches it
// (JSON.stringify when it is stored, ajv, templates, the TUI): a value nested
// 50,000 levels overflowed the stack when it was written to the ledger. 256
// levels is far beyond any real output and far below every stack limit.
// Both measures are loops, never recursion.
import type { Path } from "./graph/problem.ts";

export const MAX_JSON_DEPTH = 256;
/** The levels an event (a harness line, a stored record) wraps around a bounded value. */
export const ENVELOPE_LEVELS = 16;

export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;

/** Whether JSON text opens more than `max` arrays/objects at once (strings skipped). */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

interface Frame {
  v: unknown;
  depth: number;
  key?: string | number;
  up?: Frame;
}

/** The path to the first place where `value` nests deeper than `max`, or null. */
export function tooDeepAt(value: unknown, max = MAX_JSON_DEPTH): Path | null {
  const stack: Frame[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.v === null || typeof f.v !== "object") continue;
    if (f.depth >= max) return pathOf(f);
    const depth = f.depth + 1;
    if (Array.isArray(f.v)) f.v.forEach((v, key) => stack.push({ v, depth, key, up: f }));
    else for (const key of Object.keys(f.v)) stack.push({ v: (f.v as Record<string, unknown>)[key], depth, key, up: f });
  }
  return null;
}

function pathOf(f: Frame): Path {
  const path: Path = [];
  for (let at: Frame | undefined = f; at?.key !== undefined; at = at.up) path.unshift(at.key);
  return path;
}

export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  return tooDeepAt(value, max) !== null;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string; tooDeep?: true };

/** JSON.parse, refusing text nested deeper than `max` before parsing it. */
export function parseJson(text: string, max = MAX_JSON_DEPTH): ParsedJson {
  if (jsonTextTooDeep(text, max)) return { ok: false, message: TOO_DEEP, tooDeep: true };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** Marks where `cutTooDeep` cut a value. */
export const CUT_MARK = `[cut: ${TOO_DEEP}]`;

/** `value` with every array/object deeper than `max` replaced by CUT_MARK, in
 *  place (a loop). For values read back from a ledger written before the bound
 *  (ADR 0019): they must print, never overflow the stack of JSON.stringify. */
export function cutTooDeep(value: unknown, max = MAX_JSON_DEPTH): unknown {
  if (value === null || typeof value !== "object") return value;
  if (max <= 0) return CUT_MARK;
  const stack: { v: object; depth: number }[] = [{ v: value, depth: 1 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    const holder = v as Record<string | number, unknown>;
    for (const key of Object.keys(holder)) {
      const child = holder[key];
      if (child === null || typeof child !== "object") continue;
      if (depth >= max) holder[key] = CUT_MARK;
      else stack.push({ v: child, depth: depth + 1 });
    }
  }
  return value;
}
