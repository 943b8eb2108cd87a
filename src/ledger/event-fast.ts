// A fast reading of a stored event (ADR 0094): the value `eventSchema.safeParse` would give,
// or UNSURE, in which case run-events.ts asks zod, which stays the one source of what is
// wrong and how it is said. zod's parse was a quarter of `vouch resume`'s CPU at 8,000 items
// (40,000 events, ~320 ms): resume reads every event of the run back.
//
// Unlike the graph's fast check (ADR 0083, written by hand), this one is built from the zod
// schema itself, so a field or a bound added to events.ts is read here as zod reads it. It
// knows a few of zod's kinds (strict objects, strings, numbers with `.int()`/`.min()`,
// booleans, enums, literals, nullable, optional, unknown, arrays, the discriminated union on
// `type`); any other kind, check or option makes that schema UNSURE for every value (so
// run.started's `inputs` record goes to zod: one event a run). It gives what zod gives: a
// new object per strict object, its keys in the schema's order, absent optional keys left
// out; a new array per array; an unknown value as the same reference.
import type { ZodType } from "zod";
import { eventSchema, type VouchEvent } from "../engine/events.ts";

/** "Ask zod": never "invalid" (the ledger may import only the event union from the engine). */
export const UNSURE: unique symbol = Symbol("unsure");

type Read = (v: unknown) => unknown;
const never: Read = () => UNSURE;

/** What the readers here rely on of a zod schema's internals (zod 4's `_zod`). */
interface Internals {
  def: Record<string, unknown> & { type: string; checks?: { _zod: { def: Record<string, unknown> } }[] };
  optin?: string;
  optout?: string;
  values?: Set<unknown>;
}
const internals = (s: unknown): Internals => (s as { _zod: Internals })._zod;

function plainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** A number check as zod's `.int()` and `.min()` make them; null for any other. */
function numberCheck(c: Record<string, unknown>): ((n: number) => boolean) | null {
  if (c.when !== undefined) return null;
  if (c.check === "number_format" && c.format === "safeint") return (n) => Number.isSafeInteger(n);
  if (c.check === "greater_than" && typeof c.value === "number") {
    const min = c.value;
    return c.inclusive === true ? (n) => n >= min : (n) => n > min;
  }
  return null;
}

function numberRead(z: Internals): Read {
  const checks = (z.def.checks ?? []).map((c) => numberCheck(c._zod.def));
  if (checks.some((c) => c === null)) return never;
  const ok = checks as ((n: number) => boolean)[];
  return (v) => (typeof v === "number" && Number.isFinite(v) && ok.every((c) => c(v)) ? v : UNSURE);
}

function objectRead(z: Internals): Read {
  if (internals(z.def.catchall).def.type !== "never") return never; // strict objects only
  const shape = z.def.shape as Record<string, unknown>;
  const keys = Object.keys(shape);
  const known = new Set(keys);
  // Absent, a key is left out only where zod leaves it out: optional in and out.
  const fields = keys.map((k) => {
    const f = internals(shape[k]);
    return { key: k, read: readerOf(shape[k]), omittable: f.optin === "optional" && f.optout === "optional" };
  });
  return (v) => {
    if (!plainObject(v)) return UNSURE;
    for (const k in v) if (!known.has(k) || !Object.hasOwn(v, k)) return UNSURE;
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (!Object.hasOwn(v, f.key)) {
        if (f.omittable) continue;
        return UNSURE;
      }
      const x = v[f.key];
      const r = x === undefined ? UNSURE : f.read(x);
      if (r === UNSURE) return UNSURE;
      out[f.key] = r;
    }
    return out;
  };
}

function unionRead(z: Internals): Read {
  if (z.def.discriminator !== "type" || z.def.unionFallback === true) return never;
  const byType = new Map<unknown, Read>();
  for (const option of z.def.options as unknown[]) {
    const typeSchema = (internals(option).def.shape as Record<string, unknown> | undefined)?.type;
    if (typeSchema === undefined) return never; // an option that is no object with a `type`: zod's to read
    const type = internals(typeSchema);
    if (type.def.type !== "literal" || type.values?.size !== 1) return never;
    byType.set([...type.values][0], readerOf(option));
  }
  return (v) => (plainObject(v) && typeof v.type === "string" ? (byType.get(v.type) ?? never)(v) : UNSURE);
}

function inner(z: Internals, wrap: (read: Read) => Read): Read {
  return wrap(readerOf(z.def.innerType));
}

const built = new WeakMap<object, Read>();

/** The reader of one schema, built once; a kind it does not know reads as UNSURE. */
function readerOf(schema: unknown): Read {
  const cached = built.get(schema as object);
  if (cached !== undefined) return cached;
  let read: Read = never;
  built.set(schema as object, (v) => read(v)); // met again while it is built (no event schema holds itself today)
  const z = internals(schema);
  // Checks (refinements, lengths, patterns) and coercion are zod's to judge, but for numbers' `.int()` and `.min()`.
  read = z.def.type !== "number" && (z.def.checks?.length || z.def.coerce) ? never : kindRead(z);
  built.set(schema as object, read);
  return read;
}

function kindRead(z: Internals): Read {
  switch (z.def.type) {
    case "string":
      return (v) => (typeof v === "string" ? v : UNSURE);
    case "boolean":
      return (v) => (typeof v === "boolean" ? v : UNSURE);
    case "number":
      return z.def.coerce ? never : numberRead(z);
    case "enum":
    case "literal": {
      const values = z.values;
      return values ? (v) => (values.has(v) ? v : UNSURE) : never;
    }
    case "unknown":
      return (v) => v;
    case "nullable":
      return inner(z, (r) => (v) => (v === null ? null : r(v)));
    case "optional":
      return inner(z, (r) => r); // present (an absent key is the object's to judge)
    case "array": {
      const element = readerOf(z.def.element);
      return (v) => {
        if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return UNSURE;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const r = i in v && v[i] !== undefined ? element(v[i]) : UNSURE;
          if (r === UNSURE) return UNSURE;
          out[i] = r;
        }
        return out;
      };
    }
    case "object":
      return objectRead(z);
    case "union":
      return unionRead(z);
    default:
      return never;
  }
}

let eventRead: Read | undefined;

/** The event zod would read from `value`, or UNSURE (then zod decides). */
export function fastEvent(value: unknown): VouchEvent | typeof UNSURE {
  eventRead ??= readerOf(eventSchema as ZodType);
  return eventRead(value) as VouchEvent | typeof UNSURE;
}
