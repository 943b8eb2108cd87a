// The parser on outputs the real claude 2.1.332 printed against the contract
// suite's fake server (test/fixtures/claude-real/, recorded and kept current
// by test/contract/claude-fixtures.test.ts). Fast: no CLI runs here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { createClaudeParser } from "../../src/spawn/harness/claude/stream.ts";
import { overruns } from "../../src/engine/caps.ts";
import { budgetToKeep } from "../../src/spawn/harness/common/argv-format.ts";
import { buildClaudeCommand, CLAUDE_PERMISSION_MODES } from "../../src/spawn/harness/claude/adapter.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";
import { budgetShortfall } from "../../src/engine/run/agent-node.ts";
import { ROOT, parseAll } from "./helpers.ts";

const real = (name: string) => readFileSync(join(ROOT, "test", "fixtures", "claude-real", `${name}.jsonl`), "utf8");
const parse = (name: string) => parseAll(createClaudeParser(), real(name));

describe("real claude output", () => {
  test("success: complete, one turn, claude's cost, no retries", () => {
    const { sitting } = parse("success");
    expect(sitting).toMatchObject({ stopReason: "complete", resultText: "Hello there.", turns: 1 });
    expect(sitting.costUsd).toBeCloseTo(0.000111, 9);
    expect(sitting.apiRetries).toBeUndefined();
  });

  test("a turns stop at --max-turns 2: turns = the 2 responses (claude says num_turns 3), no overrun", () => {
    const text = real("max-turns");
    expect(text).toContain('"num_turns":3');
    const { sitting, progress } = parse("max-turns");
    expect(sitting).toMatchObject({ stopReason: "turns", turns: 2 });
    expect(progress.map((p) => p.turns)).toEqual([1, 1, 2, 2, 2]);
    expect(overruns({ turns: 2 }, { turns: sitting.turns })).toEqual([]);
    // One fewer allowed and it is an overrun of what was really consumed.
    expect(overruns({ turns: 1 }, { turns: sitting.turns })).toEqual([{ cap: "turns", limit: 1, actual: 2 }]);
  });

  test("a budget stop: budget, the whole cost reported (an overrun), one turn", () => {
    const { sitting } = parse("max-budget");
    expect(sitting).toMatchObject({ stopReason: "budget", turns: 1 });
    expect(sitting.costUsd).toBeCloseTo(7.5, 9);
    expect(sitting.error).toContain("Reached maximum budget");
  });

  test("429 after claude's retries: rate_limited (issue 16), every retry counted and shown, the synthetic message is no turn", () => {
    const { sitting, progress } = parse("api-429");
    expect(sitting).toMatchObject({ stopReason: "rate_limited", turns: 0, costUsd: 0, apiRetries: 2 });
    expect(sitting.error).toContain("Request rejected (429)");
    expect(sitting.resetsAt).toBeUndefined();
    // Each api_retry line raises the count and names the retry (later progress repeats the last one).
    const raised = progress.filter((p, i) => (p.apiRetries ?? 0) > (progress[i - 1]?.apiRetries ?? 0));
    expect(raised.map((p) => p.activity)).toEqual(["API retry 1/2, 429", "API retry 2/2, 429"]);
  });

  test("a stream cut mid-message: crashed with claude's connection error, no turn", () => {
    const { sitting } = parse("disconnect");
    expect(sitting).toMatchObject({ stopReason: "crashed", turns: 0 });
    expect(sitting.error).toMatch(/Connection dropped/);
  });

  // claude's --max-turns caps the main conversation; a sub-agent's responses
  // (parent_tool_use_id set) are not under it, so counting them against the cap
  // invented an overrun (turns 4 > 3 here, though the main one made 3).
  test("a sub-agent's responses are not turns of the sitting: only the main conversation's count", () => {
    const text = real("subagent");
    expect(text).toMatch(/"parent_tool_use_id":"toolu_/);
    const { sitting, progress } = parse("subagent");
    expect(sitting).toMatchObject({ stopReason: "complete", turns: 3 });
    expect(Math.max(...progress.map((p) => p.turns ?? 0))).toBe(3);
    expect(overruns({ turns: 3 }, { turns: sitting.turns })).toEqual([]);
  });

  test("a lone result object (no assistant lines to count) still takes num_turns", () => {
    const result = real("max-turns")
      .split("\n")
      .find((l) => l.includes('"type":"result"'))!;
    expect(parseAll(createClaudeParser(), result).sitting.turns).toBe(3);
  });
});

describe("the budget claude is given", () => {
  const a = (p: Partial<AgentAssignment>): AgentAssignment => ({
    runId: "r",
    node: "n",
    attempt: 1,
    harness: "claude",
    prompt: "p",
    cwd: "/tmp",
    passEnv: [],
    caps: {},
    output: { format: "text" },
    ...p,
  });
  const flag = (cmd: { argv: string[] }) => {
    const i = cmd.argv.indexOf("--max-budget-usd");
    return i < 0 ? undefined : cmd.argv[i + 1];
  };

  test("the node's cap, what is left of the run, or the smaller of both", () => {
    expect(flag(buildClaudeCommand(a({})))).toBeUndefined();
    expect(flag(buildClaudeCommand(a({ caps: { budgetUsd: 0.25 } })))).toBe("0.25");
    expect(flag(buildClaudeCommand(a({ runBudgetLeftUsd: 0.5 })))).toBe("0.5");
    expect(flag(buildClaudeCommand(a({ caps: { budgetUsd: 2 }, runBudgetLeftUsd: 0.2 })))).toBe("0.2");
    expect(flag(buildClaudeCommand(a({ caps: { budgetUsd: 0.1 }, runBudgetLeftUsd: 0.2 })))).toBe("0.1");
  });

  test("property: never more than either limit, never negative, never exponent form", () => {
    const money = fc.double({ min: 1e-9, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(
        fc.option(money, { nil: undefined }),
        fc.option(fc.double({ min: -10, max: 1e6, noNaN: true }), { nil: undefined }),
        (cap, left) => {
          const b = budgetToKeep({
            caps: cap === undefined ? {} : { budgetUsd: cap },
            ...(left === undefined ? {} : { runBudgetLeftUsd: left }),
          });
          if (cap === undefined && left === undefined) return b === undefined;
          if (b === undefined) return false;
          return b >= 0 && (cap === undefined || b <= cap) && (left === undefined || b <= Math.max(0, left));
        },
      ),
    );
  });

  test("a node does not start when nothing is left, or less than its own cap", () => {
    expect(budgetShortfall(null, undefined)).toBeNull();
    expect(budgetShortfall(0.2, undefined)).toBeNull();
    expect(budgetShortfall(0, undefined)).toContain("nothing is left of the run budget");
    expect(budgetShortfall(0.2, 0.5)).toContain("less than this node's budget_usd cap of $0.5");
    expect(budgetShortfall(0.5, 0.5)).toBeNull();
  });

  // A run budget of $1 spent as 0.5 + 0.2 + 0.2 + 0.1 leaves 1.1e-16 in floating
  // point: no money, and a budget claude would be handed as "0" (it refuses
  // `--max-budget-usd 0`, so the node would crash instead of not starting).
  test("a run budget spent to the cent leaves nothing for the next node (floating-point residue is not money)", () => {
    const left = 1 - (0.5 + 0.2 + 0.2 + 0.1);
    expect(left).toBeGreaterThan(0);
    expect(budgetShortfall(left, undefined)).toContain("nothing is left of the run budget");
  });

  test("property: a node that may start is never handed a budget claude refuses (0 or below)", () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1e6, noNaN: true }), (left) => {
        if (budgetShortfall(left, undefined) !== null) return true;
        return Number(flag(buildClaudeCommand(a({ runBudgetLeftUsd: left })))) > 0;
      }),
    );
  });

  test("claude's permission modes include auto and manual (the pinned claude's list)", () => {
    expect([...CLAUDE_PERMISSION_MODES].sort()).toEqual([
      "acceptEdits",
      "auto",
      "bypassPermissions",
      "default",
      "dontAsk",
      "manual",
      "plan",
    ]);
  });
});
