// The run budget and a sitting that stopped by itself (issue 13 item 1), with
// the stub claude as a real process: what is left of the run reaches claude's
// --max-budget-usd, and a run stop caused by the sitting's own final report
// (its cost crossed the run budget) does not replace claude's stop with a kill.
import { describe, expect, test } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import type { AgentAssignment, SittingProgress } from "../../src/engine/ports.ts";
import { STUBS } from "./helpers.ts";

const PATH = `${STUBS}:${process.env.PATH}`;
const STUB_VARS = ["STUB_SCENARIO", "STUB_TURNS", "STUB_TURN_MS", "STUB_TURN_COST", "STUB_LINGER"];
const assignment = (p: Partial<AgentAssignment>): AgentAssignment => ({
  runId: "r",
  node: "n",
  attempt: 1,
  harness: "claude",
  prompt: "do it",
  cwd: mkdtempSync(join(tmpdir(), "vouch-runbudget-")),
  passEnv: STUB_VARS,
  caps: {},
  output: { format: "text" },
  ...p,
});

describe("the run budget and claude", () => {
  test("a node without budget_usd gets what is left of the run as --max-budget-usd", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH } });
    const s = await runner.run(assignment({ runBudgetLeftUsd: 0.3 }), { signal: new AbortController().signal, onProgress: () => {} });
    expect(s.stopReason).toBe("complete");
    expect(JSON.parse(s.resultText).maxBudgetUsd).toBe(0.3);
  });

  test("the run stopping on the sitting's own final report keeps claude's budget stop (not cancelled)", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_TURNS: "5", STUB_TURN_COST: "0.01", STUB_TURN_MS: "5" } });
    const run = new AbortController();
    // Like the engine: the result's cost crosses the run budget, so the run stops at once.
    const onProgress = (p: SittingProgress) => {
      if (p.costUsd !== undefined) run.abort(new Error("run stopped: budget"));
    };
    const s = await runner.run(assignment({ runBudgetLeftUsd: 0.015 }), { signal: run.signal, onProgress });
    expect(run.signal.aborted).toBe(true);
    expect(s.stopReason).toBe("budget");
    expect(s.error).toContain("Reached maximum budget");
    // It exited by itself (exit 1, claude's status for a cap stop), not by a signal.
    expect(s.exitCode).toBe(1);
    expect(s.costUsd).toBeCloseTo(0.02, 9);
  });

  // ADR 0012: a sitting that reported gets a grace to exit; one that stays up is
  // then killed, and its reported stop still stands (not cancelled).
  test("a sitting that reported and then stays up is killed after the grace; its own stop stands", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_LINGER: "1" }, reportedExitGraceMs: 50, graceMs: 50 });
    const run = new AbortController();
    const onProgress = (p: SittingProgress) => {
      if (p.costUsd !== undefined) run.abort(new Error("run stopped: budget"));
    };
    const s = await runner.run(assignment({}), { signal: run.signal, onProgress });
    expect(run.signal.aborted).toBe(true);
    // Killed (it would have stayed up 30 s), yet judged by its report.
    expect(s.exitCode).not.toBe(0);
    expect(s.stopReason).toBe("complete");
    expect(s.error).toBeUndefined();
  });

  test("a cancel before the final report still kills at once (cancelled)", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_TURNS: "50", STUB_TURN_MS: "20" } });
    const run = new AbortController();
    const onProgress = (p: SittingProgress) => {
      if ((p.turns ?? 0) >= 2) run.abort(new Error("cancelled"));
    };
    const s = await runner.run(assignment({}), { signal: run.signal, onProgress });
    expect(s.stopReason).toBe("cancelled");
  });
});
