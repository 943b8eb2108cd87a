// Which run-wide limit wins (ADR 0002): the command line's --concurrency,
// --budget and --wall, else the graph's, else the defaults.
import { describe, expect, test } from "vitest";
import { runLimits } from "../../src/engine/run/plan.ts";
import type { RunOptions } from "../../src/engine/run/types.ts";

const options = (graph: Record<string, unknown>, flags: Partial<RunOptions> = {}) => ({ graph, ...flags }) as unknown as RunOptions;

describe("run limits", () => {
  test("the flags win over the graph, the graph over the defaults", () => {
    const graph = { concurrency: 1, caps: { budget_usd: 5, wall: 60_000 } };
    expect(runLimits(options(graph, { concurrency: 3, budgetUsd: 9, wallMs: 1000 }))).toEqual({
      concurrency: 3,
      budgetUsd: 9,
      wallMs: 1000,
    });
    expect(runLimits(options(graph))).toEqual({ concurrency: 1, budgetUsd: 5, wallMs: 60_000 });
    expect(runLimits(options({}))).toEqual({ concurrency: 4, budgetUsd: null, wallMs: null });
  });
});
