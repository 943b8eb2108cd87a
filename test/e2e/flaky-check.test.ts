// Flaky checks through dist/vouch (ADR 0066): a check that alternates fail/pass (a counter
// file outside the tree) with reruns: 2 makes the node error/flaky_check with both runs'
// tails, the agent started once though it may be retried for check_failed; without
// reruns it is failed as before; one that always fails is failed after 1 + reruns runs.
// The history remembers it, across a resume too.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";
import { commitFolder } from "../workspace/git-repo.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("flaky");
}, 180_000);
afterAll(() => dir.cleanup());

const of = <T extends VouchEvent["type"]>(events: VouchEvent[], type: T) => events.filter((e): e is EventOf<T> => e.type === type);

/** A one-turn claude recording that says it is done. */
const RECORDING = `${[
  {
    type: "system",
    subtype: "init",
    session_id: "00000000-0000-4000-8000-0000000000f1",
    cwd: "/w",
    model: "m",
    tools: [],
    permissionMode: "default",
  },
  {
    type: "assistant",
    session_id: "00000000-0000-4000-8000-0000000000f1",
    message: { id: "m1", type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "done" }] },
  },
  {
    type: "result",
    subtype: "success",
    is_error: false,
    num_turns: 1,
    result: "done",
    session_id: "00000000-0000-4000-8000-0000000000f1",
    total_cost_usd: 0.01,
  },
]
  .map((l) => JSON.stringify(l))
  .join("\n")}\n`;

/** A graph whose agent's check alternates: it fails on odd runs and passes on even ones, counting
 *  in `counter` (outside the graph's folder). `always`: it fails every time. */
function graph(name: string, o: { reruns?: number; always?: boolean }): string {
  const folder = join(dir.path, name);
  mkdirSync(join(folder, "g.replay"), { recursive: true });
  writeFileSync(join(folder, "g.replay", "fix.jsonl"), RECORDING);
  const counter = join(dir.path, `${name}.count`);
  const check = o.always
    ? `echo "always fails"; exit 1`
    : `n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${counter}; echo "run $n"; [ $((n % 2)) -eq 0 ]`;
  writeFileSync(
    join(folder, "g.yaml"),
    `version: 1
name: flaky-${name}
checks:
  tests: { run: '${check}'${o.reruns !== undefined ? `, reruns: ${o.reruns}` : ""} }
nodes:
  fix:
    kind: agent
    prompt: make the tests pass
    success: { checks: [tests] }
    retry: { max: 1, on: [check_failed] }
`,
  );
  return join(folder, "g.yaml");
}

async function runJson(file: string, home: string, cwd = dir.path) {
  const r = await vouch(["run", file, "--harness", "replay", "--json"], { home, cwd });
  return { code: r.code, events: parseNdjson(r.stdout), stderr: r.stderr };
}

describe("a flaky check through the binary", () => {
  test("alternating with reruns: 2 — error flaky_check, both tails, the agent started once", async () => {
    const home = join(dir.path, "home-1");
    const r = await runJson(graph("alt", { reruns: 2 }), home);
    expect(r.code, r.stderr).toBe(3);
    const f = of(r.events, "node.finished")[0]!;
    expect([f.status, f.cause]).toEqual(["error", "flaky_check"]);
    expect(of(r.events, "node.started")).toHaveLength(1); // not re-asked, although retry allows check_failed
    expect(of(r.events, "check.finished").map((c) => [c.passed, c.rerun ?? 0, c.flaky ?? false, c.stdout_tail])).toEqual([
      [false, 0, false, "run 1\n"],
      [true, 1, true, "run 2\n"],
    ]);
    const history = JSON.parse((await vouch(["checks", "--history", "--json"], { home })).stdout);
    expect(history).toMatchObject([{ name: "tests", runs: 1, flaky: 1, passed: 0, failed: 0, flake_rate: 1, marked: true }]);
    const show = await vouch(["show", "last"], { home });
    expect(show.stdout).toMatch(/fix\s+error\s+complete.*flaky_check: 1 of 1 check flaky/);
    expect(show.stdout).toContain("fix attempt 1: check tests failed (exit 1, expected exit_zero");
  });

  test("the same check without reruns is failed as before (and the retry, re-asked, happens to pass)", async () => {
    const home = join(dir.path, "home-2");
    const file = graph("plain", {});
    const r = await runJson(file, home);
    expect(r.code).toBe(0);
    expect(of(r.events, "node.started")).toHaveLength(2);
    expect(of(r.events, "node.retrying")).toMatchObject([{ cause: "check_failed" }]);
    // Without a retry it would have stopped there: failed, check_failed.
    writeFileSync(file, (await Bun.file(file).text()).replace("    retry: { max: 1, on: [check_failed] }\n", ""));
    const once = await runJson(file, home);
    expect(once.code).toBe(1);
    expect(of(once.events, "node.finished")[0]).toMatchObject({ status: "failed", cause: "check_failed" });
    expect(of(once.events, "check.finished")).toHaveLength(1);
  });

  test("always failing with reruns: 2 — failed after 3 runs per attempt", async () => {
    const home = join(dir.path, "home-3");
    const r = await runJson(graph("always", { reruns: 2, always: true }), home);
    expect(r.code).toBe(1);
    expect(of(r.events, "node.finished")[0]).toMatchObject({ status: "failed", cause: "check_failed", attempt: 2 });
    expect(of(r.events, "check.finished").map((c) => [c.attempt, c.rerun ?? 0, c.passed])).toEqual([
      [1, 0, false],
      [1, 1, false],
      [1, 2, false],
      [2, 0, false],
      [2, 1, false],
      [2, 2, false],
    ]);
  });

  test("the history survives a resume: the resumed session's outcome is added, not put in place of the first", async () => {
    const home = join(dir.path, "home-4");
    const first = await runJson(graph("resumed", { reruns: 1 }), home);
    expect(first.code).toBe(3);
    const again = await vouch(["resume", "last", "--json"], { home, cwd: dir.path });
    expect(again.code).toBe(3);
    const [h] = JSON.parse((await vouch(["checks", "tests", "--history", "--json"], { home })).stdout);
    expect(h).toMatchObject({ runs: 1, flaky: 2, flaky_runs: 1, marked: true });
  });

  test("in a git worktree: two runs on one tree that disagree make the check flaky without a rerun (history and validate)", async () => {
    const home = join(dir.path, "home-5");
    const repo = join(dir.path, "repo");
    mkdirSync(join(repo, "g.replay"), { recursive: true });
    writeFileSync(join(repo, "g.replay", "fix.jsonl"), RECORDING);
    writeFileSync(join(repo, "README"), "a project\n");
    const counter = join(dir.path, "tree.count");
    // Passes on the first run, fails on the second: the replayed agent changes nothing, so both
    // runs' attempts have the base's tree.
    writeFileSync(
      join(repo, "g.yaml"),
      `version: 1
name: same-tree
checks:
  tests: { run: 'n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n + 1)) > ${counter}; [ "$n" -eq 0 ]' }
nodes:
  fix:
    kind: agent
    prompt: p
    workspace: { mode: worktree }
    # The counter lives outside the check's tree: sealed, the check could not write it.
    sandbox: off
    success: { checks: [tests] }
`,
    );
    commitFolder(repo);
    const first = await runJson(join(repo, "g.yaml"), home, repo);
    const second = await runJson(join(repo, "g.yaml"), home, repo);
    expect([first.code, second.code], first.stderr).toEqual([0, 1]);
    const trees = [first, second].map((r) => of(r.events, "check.finished")[0]!.tree_id);
    expect(trees[0]).toMatch(/^[0-9a-f]{40}$/);
    expect(trees[1]).toBe(trees[0]);
    const [h] = JSON.parse((await vouch(["checks", "--history", "--json"], { home })).stdout);
    expect(h).toMatchObject({ runs: 2, passed: 1, failed: 1, flaky: 0, disagreeing_trees: 1, flaky_runs: 2, marked: true });
    const v = await vouch(["validate", join(repo, "g.yaml")], { home });
    expect(v.stdout).toContain('check "tests" was flaky in 2 of the last 2 runs');
  });
});
