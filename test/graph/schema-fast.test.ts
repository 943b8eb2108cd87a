// The fast graph check (ADR 0083) gives zod's answer or none: whenever it is sure, zod's
// graph schema accepts the same value and gives the same output (durations in ms, the same
// keys in the same order, the same references for free-form values); when it is unsure,
// the loader asks zod, so both paths accept and refuse exactly the same graphs. Held over
// the shipped graphs and checks file (each must be read fast, so the speed claim is tested),
// the bad-graph and valid corpora, graphs generated from the corpus's own fields and values,
// random edits of the shipped graphs with hostile values (__proto__ keys, null-prototype
// objects, holes, undefined, NaN, 2^53, deep nesting, huge strings), and named shapes.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import YAML from "yaml";
import { fastChecksFile, fastGraph } from "../../src/engine/graph/schema-fast.ts";
import { UNSURE } from "../../src/engine/graph/schema-fast-kit.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { checksFileSchema } from "../../src/engine/graph/checks-file-zod.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { zodGraph } from "../../src/engine/graph/graph-zod.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const RUNS = Number(process.env.PROP_RUNS ?? 300);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}
const read = (f: string): unknown => YAML.parse(readFileSync(f, "utf8"));
const isChecksFile = (f: string) => f.endsWith(".checks.yaml");
const SHIPPED = [...yamlFiles(join(ROOT, "graphs")), ...yamlFiles(join(ROOT, "examples"))];
const GRAPHS = SHIPPED.filter((f) => !isChecksFile(f));
const CORPUS = [...yamlFiles(join(ROOT, "test", "graph", "broken")), ...yamlFiles(join(ROOT, "test", "graph", "valid"))];

type Check = { fast: (raw: unknown) => unknown; schema: { safeParse: (raw: unknown, p: { jitless: true }) => any } };
const GRAPH: Check = { fast: fastGraph, schema: graphSchema };
const CHECKS: Check = { fast: fastChecksFile, schema: checksFileSchema };

/** The property. Returns whether the fast check was sure. */
function agree(raw: unknown, on: Check = GRAPH): boolean {
  let fast: unknown;
  let fastThrew: unknown = null;
  try {
    fast = on.fast(raw);
  } catch (e) {
    fastThrew = e; // the loader turns a throw into a validator-bug problem: zod must throw too
  }
  let parsed: any;
  try {
    parsed = on.schema.safeParse(raw, { jitless: true });
  } catch (e) {
    expect(fastThrew, String(e)).not.toBeNull();
    return false;
  }
  expect(fastThrew).toBeNull();
  if (fast === UNSURE) return false;
  expect(parsed.error?.issues).toBeUndefined();
  expect(fast).toStrictEqual(parsed.data);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data)); // the same keys in the same order
  return true;
}

describe("files on disk", () => {
  test.each(GRAPHS.map((f) => [f.slice(ROOT.length + 1), f]))("%s is read fast and as zod reads it", (_, file) => {
    expect(agree(read(file))).toBe(true);
  });
  test.each(SHIPPED.filter(isChecksFile).map((f) => [f.slice(ROOT.length + 1), f]))("checks file %s is read fast", (_, file) => {
    expect(agree(read(file), CHECKS)).toBe(true);
  });
  test("the bad-graph and valid corpora agree, and the valid corpus is read fast", () => {
    const valid = CORPUS.filter((f) => f.includes("/valid/") && !isChecksFile(f));
    for (const f of CORPUS) {
      let raw: unknown;
      try {
        raw = read(f);
      } catch {
        continue; // not YAML: the YAML step refuses it before any schema
      }
      agree(raw, isChecksFile(f) ? CHECKS : GRAPH);
    }
    expect(valid.filter((f) => agree(read(f))).length).toBeGreaterThan(valid.length / 2);
  });
  test("the loader gives the same graph whichever path reads it", () => {
    for (const f of GRAPHS) {
      const loaded = loadGraph(f, readFileSync(f, "utf8"));
      const slow = zodGraph(read(f));
      expect("graph" in slow && loaded.graph !== null).toBe(true);
      // checks_from merges a library in after the schema step; the rest is the schema's value.
      if (!("checks_from" in (read(f) as object))) expect(loaded.graph).toStrictEqual("graph" in slow ? slow.graph : null);
    }
  });
});

// Every key and value the shipped graphs and the valid corpus hold, by key, and their nodes
// by kind: graphs built from them are often valid, so the property is not vacuous; hostile
// values and fields of other kinds make the rest refused.
const POOL = new Map<string, unknown[]>();
const NODES = new Map<string, Record<string, unknown>[]>();
const NODE_FIELDS = new Map<string, Set<string>>();
function collect(v: unknown, inNodes = false): void {
  if (Array.isArray(v)) return v.forEach((x) => collect(x));
  if (typeof v !== "object" || v === null) return;
  const o = v as Record<string, unknown>;
  for (const [key, value] of Object.entries(o)) {
    if (!POOL.has(key)) POOL.set(key, []);
    POOL.get(key)!.push(value);
    const node = value as Record<string, unknown>;
    if (inNodes && typeof node === "object" && node !== null && typeof node.kind === "string") {
      (NODES.get(node.kind) ?? NODES.set(node.kind, []).get(node.kind)!).push(node);
      const fields = NODE_FIELDS.get(node.kind) ?? NODE_FIELDS.set(node.kind, new Set()).get(node.kind)!;
      for (const f of Object.keys(node)) fields.add(f);
    }
    collect(value, key === "nodes" || key === "branch");
  }
}
for (const f of [...SHIPPED, ...CORPUS.filter((f) => f.includes("/valid/"))]) collect(read(f));

const deep = (n: number): unknown => {
  let v: unknown = { a: 1 };
  for (let i = 0; i < n; i++) v = { not: v };
  return v;
};
const hostile = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    NaN,
    Infinity,
    -0,
    2 ** 53,
    2 ** 53 + 2,
    0.5,
    255,
    256,
    -1,
    0,
    1,
    "",
    "__proto__",
    "constructor",
    "0s",
    "0ms",
    "10m",
    "11m",
    "none",
    " 10m",
    "1h1h",
    "redis://x",
    "http://x",
    "output.verdict",
    "output..x",
    "a b",
    "-x",
    "x".repeat(100_000),
    [],
    [undefined],
    // biome-ignore lint/suspicious/noSparseArray: a hole
    [, "a"],
    {},
    JSON.parse('{"__proto__": {"x": 1}}'),
    JSON.parse('{"constructor": "a"}'),
    Object.create(null),
    Object.assign(Object.create(null), { kind: "end" }),
    new Date(0),
    deep(200),
    { kind: "end" },
    { all: [{ "inputs.x": 1 }] },
    { "inputs.x": { matches: "(" } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string(),
  fc.integer(),
  fc.double(),
);
const poolValue = (key: string) => {
  const values = POOL.get(key) ?? [];
  return values.length === 0 ? hostile : fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: hostile });
};
const KEYS = [...POOL.keys()];
/** A node of the corpus with up to two fields of its kind set from the pool. */
const nodeArb = fc
  .constantFrom(...NODES.keys())
  .chain((kind) =>
    fc.tuple(
      fc.constantFrom(...NODES.get(kind)!),
      fc
        .subarray(
          [...NODE_FIELDS.get(kind)!].filter((k) => k !== "kind"),
          { maxLength: 2 },
        )
        .chain((fields) => fc.tuple(...fields.map((f) => poolValue(f).map((v) => [f, v] as const)))),
    ),
  )
  .map(([node, entries]) => ({ ...node, ...Object.fromEntries(entries) }));
const graphArb = fc
  .tuple(
    fc.dictionary(fc.constantFrom("a", "b", "c", "x_1", "d-2", "9bad", "__proto__"), nodeArb, { minKeys: 1, maxKeys: 4 }),
    fc.subarray(["description", "inputs", "defaults", "caps", "concurrency", "checks", "executor", "origin"]),
  )
  .chain(([nodes, top]) =>
    fc
      .tuple(...top.map((f) => poolValue(f).map((v) => [f, v] as const)))
      .map((entries) => ({ version: 1, name: "g", ...Object.fromEntries(entries), nodes })),
  );

/** A copy of `v` with one value somewhere inside replaced, deleted, or given a new key. */
function edit(v: unknown, path: number[], how: number, value: unknown, key: string): unknown {
  if (typeof v !== "object" || v === null) return value;
  const isArr = Array.isArray(v);
  const keys = Object.keys(v);
  if (path.length === 0 || keys.length === 0) {
    if (isArr) return how === 0 ? [...v, value] : v.slice(1);
    const copy: Record<string, unknown> = { ...(v as object) };
    if (how === 0) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else if (keys.length > 0) delete copy[keys[path.length % keys.length]!];
    return copy;
  }
  const k = keys[path[0]! % keys.length]!;
  const inner = edit((v as Record<string, unknown>)[k], path.slice(1), how, value, key);
  if (isArr) return (v as unknown[]).map((x, i) => (String(i) === k ? inner : x));
  return { ...(v as object), [k]: inner };
}
const editArb = fc.record({
  path: fc.array(fc.nat(40), { maxLength: 6 }),
  how: fc.integer({ min: 0, max: 2 }),
  value: fc.oneof(hostile, fc.constantFrom(...KEYS).chain(poolValue)),
  key: fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom("__proto__", "constructor", "prototype", "promt", "")),
});

describe("generated graphs", () => {
  test("graphs built from the corpus's fields and values agree, and many are read fast", () => {
    let sure = 0;
    fc.assert(
      fc.property(graphArb, (g) => {
        if (agree(g)) sure++;
      }),
      { numRuns: RUNS * 3 },
    );
    expect(sure).toBeGreaterThan(RUNS * 0.1); // not vacuous
  });
  test("random edits of the shipped graphs agree", () => {
    const shipped = GRAPHS.map(read);
    let sure = 0;
    fc.assert(
      fc.property(fc.constantFrom(...shipped), fc.array(editArb, { minLength: 1, maxLength: 3 }), (g, edits) => {
        const edited = edits.reduce((v, e) => edit(v, e.path, e.how, e.value, e.key), g);
        if (agree(edited)) sure++;
      }),
      { numRuns: RUNS * 3 },
    );
    expect(sure).toBeGreaterThan(RUNS * 0.1);
  });
  test("random edits of the checks file agree", () => {
    const file = read(SHIPPED.find(isChecksFile)!);
    fc.assert(
      fc.property(fc.array(editArb, { minLength: 1, maxLength: 3 }), (edits) => {
        agree(
          edits.reduce((v, e) => edit(v, e.path, e.how, e.value, e.key), file),
          CHECKS,
        );
      }),
      { numRuns: RUNS },
    );
  });
});

/** Every path to a value inside `v`, objects and arrays included. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof v !== "object" || v === null) return [at];
  return [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, Array.isArray(v) ? Number(k) : k]))];
}
/** A copy of `v` with the value at `path` given by `change` (undefined: the key deleted). */
function setAt(v: unknown, path: (string | number)[], change: (old: unknown) => unknown): unknown {
  if (path.length === 0) return change(v);
  const [k, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === k ? setAt(x, rest, change) : x));
  const copy: Record<string, unknown> = { ...(v as object) };
  const next = setAt(copy[k!], rest, change);
  if (next === undefined && rest.length === 0) delete copy[k!];
  else copy[k!] = next;
  return copy;
}
const BOUNDARY: unknown[] = [
  0,
  -1,
  1,
  0.5,
  10,
  11,
  255,
  256,
  1.5,
  2 ** 53,
  "",
  "0s",
  "none",
  "10m",
  "11m",
  "x",
  "a b",
  "output.x",
  null,
  true,
  [],
  [""],
  {},
];

// Sweeps, not samples: every value of the graphs that use every field, replaced by each
// boundary value, deleted, and every object given each field name the language has.
describe("sweeps over every field", () => {
  const every = ["every-field", "map-everything", "sessions", "workspaces", "merge-workspaces", "sealed-checks"].map((n) =>
    read(join(ROOT, "test", "graph", "valid", `${n}.yaml`)),
  );
  test("each value replaced by each boundary value, and each key deleted", () => {
    let sure = 0;
    for (const g of every)
      for (const p of paths(g).slice(1)) {
        for (const b of BOUNDARY) if (agree(setAt(g, p, () => b))) sure++;
        if (agree(setAt(g, p, () => undefined))) sure++;
      }
    expect(sure).toBeGreaterThan(100);
  });
  test("each object given each field name, with a value that field has somewhere", () => {
    for (const g of every)
      for (const p of paths(g)) {
        const at = p.reduce<any>((v, k) => v[k], g);
        if (typeof at !== "object" || at === null || Array.isArray(at)) continue;
        for (const key of KEYS)
          for (const value of (POOL.get(key) ?? []).slice(0, 1)) agree(setAt(g, p, (o) => ({ ...(o as object), [key]: value })));
      }
  });
});

describe("named shapes", () => {
  const base = (node: unknown, top: Record<string, unknown> = {}) => ({ version: 1, name: "g", ...top, nodes: { a: node } });
  test.each<[string, unknown, boolean]>([
    ["a minimal graph", base({ kind: "end" }), true],
    ["durations become ms", base({ kind: "script", run: "true", timeout: "1m30s" }), true],
    ["a zero duration", base({ kind: "script", run: "true", timeout: "0s" }), false],
    ["caps none", base({ kind: "agent", prompt: "p", caps: { wall: "none", idle: "10m" } }), true],
    ["a check timeout over the ceiling", base({ kind: "end" }, { checks: { c: { run: "x", timeout: "11m" } } }), false],
    ["no nodes", { version: 1, name: "g", nodes: {} }, false],
    ["version 2", { version: 2, name: "g", nodes: { a: { kind: "end" } } }, false],
    ["an own __proto__ node", { version: 1, name: "g", nodes: JSON.parse('{"__proto__": {"kind": "end"}}') }, false],
    ["an own __proto__ field", base(JSON.parse('{"kind": "end", "__proto__": {"x": 1}}')), false],
    ["__proto__ inside free-form output", base({ kind: "end", output: JSON.parse('{"__proto__": 1}') }), true],
    ["a null-prototype node", { version: 1, name: "g", nodes: { a: Object.assign(Object.create(null), { kind: "end" }) } }, false],
    ["a null-prototype graph", Object.assign(Object.create(null), base({ kind: "end" })), false],
    ["undefined where a field may be left out", base({ kind: "end", description: undefined }), false],
    ["a hole in needs", base({ kind: "end", needs: Object.assign(new Array(2), { 1: "b" }) }), false],
    ["an integer past 2^53", base({ kind: "agent", prompt: "p", caps: { turns: 2 ** 53 + 2 } }), false],
    ["a bad condition", base({ kind: "end", when: { "inputs.x": { matches: 1 } } }), false],
    ["a condition nested 500 deep", base({ kind: "end", when: deep(500) }), true],
    ["free-form output nested 5,000 deep", base({ kind: "end", output: deep(5000) }), true],
    ["a 1 MB prompt", base({ kind: "agent", prompt: "p".repeat(1 << 20) }), true],
    ["a notifier", base({ kind: "end" }, { notify: [{ argv: ["x"], timeout: "30s" }] }), true],
    ["a notifier's timeout over a minute", base({ kind: "end" }, { notify: [{ argv: ["x"], timeout: "2m" }] }), false],
    ["an unknown field", base({ kind: "end", promt: "x" }), false],
    ["an unknown kind", base({ kind: "bogus" }), false],
    ["a map in a map", base({ kind: "map", over: "inputs.x", branch: { b: { kind: "map", over: "x", branch: {} } } }), false],
    ["exhausted without its output", base({ kind: "script", run: "x", exhausted: {} }), false],
    ["exhausted with a null output", base({ kind: "script", run: "x", exhausted: { output: null } }), true],
    ["a getter", base(Object.defineProperty({ kind: "end" }, "description", { get: () => "x", enumerable: true })), false],
  ])("%s", (_, raw, sure) => {
    expect(agree(raw)).toBe(sure);
  });
});
