// "Did you mean" is bounded (issue 29): a graph of N nodes each needing an unknown
// node cost N edit distances per unknown name (N² in all: 85.7 s at 8,000 nodes).
// These tests count edit distances, never time: the work per unknown name must not
// grow with the graph, and the suggestions of a hand-written graph are unchanged.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { checkAnswer } from "../../src/cli/plan/answer.ts";
import {
  comparisonCount,
  EXHAUSTIVE_UP_TO,
  editDistance,
  MAX_COMPARISONS,
  Suggester,
  suggest,
} from "../../src/engine/graph/did-you-mean.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";

/** N end nodes n0..n(N-1), node i needing the unknown x<i>. */
function unknownNeeds(n: number): string {
  const lines = ["version: 1", "name: big", "nodes:"];
  for (let i = 0; i < n; i++) lines.push(`  n${i}: { kind: end, status: success, needs: [x${i}] }`);
  return `${lines.join("\n")}\n`;
}

/** Edit distances one call makes. */
function counted<T>(f: () => T): { value: T; comparisons: number } {
  const before = comparisonCount();
  const value = f();
  return { value, comparisons: comparisonCount() - before };
}

/** The exhaustive search every set had before: the reference for small sets. */
function reference(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > 64) return undefined;
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    if (c.toLowerCase() === lower) return c;
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  const limit = Math.max(1, Math.round(word.length * 0.4));
  return bestDistance <= limit && bestDistance < word.length ? best : undefined;
}

describe("validation of N nodes each needing an unknown node", () => {
  test("a generated 8,000-node graph validates, every problem with its suggestion, in a bounded number of comparisons per unknown name", () => {
    const n = 8000;
    const { value, comparisons } = counted(() => loadGraph("big.yaml", unknownNeeds(n)));
    expect(value.graph).toBeNull();
    expect(value.problems).toHaveLength(n);
    expect(value.problems[0]!.message).toBe('unknown node "x0" in needs (did you mean n0?)');
    expect(value.problems[n - 1]!.message).toBe(`unknown node "x${n - 1}" in needs (did you mean n${n - 1}?)`);
    // Before: n comparisons per unknown name (64,000,000 here).
    expect(comparisons / n).toBeLessThanOrEqual(2 * MAX_COMPARISONS);
  });

  test("the comparisons per unknown name do not grow with the graph (1,000 → 4,000 nodes)", () => {
    const per = [1000, 4000].map((n) => counted(() => loadGraph("big.yaml", unknownNeeds(n))).comparisons / n);
    expect(per[1]!).toBeLessThanOrEqual(per[0]! * 1.1 + 1);
  });

  test("the same unknown name needed by every node is compared once, not once per node", () => {
    const lines = ["version: 1", "name: big", "nodes:"];
    for (let i = 0; i < 2000; i++) lines.push(`  n${i}: { kind: end, status: success, needs: [nothere] }`);
    const { value, comparisons } = counted(() => loadGraph("big.yaml", `${lines.join("\n")}\n`));
    expect(value.problems).toHaveLength(2000);
    expect(comparisons).toBeLessThanOrEqual(2 * MAX_COMPARISONS);
  });

  test("vouch plan's check of such an answer shares the bound (it used to hang)", () => {
    const read = (p: string) => (p === "/p/vouch.checks.yaml" ? { text: "checks:\n  tests: { run: ./t }\n" } : { error: "no such file" });
    const n = 8000;
    const { value, comparisons } = counted(() => checkAnswer(unknownNeeds(n), "/p/plan.yaml", ["/p/vouch.checks.yaml"], read));
    expect(value.loaded.graph).toBeNull();
    expect(value.loaded.problems.some((p) => p.message.includes('unknown node "x7999" in needs (did you mean n7999?)'))).toBe(true);
    expect(comparisons / n).toBeLessThanOrEqual(2 * MAX_COMPARISONS);
  });
});

describe("Suggester", () => {
  test("property: on a set a person writes (up to EXHAUSTIVE_UP_TO names) it answers exactly as the exhaustive search", () => {
    const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_-]{0,11}$/);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), name, (candidates, word) => {
        expect(new Suggester(candidates).suggest(word)).toBe(reference(word, candidates));
        expect(suggest(word, candidates)).toBe(reference(word, candidates));
      }),
    );
  });

  test("a large set still finds a one-edit typo, a case-only difference and a near-length two-edit typo", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `node_${i}`);
    ids.push("build_frontend", "Deploy");
    expect(ids.length).toBeGreaterThan(EXHAUSTIVE_UP_TO);
    const s = new Suggester(ids);
    expect(s.suggest("node_4321x")).toBe("node_4321"); // insertion
    expect(s.suggest("nod_4321")).toBe("node_4321"); // deletion
    expect(s.suggest("noed_4321")).toBe("node_4321"); // swap
    expect(s.suggest("deploy")).toBe("Deploy");
    expect(s.suggest("biuld_frontedn")).toBe("build_frontend");
    expect(s.suggest("zzzzzzzzzzzzzzzzzzzz")).toBeUndefined();
  });

  test("hostile names: __proto__, a leading dash, 1,000 characters", () => {
    const ids = ["__proto__", "-rf", "constructor", ...Array.from({ length: 400 }, (_, i) => `n${i}`)];
    const s = new Suggester(ids);
    expect(s.suggest("__proto_")).toBe("__proto__");
    expect(s.suggest("-rff")).toBe("-rf");
    const { value, comparisons } = counted(() => s.suggest("x".repeat(1000)));
    expect(value).toBeUndefined();
    expect(comparisons).toBe(0);
  });

  test("a word asked twice is compared once", () => {
    const s = new Suggester(Array.from({ length: 1000 }, (_, i) => `n${i}`));
    const first = counted(() => s.suggest("qqq"));
    const again = counted(() => s.suggest("qqq"));
    expect(first.comparisons).toBeGreaterThan(0);
    expect(first.comparisons).toBeLessThanOrEqual(2 * MAX_COMPARISONS);
    expect(again.comparisons).toBe(0);
  });
});
