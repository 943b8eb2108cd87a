// The fast graph check (ADR 0083) gives zod's answer or none: whenever it is sure, zod's
// graph schema accepts the same value and gives the same output (durations in ms, the same
// keys in the same order, the same references for free-form values); when it is unsure,
// the loader asks zod, so both paths accept and refuse exactly the same graphs. Held here
// over the shipped graphs and checks file (each must be read fast, so the speed claim is
// tested), the bad-graph and valid corpora, sweeps of every field with boundary values, and
// named shapes; schema-fast-generated.test.ts holds it over generated graphs.
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agree, GRAPH, CHECKS, CORPUS, deep, GRAPHS, isChecksFile, KEYS, POOL, read, ROOT, SHIPPED } from "./schema-fast-agree.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { zodGraph } from "../../src/engine/graph/graph-zod.ts";

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
