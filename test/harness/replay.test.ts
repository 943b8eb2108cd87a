// The replay harness through the runner: fixture lookup per node, branch and
// attempt, the three output shapes, pacing.
import { describe, expect, test } from "vitest";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import type { AgentAssignment, SittingProgress } from "../../src/engine/ports.ts";
import { CLAUDE_REFERENCE, FIXTURES } from "./helpers.ts";

const a = (p: Partial<AgentAssignment>): AgentAssignment => ({
  runId: "r",
  node: "verify",
  attempt: 1,
  harness: "replay",
  prompt: "p",
  cwd: tmpdir(),
  passEnv: [],
  caps: {},
  output: { format: "text" },
  ...p,
});
const hooks = (progress: SittingProgress[] = []) => ({
  signal: new AbortController().signal,
  onProgress: (p: SittingProgress) => progress.push(p),
});
const result = (text: string) =>
  JSON.stringify({ type: "result", subtype: "success", is_error: false, num_turns: 1, total_cost_usd: 0.001, result: text });

describe("replay", () => {
  test("a map branch and an attempt find their own fixture, else the node's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-replay-run-"));
    writeFileSync(join(dir, "verify.jsonl"), result("node") + "\n");
    writeFileSync(join(dir, "verify.2.jsonl"), result("branch 2") + "\n");
    writeFileSync(join(dir, "verify.2.a2.json"), result("branch 2 attempt 2"));
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    const text = async (p: Partial<AgentAssignment>) => (await runner.run(a(p), hooks())).resultText;
    expect(await text({})).toBe("node");
    expect(await text({ branch: { map: "m", index: 2 } })).toBe("branch 2");
    expect(await text({ branch: { map: "m", index: 2 }, attempt: 2 })).toBe("branch 2 attempt 2");
    expect(await text({ branch: { map: "m", index: 5 } })).toBe("node");
  });

  test("plays stream-json, the array form and a pretty-printed reference result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-replay-shapes-"));
    copyFileSync(join(FIXTURES, "stream-success.jsonl"), join(dir, "s.jsonl"));
    copyFileSync(join(FIXTURES, "array-success.json"), join(dir, "arr.json"));
    const runner = createAgentRunner({ parentEnv: {}, replayDir: dir });
    const stream = await runner.run(a({ node: "s" }), hooks());
    const array = await runner.run(a({ node: "arr" }), hooks());
    expect(stream).toMatchObject({ stopReason: "complete", turns: 2, costUsd: 0.0213, exitCode: 0 });
    expect(array).toMatchObject({ stopReason: "complete", turns: 2, costUsd: 0.0213, exitCode: 0 });
    copyFileSync(join(CLAUDE_REFERENCE, "turns.json"), join(dir, "t.json"));
    const turns = await runner.run(a({ node: "t", caps: { turns: 1 } }), hooks());
    expect(turns).toMatchObject({ stopReason: "turns", turns: 2, exitCode: 1 });
  });

  test("pacing: each line waits replayDelayMs, and progress arrives per assistant message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-replay-pace-"));
    copyFileSync(join(FIXTURES, "stream-success.jsonl"), join(dir, "verify.jsonl"));
    const progress: SittingProgress[] = [];
    const s = await createAgentRunner({ parentEnv: {}, replayDir: dir, replayDelayMs: 30 }).run(a({}), hooks(progress));
    // The api_retry line (no turn yet), then each assistant message, then the result.
    expect(progress.map((p) => p.turns)).toEqual([0, 1, 2, 2]);
    expect(s.wallMs).toBeGreaterThanOrEqual(8 * 30 - 10); // 8 lines (+ the final empty one)
  });

  test("a missing fixture is unavailable and lists the files looked for", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-replay-none-"));
    const s = await createAgentRunner({ parentEnv: {}, replayDir: dir }).run(a({ branch: { map: "m", index: 0 } }), hooks());
    expect(s.stopReason).toBe("unavailable");
    expect(s.error).toContain("verify.0.a1.jsonl, verify.0.a1.json, verify.0.jsonl");
  });
});
