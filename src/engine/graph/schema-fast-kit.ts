// The pieces of the fast graph check (ADR 0083): each piece takes a value and gives the
// value zod's schema would give for it, or UNSURE. UNSURE is never "invalid": it only says
// "ask zod", which stays the one source of problems and messages. So a piece may be as
// conservative as it likes (a value of a prototype other than Object's, a hole, undefined,
// a key like __proto__, an integer past 2^53: UNSURE), but it must never give a value zod
// would refuse or shape differently. test/graph/schema-fast.test.ts holds the two equal.
export const UNSURE: unique symbol = Symbol("unsure");
export type Unsure = typeof UNSURE;
export type Piece = (v: unknown) => unknown;

/** Keys the fast check never reads: zod and plain assignment treat them specially. */
const RISKY_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function plain(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** Own keys when every one is an ordinary string key and no value is undefined; else null. */
function safeKeys(v: Record<string, unknown>): string[] | null {
  const keys = Reflect.ownKeys(v);
  for (const k of keys) {
    if (typeof k !== "string" || RISKY_KEYS.has(k)) return null;
    const d = Object.getOwnPropertyDescriptor(v, k)!;
    if (!("value" in d) || d.value === undefined || !d.enumerable) return null;
  }
  return keys as string[];
}

export function str(min = 0, pattern?: RegExp): Piece {
  return (v) => (typeof v === "string" && v.length >= min && (pattern === undefined || pattern.test(v)) ? v : UNSURE);
}

/** A finite number passing `ok`; `int` asks for a safe integer (zod's `.int()`). */
export function num(ok: (n: number) => boolean = () => true, int = false): Piece {
  return (v) => (typeof v === "number" && (int ? Number.isSafeInteger(v) : Number.isFinite(v)) && ok(v) ? v : UNSURE);
}

export const bool: Piece = (v) => (typeof v === "boolean" ? v : UNSURE);
/** z.unknown(): the value itself, the same reference, as zod gives it. */
export const any: Piece = (v) => (v === undefined ? UNSURE : v);

export function oneOf(values: readonly unknown[]): Piece {
  return (v) => (values.includes(v) ? v : UNSURE);
}

/** A piece, then a function of its output (zod's transform and refine). Not named `then`:
 *  a module exporting `then` is a thenable, and awaiting its import never settles. */
export function refine(piece: Piece, next: (out: any) => unknown): Piece {
  return (v) => {
    const out = piece(v);
    return out === UNSURE ? UNSURE : next(out);
  };
}

export function arr(item: Piece, min = 0): Piece {
  return (v) => {
    if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype || v.length < min) return UNSURE;
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!Object.hasOwn(v, i)) return UNSURE;
      const r = item(v[i]);
      if (r === UNSURE) return UNSURE;
      out[i] = r;
    }
    return out;
  };
}

/** A field of a strict object; `opt`: it may be left out. */
export interface Field {
  piece: Piece;
  opt: boolean;
}
export const req = (piece: Piece): Field => ({ piece, opt: false });
export const opt = (piece: Piece): Field => ({ piece, opt: true });
export type Shape = Record<string, Field>;

/** z.strictObject: no key but the shape's; the output's keys in the shape's order, as zod's. */
export function obj(shape: Shape): Piece {
  const fields = Object.entries(shape);
  const known = new Set(Object.keys(shape));
  return (v) => {
    if (!plain(v)) return UNSURE;
    const keys = safeKeys(v);
    if (keys === null || keys.some((k) => !known.has(k))) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const [key, f] of fields) {
      if (!Object.hasOwn(v, key)) {
        if (f.opt) continue;
        return UNSURE;
      }
      const r = f.piece(v[key]);
      if (r === UNSURE) return UNSURE;
      out[key] = r;
    }
    return out;
  };
}

/** z.record(key, value): every key passes `key`, in the input's order. */
export function record(key: Piece, value: Piece): Piece {
  return (v) => {
    if (!plain(v)) return UNSURE;
    const keys = safeKeys(v);
    if (keys === null) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      if (key(k) === UNSURE) return UNSURE;
      const r = value(v[k]);
      if (r === UNSURE) return UNSURE;
      out[k] = r;
    }
    return out;
  };
}

/** z.union of options no value can pass two of (a string or an object, say): the first that is sure. */
export function either(...options: Piece[]): Piece {
  return (v) => {
    for (const o of options) {
      const r = o(v);
      if (r !== UNSURE) return r;
    }
    return UNSURE;
  };
}

/** z.discriminatedUnion("kind", ...): the option its `kind` names. */
export function byKind(options: Record<string, Piece>): Piece {
  const map = new Map(Object.entries(options));
  return (v) => {
    if (!plain(v) || typeof v.kind !== "string") return UNSURE;
    const o = map.get(v.kind);
    return o === undefined ? UNSURE : o(v);
  };
}
