// A loaded graph (or a part of one) written back in the form its file had, so it
// validates again: a branch job carries the graph cut to its map, and the worker
// runs graphSchema over it (ADR 0026). The schema's one transform turns duration
// strings ("60s") into milliseconds; a loaded graph therefore holds numbers where
// the schema wants strings, and a worker refused every branch with a wall, idle,
// timeout or backoff (ADR 0030). The walk follows the zod schema beside the value
// and writes each such number back as "<ms>ms" (exact: durations are whole ms).
import { isObject } from "../json-object.ts";
import type { Def, Schema } from "./zod-def.ts";

const WRAPPERS = new Set(["optional", "nullable", "default", "readonly", "catch", "nonoptional"]);

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 32; i++) {
    const d = s.def;
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === "lazy" && d.getter) s = d.getter();
    else break;
  }
  return s;
}

/** A pipe that reads a string and hands on something else: the duration transform. */
function readsString(schema: Schema): boolean {
  const d = schema.def;
  if (d.type !== "pipe" || !d.in) return false;
  const inner = unwrap(d.in);
  return inner.def.type === "string" || readsString(inner);
}

/** The option of a union the value belongs to: by the discriminator (a node's kind),
 *  else the first whose type fits and, for a mapping, whose fields hold all of its keys. */
function optionFor(union: Def, value: unknown): Schema | undefined {
  const options = union.options ?? [];
  if (union.discriminator && isObject(value)) {
    const tag = value[union.discriminator];
    return options.find((o) => unwrap(o).def.shape?.[union.discriminator!]?.def.values?.includes(tag));
  }
  const kind = isObject(value) ? "object" : Array.isArray(value) ? "array" : typeof value;
  return options.find((o) => {
    const od = unwrap(o).def;
    if (kind === "object")
      return od.type === "record" || (od.type === "object" && Object.keys(value as object).every((k) => Object.hasOwn(od.shape ?? {}, k)));
    if (kind === "array") return od.type === "array" || od.type === "tuple";
    return od.type !== "object" && od.type !== "record" && od.type !== "array";
  });
}

/** `value` (the schema's output) in the form the schema reads. Values the schema does not describe stay as they are. */
export function sourceForm(schema: Schema, value: unknown, depth = 0): unknown {
  if (depth > 200) return value; // deeper than any graph the loader accepts
  const s = unwrap(schema);
  const d = s.def;
  if (d.type === "pipe")
    return readsString(s) && typeof value === "number" ? `${value}ms` : d.in ? sourceForm(d.in, value, depth + 1) : value;
  if (d.type === "union" && d.options) {
    const option = optionFor(d, value);
    return option ? sourceForm(option, value, depth + 1) : value;
  }
  if (d.type === "array" && d.element && Array.isArray(value)) return value.map((v) => sourceForm(d.element!, v, depth + 1));
  if (!isObject(value)) return value;
  if (d.type === "record" && d.valueType) return mapValues(value, () => d.valueType, depth);
  if (d.type === "object" && d.shape) return mapValues(value, (k) => (Object.hasOwn(d.shape!, k) ? d.shape![k] : undefined), depth);
  return value;
}

function mapValues(value: Record<string, unknown>, schemaOf: (key: string) => Schema | undefined, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = schemaOf(k);
    // defineProperty: a key such as "__proto__" stays a plain key.
    Object.defineProperty(out, k, { value: sub ? sourceForm(sub, v, depth + 1) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
