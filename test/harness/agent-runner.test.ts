// The agent runner with real processes (stub executables first on PATH):
// the backstop, the child environment, progress and the Sitting's fields.
import { describe, expect, test } from "vitest";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import { claudeAdapter } from "../../src/spawn/harness/claude/adapter.ts";
import { commandAdapter } from "../../src/spawn/harness/command/adapter.ts";
import type { HarnessAdapter } from "../../src/spawn/harness/types.ts";
import { overruns } from "../../src/engine/caps.ts";
import type { AgentAssignment, SittingProgress } from "../../src/engine/ports.ts";
import { STUBS } from "./helpers.ts";

const PATH = `${STUBS}:${process.env.PATH}`;
const STUB_VARS = ["STUB_SCENARIO", "STUB_TURNS", "STUB_TURN_MS", "STUB_TURN_COST", "STUB_MARKER"];
const work = () => mkdtempSync(join(tmpdir(), "vouch-runner-"));
const assignment = (p: Partial<AgentAssignment>): AgentAssignment => ({
  runId: "r",
  node: "n",
  attempt: 1,
  harness: "claude",
  prompt: "do it",
  cwd: work(),
  passEnv: STUB_VARS,
  caps: {},
  output: { format: "text" },
  ...p,
});
const hooks = (progress: SittingProgress[] = [], signal = new AbortController().signal) => ({
  signal,
  onProgress: (p: SittingProgress) => progress.push(p),
});

const dropsMaxTurns: HarnessAdapter = {
  ...claudeAdapter,
  buildCommand(a, ctx) {
    const cmd = claudeAdapter.buildCommand(a, ctx);
    const i = cmd.argv.indexOf("--max-turns");
    if (i >= 0) cmd.argv.splice(i, 2);
    return cmd;
  },
};

describe("the backstop", () => {
  test("a harness that ignores its native turn cap is killed past cap + margin, with a turns stop", async () => {
    const runner = createAgentRunner({
      parentEnv: { PATH, STUB_TURNS: "40", STUB_TURN_MS: "50" },
      adapters: { claude: dropsMaxTurns },
      backstop: { turnsMargin: 2, costMarginRatio: 0.25 },
    });
    const progress: SittingProgress[] = [];
    const s = await runner.run(assignment({ caps: { turns: 1 } }), hooks(progress));
    expect(s.stopReason).toBe("turns");
    // The kill is decided at the first turn past 1 + 2; a line already read when it lands (a loaded
    // machine hands several in one chunk) is still counted in the sitting's turns, never dropped.
    expect(s.error).toContain("vouch backstop stopped claude: 4 turns streamed against a turns cap of 1");
    expect(s.turns).toBeGreaterThanOrEqual(4);
    expect(Math.max(...progress.map((p) => p.turns ?? 0))).toBeLessThan(40);
    expect(s.exitCode).toBeNull(); // killed by the engine, not exited
  });

  test("a harness that keeps its own cap keeps its own report (the backstop stays out of it)", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_TURNS: "40", STUB_TURN_MS: "20" } });
    const s = await runner.run(assignment({ caps: { turns: 1 } }), hooks());
    expect(s.stopReason).toBe("turns");
    expect(s.turns).toBe(2);
    expect(s.exitCode).toBe(1);
    expect(s.error).toBe("Reached maximum number of turns (1)");
  });

  test("a final result past cap + margin is an overrun of a finished sitting, not a kill (the 60 -> 73 report)", async () => {
    const dir = work();
    const file = join(dir, "result.json");
    writeFileSync(
      file,
      JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 73, total_cost_usd: 1.2, result: "done" }) + "\n",
    );
    const replaysFile: HarnessAdapter = { ...claudeAdapter, buildCommand: (a) => ({ argv: ["/bin/cat", file], stdin: a.prompt }) };
    const runner = createAgentRunner({ parentEnv: { PATH }, adapters: { claude: replaysFile } });
    const s = await runner.run(assignment({ caps: { turns: 60, budgetUsd: 0.5 } }), hooks());
    expect(s.stopReason).toBe("complete");
    expect(s.exitCode).toBe(0);
    expect(overruns({ turns: 60, budgetUsd: 0.5 }, s)).toEqual([
      { cap: "turns", limit: 60, actual: 73 },
      { cap: "budget_usd", limit: 0.5, actual: 1.2 },
    ]);
  });

  test("a streamed cost past a native budget + margin is killed with a budget stop", async () => {
    // A double whose parser streams a cost of $0.01 per line of a ticking program.
    const costStreaming: HarnessAdapter = {
      ...commandAdapter,
      guarantees: { ...commandAdapter.guarantees, caps: { ...commandAdapter.guarantees.caps, budget_usd: "native" } },
      createParser() {
        const inner = commandAdapter.createParser(assignment({}));
        let cost = 0;
        return { ...inner, feed: () => ({ costUsd: (cost = Math.round((cost + 0.01) * 100) / 100) }), progress: () => ({ costUsd: cost }) };
      },
    };
    const runner = createAgentRunner({
      parentEnv: { PATH },
      commandArgv: ["/bin/sh", "-c", "while :; do echo tick; sleep 0.02; done"],
      adapters: { command: costStreaming },
    });
    const s = await runner.run(assignment({ harness: "command", caps: { budgetUsd: 0.05 } }), hooks());
    expect(s.stopReason).toBe("budget");
    // Decided at the first value past 0.05 * 1.25; a line read before the kill lands still counts.
    expect(s.error).toContain("vouch backstop stopped");
    expect(s.error).toContain("$0.07 streamed against a budget_usd cap of $0.05");
    expect(s.costUsd).toBeGreaterThanOrEqual(0.07);
    expect(s.costUsd).toBeLessThan(1);
  });
});

describe("the child process", () => {
  test("gets the allowlist plus passEnv names only; CLAUDECODE never; secrets not by default", async () => {
    const runner = createAgentRunner({
      parentEnv: { PATH, HOME: "/home/x", SECRET_TOKEN: "s3cret", ANTHROPIC_API_KEY: "key-1", CLAUDECODE: "1" },
      commandArgv: ["/usr/bin/env"],
    });
    const s = await runner.run(assignment({ harness: "command", passEnv: ["ANTHROPIC_API_KEY", "CLAUDECODE"] }), hooks());
    expect(s.stopReason).toBe("complete");
    const vars = s.resultText
      .trim()
      .split("\n")
      .map((l) => l.split("=")[0]);
    // VOUCH_SITTING: vouch's own marker of the sitting's processes (src/spawn/process/strays.ts).
    expect(vars.sort()).toEqual(["ANTHROPIC_API_KEY", "HOME", "PATH", "VOUCH_SITTING"]);
    expect(s.resultText).toMatch(/^VOUCH_SITTING=[0-9a-f-]{36}$/m);
  });

  test("the command harness says when its result (stdout) was longer than it keeps", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH }, commandArgv: ["/bin/sh", "-c", "head -c 1100000 /dev/zero | tr '\\0' x"] });
    const big = await runner.run(assignment({ harness: "command" }), hooks());
    expect(big.stopReason).toBe("complete");
    expect(big.resultTruncated).toBe(true);
    const small = await createAgentRunner({ parentEnv: { PATH }, commandArgv: ["/bin/echo", "hi"] }).run(
      assignment({ harness: "command" }),
      hooks(),
    );
    expect(small.resultTruncated ?? false).toBe(false);
  });

  test("a sitting cancelled before it starts, or with a missing cwd, starts nothing", async () => {
    const dir = work();
    const marker = join(dir, "marker");
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_MARKER: marker } });
    const aborted = new AbortController();
    aborted.abort();
    expect((await runner.run(assignment({}), hooks([], aborted.signal))).stopReason).toBe("cancelled");
    const missing = await runner.run(assignment({ cwd: join(dir, "gone") }), hooks());
    expect(missing.stopReason).toBe("unavailable");
    expect(missing.error).toContain("does not exist");
    expect(existsSync(marker)).toBe(false);
  });

  test("a success fills every Sitting field; progress carries turns, tokens and activity", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_TURNS: "3" } });
    const progress: SittingProgress[] = [];
    const s = await runner.run(assignment({}), hooks(progress));
    expect(s).toMatchObject({
      stopReason: "complete",
      turns: 3,
      costUsd: 0.03,
      exitCode: 0,
      permissionDenials: 0,
      sessionId: "5f0c8a52-2d7e-4b7a-9a51-6c1f3e0b9d27",
    });
    expect(s.tokens).toEqual({ input: 6, output: 30, cache_read: 300, cache_creation: 15 });
    expect(s.wallMs).toBeGreaterThan(0);
    expect(typeof s.idleMs).toBe("number");
    expect(progress[0]).toEqual({ turns: 1, tokens: { input: 2, output: 10, cache_read: 100, cache_creation: 5 }, activity: "tool Bash" });
    expect(progress.at(-1)).toMatchObject({ turns: 3, costUsd: 0.03 });
  });

  test("a result line longer than the spawn seam's default line limit still parses (a 3 MB result)", async () => {
    const file = join(work(), "big.json");
    const big = "x".repeat(3 * 1024 * 1024);
    writeFileSync(
      file,
      JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 1, total_cost_usd: 0.1, result: big }) + "\n",
    );
    const catsFile: HarnessAdapter = { ...claudeAdapter, buildCommand: (a) => ({ argv: ["/bin/cat", file], stdin: a.prompt }) };
    const s = await createAgentRunner({ parentEnv: { PATH }, adapters: { claude: catsFile } }).run(assignment({}), hooks());
    expect(s.stopReason).toBe("complete");
    expect(s.resultText.length).toBe(big.length);
  });

  test("a consumer whose onProgress throws gets the error (the process is stopped, not left running)", async () => {
    const runner = createAgentRunner({ parentEnv: { PATH, STUB_TURNS: "50", STUB_TURN_MS: "50" } });
    const started = performance.now();
    await expect(
      runner.run(assignment({}), {
        signal: new AbortController().signal,
        onProgress: () => {
          throw new Error("consumer bug");
        },
      }),
    ).rejects.toThrow("consumer bug");
    expect(performance.now() - started).toBeLessThan(2_000 + 50 * 50); // well before the 50 turns would end
  });
});
