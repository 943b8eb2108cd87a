// bench/run.ts refuses to write bench/results.md from a run too noisy to compare
// (issue 20: "refuses to write results when the machine is too busy").
import { describe, expect, test } from "vitest";
import { forkCostMs, MAX_SPREAD, spreadOf, tooSpread } from "../../bench/lib/comparable.ts";

describe("benchmark comparability", () => {
  test("a ratio whose repetitions spread over 20% of its median is named; a tight one is not", () => {
    const tight = { median: 2, min: 1.9, max: 2.2, n: 5 };
    const loose = { median: 2, min: 1.5, max: 2.6, n: 5 };
    expect(spreadOf(tight)).toBeCloseTo(0.15);
    expect(tooSpread({ tight, loose })).toEqual([{ measure: "loose", spread: 0.55 }]);
    expect(tooSpread({ tight })).toEqual([]);
    expect(MAX_SPREAD).toBe(0.2);
  });

  test("worst first; the fork cost is xargs' time per process", () => {
    const a = { median: 1, min: 0.7, max: 1.3, n: 5 };
    const b = { median: 1, min: 0.5, max: 1.5, n: 5 };
    expect(tooSpread({ a, b }).map((x) => x.measure)).toEqual(["b", "a"]);
    expect(forkCostMs({ median: 250, min: 240, max: 260, n: 5 }, 500)).toEqual({ median: 0.5, min: 0.48, max: 0.52, n: 5 });
  });
});
