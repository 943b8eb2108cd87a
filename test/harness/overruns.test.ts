import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { overruns } from "../../src/engine/caps.ts";
import { backstopBreach, DEFAULT_BACKSTOP } from "../../src/spawn/harness/overruns.ts";
import { CLAUDE_GUARANTEES } from "../../src/spawn/harness/claude/adapter.ts";
import { CODEX_GUARANTEES } from "../../src/spawn/harness/codex/adapter.ts";
import { REPLAY_GUARANTEES } from "../../src/spawn/harness/replay/adapter.ts";

describe("overruns (src/engine/caps.ts, what the engine reports as cap.overrun)", () => {
  test("actual > limit, per cap, in order; equal is not an overrun; unknown is never one", () => {
    expect(
      overruns({ turns: 1, budgetUsd: 0.001, wallMs: 1000, idleMs: 500 }, { turns: 2, costUsd: 0.00472475, wallMs: 1000, idleMs: 900 }),
    ).toEqual([
      { cap: "turns", limit: 1, actual: 2 },
      { cap: "budget_usd", limit: 0.001, actual: 0.00472475 },
      { cap: "idle", limit: 500, actual: 900 },
    ]);
    expect(overruns({ budgetUsd: 0.001 }, { costUsd: null })).toEqual([]);
    expect(overruns({}, { turns: 99 })).toEqual([]);
  });

  test("property: an overrun is reported exactly when actual > limit", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 2000 }), (limit, actual) => {
        const found = overruns({ turns: limit }, { turns: actual });
        expect(found.length === 1).toBe(actual > limit);
      }),
    );
  });
});

describe("backstopBreach", () => {
  test("native cap: kills only past limit + margin", () => {
    expect(backstopBreach({ turns: 5 }, { turns: 7 }, CLAUDE_GUARANTEES, DEFAULT_BACKSTOP)).toBeNull();
    expect(backstopBreach({ turns: 5 }, { turns: 8 }, CLAUDE_GUARANTEES, DEFAULT_BACKSTOP)).toEqual({
      cap: "turns",
      limit: 5,
      actual: 8,
      threshold: 7,
    });
    expect(backstopBreach({ budgetUsd: 1 }, { costUsd: 1.25 }, CLAUDE_GUARANTEES, DEFAULT_BACKSTOP)).toBeNull();
    expect(backstopBreach({ budgetUsd: 1 }, { costUsd: 1.26 }, CLAUDE_GUARANTEES, DEFAULT_BACKSTOP)?.cap).toBe("budget_usd");
  });

  test("native cap with the backstop off: never kills", () => {
    expect(backstopBreach({ turns: 1 }, { turns: 1000 }, CLAUDE_GUARANTEES, null)).toBeNull();
  });

  test("supervised cap: the engine is the keeper, no margin (and the backstop switch does not turn it off)", () => {
    expect(backstopBreach({ turns: 1 }, { turns: 1 }, CODEX_GUARANTEES, DEFAULT_BACKSTOP)).toBeNull();
    expect(backstopBreach({ turns: 1 }, { turns: 2 }, CODEX_GUARANTEES, null)).toEqual({ cap: "turns", limit: 1, actual: 2, threshold: 1 });
  });

  test("observed caps never kill; unknown progress never kills", () => {
    expect(backstopBreach({ turns: 1 }, { turns: 50 }, REPLAY_GUARANTEES, DEFAULT_BACKSTOP)).toBeNull();
    expect(backstopBreach({ budgetUsd: 1 }, {}, CLAUDE_GUARANTEES, DEFAULT_BACKSTOP)).toBeNull();
  });
});
