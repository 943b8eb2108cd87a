// The four verbatim Claude Code results in test/fixtures/claude-reference
// parse to the right stop reason, turns, cost and tokens (cache fields included).
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createClaudeParser } from "../../src/spawn/harness/claude/stream.ts";
import { overruns } from "../../src/engine/caps.ts";
import { CLAUDE_REFERENCE, parseAll } from "./helpers.ts";

const parse = (name: string, exit: number) => parseAll(createClaudeParser(), readFileSync(join(CLAUDE_REFERENCE, name), "utf8"), { exit });

describe("Claude Code reference results (pretty-printed single objects)", () => {
  test("success.json: complete, 1 turn, cost and tokens from usage with cache creation", () => {
    const { sitting } = parse("success.json", 0);
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.resultText).toBe("ok");
    expect(sitting.turns).toBe(1);
    expect(sitting.costUsd).toBe(0.010922250000000001);
    expect(sitting.tokens).toEqual({ input: 2, output: 4, cache_read: 0, cache_creation: 1637 });
    expect(sitting.sessionId).toBe("4006eaf7-f396-4b7b-9c0d-b2512fc1baf8");
    expect(sitting.error).toBeUndefined();
  });

  test("turns.json (exit 1): a turns stop, not a crash; 2 turns against --max-turns 1 is an overrun of 2 vs 1", () => {
    const { sitting } = parse("turns.json", 1);
    expect(sitting.stopReason).toBe("turns");
    expect(sitting.turns).toBe(2);
    expect(sitting.costUsd).toBe(0.0047227499999999995);
    expect(sitting.tokens).toEqual({ input: 2, output: 86, cache_read: 1455, cache_creation: 197 });
    expect(sitting.error).toContain("Reached maximum number of turns (1)");
    expect(overruns({ turns: 1 }, { turns: sitting.turns })).toEqual([{ cap: "turns", limit: 1, actual: 2 }]);
  });

  test("budget.json (exit 1): a budget stop with cost 0.00472475 and zero tokens (usage is zeroed)", () => {
    const { sitting } = parse("budget.json", 1);
    expect(sitting.stopReason).toBe("budget");
    expect(sitting.costUsd).toBe(0.00472475);
    expect(sitting.tokens).toEqual({ input: 0, output: 0, cache_read: 0, cache_creation: 0 });
    expect(sitting.turns).toBe(1);
    expect(overruns({ budgetUsd: 0.001 }, { costUsd: sitting.costUsd })).toEqual([{ cap: "budget_usd", limit: 0.001, actual: 0.00472475 }]);
  });

  test("success-5-turns.json (one line): 5 turns, most input tokens are cache reads", () => {
    const { sitting } = parse("success-5-turns.json", 0);
    expect(sitting.stopReason).toBe("complete");
    expect(sitting.turns).toBe(5);
    expect(sitting.costUsd).toBe(0.36896149999999994);
    expect(sitting.tokens).toEqual({ input: 8, output: 2440, cache_read: 130283, cache_creation: 24278 });
    const t = sitting.tokens!;
    // A sum without the cache fields would be wrong by orders of magnitude.
    expect(t.input + t.cache_read + t.cache_creation).toBeGreaterThan(100 * t.input);
    expect(sitting.resultText.startsWith("`omg-probe-standalone-html`")).toBe(true);
  });

  test("the exit code does not decide: success.json with exit 1 is still complete, turns.json with exit 0 still a turns stop", () => {
    expect(parse("success.json", 1).sitting.stopReason).toBe("complete");
    expect(parse("turns.json", 0).sitting.stopReason).toBe("turns");
  });
});
