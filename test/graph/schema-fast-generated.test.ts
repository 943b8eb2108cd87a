// The fast graph check (ADR 0083) against zod on generated graphs: graphs built from the
// corpus's own nodes with fields of their kind set from the corpus's values (one in nine
// hostile), and random edits of the shipped graphs and checks file with hostile values
// (__proto__ keys, null-prototype objects, holes, undefined, NaN, 2^53, deep nesting, huge
// strings). The property is schema-fast-agree.ts's; the files and shapes are in schema-fast.test.ts.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { agree, CHECKS, deep, GRAPHS, isChecksFile, KEYS, NODE_FIELDS, NODES, POOL, read, RUNS, SHIPPED } from "./schema-fast-agree.ts";

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
