// Validation is linear in the keys of one mapping (issue 12, item 11). No clock:
// the test counts reads of a mapping entry's key (Pair.key, through an accessor
// installed on the yaml library's Pair class). A duplicate-key check or a
// position lookup that compares each key with every other one reads keys n²/2
// times; a linear loader reads each a bounded number of times. Times are in
// bench/validate-growth.ts.
import { Pair } from "yaml";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";

// The yaml library's path is the one counted: a valid file would otherwise be read by
// Bun's reader (ADR 0074), which reads no Pair at all.
vi.mock("../../src/engine/graph/yaml-fast.ts", () => ({ fastYamlValue: () => null }));

let reads = 0;
const own = new WeakMap<object, unknown>();
beforeAll(() => {
  // Pair's constructor assigns this.key: with an accessor on the prototype the
  // assignment goes through it, so every later read is counted.
  Object.defineProperty(Pair.prototype, "key", {
    configurable: true,
    get(this: object) {
      reads++;
      return own.get(this);
    },
    set(this: object, v: unknown) {
      own.set(this, v);
    },
  });
});
afterAll(() => {
  delete (Pair.prototype as { key?: unknown }).key;
});

function keyReads(text: string): number {
  reads = 0;
  loadGraph("big.yaml", text);
  return reads;
}

const head = "version: 1\nname: big\n";
const end = "nodes:\n  a: { kind: end, status: success }\n";
const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("");
const shapes: Record<string, (n: number) => string> = {
  "inputs with defaults (valid)": (n) => `${head}inputs:\n${lines(n, (i) => `  k${i}: { default: v }\n`)}${end}`,
  "unknown fields in one node (one problem each)": (n) =>
    `${head}nodes:\n  a:\n    kind: end\n    status: success\n${lines(n, (i) => `    k${i}: 1\n`)}`,
  "a schema's properties (valid)": (n) =>
    `${head}nodes:\n  a:\n    kind: script\n    run: "true"\n    output:\n      format: json\n      schema:\n        properties:\n${lines(n, (i) => `          k${i}: { type: string }\n`)}`,
  "repeated keys (a duplicate-key problem each)": (n) => `${head}${end}inputs:\n${lines(n, (i) => `  k${i % 50}: {}\n`)}`,
};

describe("key reads grow linearly with the keys of one mapping", () => {
  for (const [name, make] of Object.entries(shapes)) {
    test(name, () => {
      const small = keyReads(make(500));
      const large = keyReads(make(2000));
      // Linear: 4x the keys, about 4x the reads. Quadratic would be 16x (and the
      // old loader read keys ~500,000 times for 1,000 of them).
      expect(large / small).toBeLessThan(5);
      expect(large).toBeLessThan(2000 * 40);
    });
  }
});
