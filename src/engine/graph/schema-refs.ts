// Every `$ref` of an output schema must resolve inside the schema (issue 27 item
// 14): vouch never reads a file or the network to resolve one, so a reference to a
// URL, a `file:` path or another document, and a local pointer that names nothing,
// would fail when the run compiles the schema. Decided here, at load, so `vouch
// validate` and `vouch run` refuse the same schema at the same line. Pure: no ajv
// (loading generates no code), the resolution rules ajv 8 follows for draft-07:
//   "#"            the document (or the schema resource an enclosing `$id` starts)
//   "#/a/b"        a JSON pointer from there (~0 "~", ~1 "/", %XX decoded)
//   "#name"        an `$anchor: name`, or a draft-07 `$id: "#name"`
//   "ID" / "ID#…"  a schema resource of this document whose `$id` is exactly ID
import type { Path } from "./problem.ts";

/** The one outside document ajv knows without fetching: its own draft-07 meta-schema. */
const KNOWN = new Set(["http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-07/schema#"]);

const DATA = new Set(["enum", "const", "default", "examples"]);

export interface RefProblem {
  /** Where the `$ref` is written, inside the schema. */
  path: Path;
  message: string;
}

interface Found {
  ref: string;
  path: Path;
  /** The schema resource the ref is written in (the root, or the nearest enclosing `$id`). */
  base: unknown;
}

interface Walked {
  refs: Found[];
  /** Objects that hold a `$ref` and nothing else: following one goes on to its target. */
  pure: Map<unknown, Found>;
  ids: Map<string, unknown>;
  anchored: Map<string, unknown>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function walk(value: unknown, path: Path, base: unknown, out: Walked): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...path, i], base, out));
    return;
  }
  if (!isObject(value)) return;
  let here = base;
  const id = value.$id;
  if (typeof id === "string" && id !== "") {
    if (id.startsWith("#")) out.anchored.set(id.slice(1), value);
    else {
      out.ids.set(id.replace(/#$/, ""), value);
      here = value;
    }
  }
  if (typeof value.$anchor === "string") out.anchored.set(value.$anchor, value);
  if (typeof value.$ref === "string") {
    const found = { ref: value.$ref, path: [...path, "$ref"], base: here };
    out.refs.push(found);
    if (Object.keys(value).length === 1) out.pure.set(value, found);
  }
  for (const [k, v] of Object.entries(value)) {
    // Data, not schemas: a "$ref" inside an enum or a default is no reference.
    if (DATA.has(k) || (typeof v === "string" && (k === "$ref" || k === "$id" || k === "$anchor"))) continue;
    walk(v, [...path, k], here, out);
  }
}

function decode(token: string): string | null {
  try {
    return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    return null;
  }
}

/** The value a JSON pointer ("/a/b", "" for the whole) names in `doc`, or undefined. */
function pointer(doc: unknown, ptr: string): unknown {
  if (ptr === "") return doc;
  if (!ptr.startsWith("/")) return undefined;
  let at: unknown = doc;
  for (const raw of ptr.slice(1).split("/")) {
    const key = decode(raw);
    if (key === null) return undefined;
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(key)) at = at[Number(key)];
    else if (isObject(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
  }
  return at;
}

/** What `f` refers to, or why nothing. */
function target(f: Found, w: Walked): { at: unknown } | { why: string } {
  if (KNOWN.has(f.ref)) return { at: null };
  const hash = f.ref.indexOf("#");
  const doc = hash < 0 ? f.ref : f.ref.slice(0, hash);
  const fragment = hash < 0 ? "" : f.ref.slice(hash + 1);
  const resource = doc === "" ? f.base : w.ids.get(doc);
  if (resource === undefined) {
    const why = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(doc)
      ? `points at ${doc.split(":")[0]}: ${JSON.stringify(f.ref)}, outside the schema; vouch resolves references only inside the schema and never reads a file or the network for one`
      : `points at another document, ${JSON.stringify(doc)}, which no $id of this schema names; vouch resolves references only inside the schema`;
    return { why };
  }
  if (fragment === "" || fragment.startsWith("/")) {
    const at = pointer(resource, fragment);
    return isObject(at) || typeof at === "boolean" ? { at } : { why: `names nothing in the schema: ${JSON.stringify(f.ref)}` };
  }
  const anchored = w.anchored.get(fragment);
  return anchored !== undefined ? { at: anchored } : { why: `names no $anchor of the schema: ${JSON.stringify(f.ref)}` };
}

/** Why `f` does not resolve inside the schema, or null. A chain of objects that are only a
 *  `$ref` and comes back to itself never reaches a schema (ajv overflows its stack on it). */
function unresolved(f: Found, w: Walked): string | null {
  const seen = new Set<unknown>();
  for (let step: Found = f; ; ) {
    const t = target(step, w);
    if ("why" in t) return step === f ? t.why : null; // a later link is reported where it is written
    const next = w.pure.get(t.at);
    if (next === undefined) return null;
    if (seen.has(t.at)) return `only refers to itself (a loop of objects that hold nothing but $ref): ${JSON.stringify(f.ref)}`;
    seen.add(t.at);
    step = next;
  }
}

/** Every `$ref` of `schema` that would not resolve, at its place. */
export function schemaRefProblems(schema: unknown): RefProblem[] {
  const w: Walked = { refs: [], pure: new Map(), ids: new Map(), anchored: new Map() };
  walk(schema, [], schema, w);
  return w.refs.flatMap((f) => {
    const why = unresolved(f, w);
    return why === null ? [] : [{ path: f.path, message: `output.schema: $ref ${why}` }];
  });
}
