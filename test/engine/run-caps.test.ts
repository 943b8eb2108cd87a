// Checks as evidence; caps per node and per run; ERROR is never FAIL.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run, runFinished } from "./helpers/run-helper.ts";
import { byNode, FakeAgentRunner, FakeCommandRunner, untilAborted } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";

describe("checks", () => {
  test("a check failure gives FAIL with every failed check attached; all checks run", async () => {
    const commands = new FakeCommandRunner((spec) => {
      if (spec.name === "tests") return { passed: false, exit: 1, stdoutTail: "FAIL auth.test.ts", durationMs: 900 };
      if (spec.name === "lint") return { passed: false, exit: null, signal: "SIGKILL", timedOut: true, stderrTail: "still linting" };
      return {};
    });
    const r = await run(
      `
version: 1
name: t
checks:
  tests: { run: "bun test", timeout: 5m }
  fmt: { run: "gofmt -l .", expect: empty_output }
nodes:
  fix:
    kind: agent
    prompt: "Fix the bug."
    success:
      result_matches: "^DONE"
      checks: [tests, { name: lint, run: "bun run lint", timeout: 3m }, fmt]
`,
      { commands, agents: () => ({ resultText: "DONE, all fixed" }) },
    );
    expect(commands.checks.map((c) => [c.spec.name, c.spec.timeoutMs, c.spec.expect])).toEqual([
      ["tests", 300_000, "exit_zero"],
      ["lint", 180_000, "exit_zero"],
      ["fmt", 120_000, "empty_output"],
    ]);
    const checks = ofType(r.events, "check.finished");
    expect(checks.map((c) => [c.name, c.passed, c.timed_out])).toEqual([
      ["tests", false, false],
      ["lint", false, true],
      ["fmt", true, false],
    ]);
    expect(checks[0]).toMatchObject({ node: "fix", attempt: 1, exit: 1, stdout_tail: "FAIL auth.test.ts", duration_ms: 900 });
    const fix = finishedOf(r.events, "fix");
    expect(fix).toMatchObject({ status: "failed", cause: "check_failed", qualifier: null });
    expect(fix.error).toBe("2 of 3 checks failed: tests (exit 1), lint (timed out)");
    expect(fix.evidence!.map((e) => [e.part, e.outcome])).toEqual([
      ["exit_zero", "passed"],
      ["output", "not_applicable"],
      ["result_matches", "passed"],
      ["checks", "failed"],
    ]);
    expect(r.outcome).toMatchObject({ status: "failed", exitCode: 1 });
  });

  test("checks passing → verified; the model's own words alone → self-reported", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  a: { kind: agent, prompt: "a", success: { result_matches: "^PASS", checks: [{ name: t, run: "true" }] } }
  b: { kind: agent, prompt: "b", success: { result_matches: "^PASS" } }
`,
      { agents: () => ({ resultText: "PASS" }) },
    );
    expect(finishedOf(r.events, "a").qualifier).toBe("verified");
    expect(finishedOf(r.events, "b").qualifier).toBe("self-reported");
  });

  test("checks do not run when an earlier part failed (reported not_checked)", async () => {
    const commands = new FakeCommandRunner();
    const r = await run(
      `
version: 1
name: t
nodes:
  a: { kind: agent, prompt: "a", output: { format: json }, success: { checks: [{ name: t, run: "true" }] } }
`,
      { commands, agents: () => ({ resultText: "not json" }) },
    );
    expect(commands.checks).toHaveLength(0);
    expect(finishedOf(r.events, "a").evidence!.find((e) => e.part === "checks")!.outcome).toBe("not_checked");
  });
});

describe("caps", () => {
  test("ERROR (cap stop) is never reported as FAIL; the overrun is an event with limit and actual", async () => {
    const r = await run(
      `
version: 1
name: t
defaults: { caps: { turns: 12, budget_usd: 0.5 } }
nodes:
  a: { kind: agent, prompt: "a", caps: { turns: 1 } }
`,
      { agents: () => ({ stopReason: "turns", turns: 2, costUsd: 0.03, exitCode: 1, resultText: "" }) },
    );
    const a = finishedOf(r.events, "a");
    expect(a).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns" });
    expect(a.status).not.toBe("failed");
    expect(ofType(r.events, "cap.overrun")).toEqual([
      expect.objectContaining({ scope: "node", node: "a", attempt: 1, cap: "turns", limit: 1, actual: 2 }),
    ]);
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3 });
    expect(r.agents.assignments[0]!.caps).toEqual({ turns: 1, budgetUsd: 0.5, wallMs: 3_600_000, idleMs: 900_000 });
  });

  test("a cap stop is not retried unless cap_stop is named", async () => {
    const agents = () => new FakeAgentRunner(() => ({ stopReason: "budget", costUsd: 0.6 }));
    const plain = await run(
      `version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: a, caps: { budget_usd: 0.5 }, retry: { max: 2 } }\n`,
      { agents: agents() },
    );
    expect(plain.agents.assignments).toHaveLength(1);
    const named = await run(
      `version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: a, caps: { budget_usd: 0.5 }, retry: { max: 2, on: [cap_stop] } }\n`,
      { agents: agents() },
    );
    expect(named.agents.assignments).toHaveLength(3);
    // once per cap per attempt
    expect(ofType(named.events, "cap.overrun").map((e) => [e.attempt, e.cap])).toEqual([
      [1, "budget_usd"],
      [2, "budget_usd"],
      [3, "budget_usd"],
    ]);
  });

  test("live overruns come from node.progress, once per cap per attempt", async () => {
    const r = await run(`version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: a, caps: { turns: 2 } }\n`, {
      agents: (_a, hooks) => {
        for (let t = 1; t <= 4; t++) hooks.onProgress({ turns: t, activity: `turn ${t}` });
        return { turns: 4 };
      },
    });
    expect(ofType(r.events, "node.progress").map((e) => e.turns)).toEqual([1, 2, 3, 4]);
    expect(ofType(r.events, "cap.overrun")).toHaveLength(1);
    const overrunSeq = ofType(r.events, "cap.overrun")[0]!.seq;
    const thirdTurn = ofType(r.events, "node.progress")[2]!.seq;
    expect(overrunSeq).toBe(thirdTurn + 1); // noticed live, right after turn 3
  });

  test("the run budget stops the run: in-flight work is cancelled, the run ends error with reason budget", async () => {
    const clock = new FakeClock();
    const agents = new FakeAgentRunner(async (a, hooks) => {
      if (a.node === "spender") {
        await clock.sleep(1000); // `waiter` is live by then
        hooks.onProgress({ costUsd: 0.4 });
        hooks.onProgress({ costUsd: 1.3 });
        return { costUsd: 1.3 };
      }
      return untilAborted(hooks.signal);
    });
    const r = await run(
      `
version: 1
name: t
caps: { budget_usd: 1 }
nodes:
  spender: { kind: agent, prompt: s }
  waiter: { kind: agent, prompt: w }
  later: { kind: agent, prompt: l, needs: [spender] }
`,
      { agents, clock },
    );
    const overrun = ofType(r.events, "cap.overrun").find((e) => e.scope === "run")!;
    expect(overrun).toMatchObject({ cap: "budget_usd", limit: 1, actual: 1.3 });
    expect(agents.aborted).toContain("waiter");
    expect(finishedOf(r.events, "waiter")).toMatchObject({ status: "error", cause: "run_budget" });
    expect(finishedOf(r.events, "later")).toMatchObject({ status: "cancelled", attempt: 0 });
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3, reason: "budget" });
    expect(runFinished(r.events)).toMatchObject({ status: "error", reason: "budget", cost_usd: 1.31 }); // the cancelled sitting cost 0.01 too
    expect(r.agents.assignments.map((a) => a.node)).not.toContain("later");
  });

  test("a node whose own budget exceeds what the run has left is not started (budget_insufficient)", async () => {
    const r = await run(
      `
version: 1
name: t
caps: { budget_usd: 1 }
nodes:
  first: { kind: agent, prompt: f }
  big: { kind: agent, prompt: b, needs: [first], caps: { budget_usd: 0.5 } }
  small: { kind: agent, prompt: s, needs: [first], caps: { budget_usd: 0.2 } }
`,
      { agents: byNode({ first: [{ costUsd: 0.7 }] }, () => ({ costUsd: 0.1 })) },
    );
    expect(finishedOf(r.events, "big")).toMatchObject({ status: "error", cause: "budget_insufficient", attempt: 0 });
    expect(finishedOf(r.events, "big").error).toContain("less than this node's budget_usd cap of $0.5");
    expect(ofType(r.events, "node.started").map((e) => e.node)).not.toContain("big");
    expect(finishedOf(r.events, "small").status).toBe("passed");
    expect(r.outcome.status).toBe("error");
  });

  test("the run wall stops the run (virtual time): cap.overrun scope run, reason wall, exit 3", async () => {
    const clock = new FakeClock();
    const agents = new FakeAgentRunner(async (_a, hooks) => {
      await clock.sleep(60_000, hooks.signal).catch(() => {});
      return hooks.signal.aborted ? untilAborted(hooks.signal) : {};
    });
    const r = await run(
      `version: 1\nname: t\ncaps: { wall: 10s }\nnodes:\n  a: { kind: agent, prompt: a }\n  b: { kind: agent, prompt: b, needs: [a] }\n`,
      { agents, clock },
    );
    expect(ofType(r.events, "cap.overrun")).toEqual([
      expect.objectContaining({ scope: "run", cap: "wall", limit: 10_000, actual: 10_000 }),
    ]);
    expect(finishedOf(r.events, "a")).toMatchObject({ status: "error", cause: "run_wall" });
    expect(finishedOf(r.events, "b")).toMatchObject({ status: "cancelled" });
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3, reason: "wall" });
    expect(r.outcome.wallMs).toBe(10_000);
  });

  test("--budget and --wall override the graph's run caps", async () => {
    const r = await run(`version: 1\nname: t\ncaps: { budget_usd: 100, wall: 1h }\nnodes:\n  a: { kind: agent, prompt: a }\n`, {
      agents: () => ({ costUsd: 0.5 }),
      options: { budgetUsd: 0.25, wallMs: 5000, concurrency: 2 },
    });
    expect(ofType(r.events, "run.started")[0]).toMatchObject({ caps: { budget_usd: 0.25, wall_ms: 5000 }, concurrency: 2 });
    expect(r.outcome.reason).toBe("budget");
  });
});
