// Reads the zod graph schema along a path, to know which fields an object
// accepts at that place (for "did you mean") and which node kind owns a field.
// Only the shapes of objects are read; zod's checks stay zod's business.
import type { Path } from "./problem.ts";
import { isObject } from "../json-object.ts";
import type { Schema } from "./zod-def.ts";
export type { Schema } from "./zod-def.ts";

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 16; i++) {
    const d = s.def;
    if ((d.type === "optional" || d.type === "nullable" || d.type === "default" || d.type === "readonly") && d.innerType) s = d.innerType;
    else if (d.type === "pipe" && d.in) s = d.in;
    else break;
  }
  return s;
}

function fits(schema: Schema, raw: unknown): boolean {
  const t = schema.def.type;
  if (t === "object" || t === "record") return isObject(raw);
  if (t === "array") return Array.isArray(raw);
  if (t === "string" || t === "enum") return typeof raw === "string";
  if (t === "number") return typeof raw === "number";
  if (t === "boolean") return typeof raw === "boolean";
  return true;
}

/** The options of a union that could describe `raw`. */
export function unionOptions(schema: Schema, raw: unknown): Schema[] {
  const d = schema.def;
  const options = (d.options ?? []).map(unwrap);
  if (d.discriminator && isObject(raw)) {
    const tag = raw[d.discriminator];
    const match = options.filter((o) => {
      const lit = o.def.shape?.[d.discriminator!];
      return lit ? (unwrap(lit).def.values ?? []).includes(tag) : false;
    });
    return match;
  }
  const fitting = options.filter((o) => fits(o, raw));
  return fitting.length > 0 ? fitting : options;
}

/** The schemas at `path` as declared (a union stays a union). */
export function declaredAt(root: Schema, rawRoot: unknown, path: Path): Schema[] {
  let current: { schema: Schema; raw: unknown }[] = [{ schema: unwrap(root), raw: rawRoot }];
  for (const seg of path) {
    const next: { schema: Schema; raw: unknown }[] = [];
    for (const { schema, raw } of current) {
      const candidates = schema.def.type === "union" ? unionOptions(schema, raw) : [schema];
      for (const c of candidates) {
        const d = c.def;
        const child = isObject(raw) || Array.isArray(raw) ? (raw as Record<string, unknown>)[seg as string] : undefined;
        if (d.type === "object" && typeof seg === "string" && d.shape?.[seg]) next.push({ schema: unwrap(d.shape[seg]!), raw: child });
        else if (d.type === "record" && d.valueType) next.push({ schema: unwrap(d.valueType), raw: child });
        else if (d.type === "array" && d.element) next.push({ schema: unwrap(d.element), raw: child });
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current.map((c) => c.schema);
}

/** Every schema that could apply at `path`, given the raw document `root` (unions resolved by the value there). */
export function schemasAt(root: Schema, rawRoot: unknown, path: Path): Schema[] {
  const value = valueAt(rawRoot, path);
  return declaredAt(root, rawRoot, path).flatMap((s) => (s.def.type === "union" ? unionOptions(s, value) : [s]));
}

/** The options of the union declared at `path`, in declaration order (empty when it is not a union). */
export function declaredOptions(root: Schema, rawRoot: unknown, path: Path): Schema[] {
  const u = declaredAt(root, rawRoot, path).find((s) => s.def.type === "union");
  return (u?.def.options ?? []).map(unwrap);
}

function valueAt(raw: unknown, path: Path): unknown {
  let cur = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg as string];
  }
  return cur;
}

/** The field names an object at `path` accepts (union of every applicable object shape). */
export function knownKeysAt(root: Schema, rawRoot: unknown, path: Path): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(root, rawRoot, path)) if (s.def.type === "object") for (const k of Object.keys(s.def.shape ?? {})) keys.add(k);
  return [...keys];
}

/** Required (non-optional) fields of an object schema. */
export function requiredKeys(schema: Schema): string[] {
  const shape = unwrap(schema).def.shape ?? {};
  return Object.entries(shape)
    .filter(([, s]) => s.def.type !== "optional")
    .map(([k]) => k);
}

/** The kinds (discriminator values) of a node union whose shape has `field`. */
export function kindsWithField(nodeUnion: Schema, field: string): string[] {
  const d = unwrap(nodeUnion).def;
  const out: string[] = [];
  for (const o of (d.options ?? []).map(unwrap)) {
    const kind = o.def.shape?.kind ? unwrap(o.def.shape.kind).def.values?.[0] : undefined;
    if (typeof kind === "string" && o.def.shape?.[field]) out.push(kind);
  }
  return out;
}
