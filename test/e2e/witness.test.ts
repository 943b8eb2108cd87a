// Fail-to-pass witnesses through dist/vouch (ADR 0044): a witnessed check runs on
// the base first and must fail there. A fix of the base's failing test passes
// `verified (fail→pass)` in every reader; a test that passes on the base anyway
// is failed vacuous_check, retried with it quoted; a test the agent wrote
// (from_result) is run against the old code.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { makeRepo } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "./helpers.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("witness");
}, 180_000);
afterAll(() => dir?.cleanup());

const AGENT = `#!/bin/sh
p=$(cat)
case "$p" in *fix*) echo 5 > src/answer.txt ;; esac
case "$p" in *write-test*) mkdir -p spec && echo 'test "$(cat src/answer.txt)" = 5' > spec/new.sh ;; esac
case "$p" in *weak-test*) mkdir -p spec && echo 'true' > spec/new.sh ;; esac
echo done
`;

let n = 0;
async function run(
  prompt: string,
  check: string,
  extra = "",
): Promise<{ code: number; events: VouchEvent[]; home: string; repo: string; run: string }> {
  const repo = makeRepo(
    { "src/answer.txt": "4\n", "test/answer.sh": 'test "$(cat src/answer.txt)" = 5\n', "test/always.sh": "true\n" },
    "vouch-witness-",
  );
  const agent = join(dir.path, `agent-${++n}.sh`);
  writeFileSync(agent, AGENT);
  chmodSync(agent, 0o755);
  const graph = join(dir.path, `graph-${n}.yaml`);
  writeFileSync(
    graph,
    `version: 1\nname: witness\nnodes:\n  fix:\n    kind: agent\n    harness: command\n    prompt: ${JSON.stringify(prompt)}\n    workspace: { mode: worktree, protect: ["test/**"] }\n${extra}    success: { checks: [${check}] }\n`,
  );
  const home = join(dir.path, `home-${n}`);
  const r = await vouch(["run", graph, "--json"], { home, cwd: repo, env: { VOUCH_COMMAND: agent } });
  const events = parseNdjson(r.stdout);
  return { code: r.code, events, home, repo, run: events[0]!.run };
}

const last = (events: VouchEvent[]) => events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished").at(-1)!;
const checks = (events: VouchEvent[]) =>
  events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished").map((c) => [c.attempt, c.tree, c.passed]);

describe("witness: fails_on_base", () => {
  test("the base's failing test, fixed: it failed on the base, passed on the result — verified (fail→pass) in show and the reports", async () => {
    const r = await run("fix", '{ name: answer, run: "sh test/answer.sh", witness: fails_on_base }');
    expect(r.code).toBe(0);
    expect(last(r.events)).toMatchObject({ status: "passed", qualifier: "verified", witnessed: ["answer"] });
    expect(checks(r.events)).toEqual([
      [1, "base", false],
      [1, "commit", true],
    ]);
    const show = await vouch(["show", r.run], { home: r.home, cwd: r.repo });
    expect(show.stdout).toContain("passed (verified (fail→pass))");
    const md = await vouch(["report", r.run, "--format", "markdown"], { home: r.home, cwd: r.repo });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("verified \\(fail→pass\\)"); // Markdown escapes the parentheses
    expect(md.stdout).not.toContain("Failed checks"); // the base run's failure is the witness, not a failed check
    expect(show.stdout).not.toContain("Failed checks");
  }, 60_000);

  test("a test that passes on the base too: failed vacuous_check (exit 1), not run on the result, retried with the cause quoted", async () => {
    const r = await run("fix", '{ name: always, run: "sh test/always.sh", witness: fails_on_base }', "    retry: { max: 1 }\n");
    expect(r.code).toBe(1);
    expect(last(r.events)).toMatchObject({ status: "failed", cause: "vacuous_check", attempt: 2 });
    expect(last(r.events).error).toContain("passed on the base too");
    expect(checks(r.events)).toEqual([
      [1, "base", true],
      [2, "base", true],
    ]);
    const retrying = r.events.find((e): e is EventOf<"node.retrying"> => e.type === "node.retrying")!;
    expect(retrying.reason).toContain("vacuous_check");
  }, 60_000);

  test("from_result: the test the agent wrote runs against the old code first — a real test passes fail→pass, a weak one is vacuous", async () => {
    const check = '{ name: new, run: "sh spec/new.sh", witness: fails_on_base, from_result: ["spec/**"] }';
    const good = await run("fix write-test", check);
    expect(last(good.events)).toMatchObject({ status: "passed", witnessed: ["new"] });
    const weak = await run("fix weak-test", check);
    expect(last(weak.events)).toMatchObject({ status: "failed", cause: "vacuous_check" });
  }, 60_000);

  test("vouch validate refuses a witnessed check on a node in the shared folder", async () => {
    const graph = join(dir.path, "shared.yaml");
    writeFileSync(
      graph,
      'version: 1\nname: s\nnodes:\n  a: { kind: script, run: "true", success: { checks: [{ name: t, run: "true", witness: fails_on_base }] } }\n',
    );
    const r = await vouch(["validate", graph], { home: join(dir.path, "home-v") });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('node "a" has no base: it works in the shared folder');
  }, 30_000);
});

test("the plain output says a vacuous base run went wrong, and says nothing of a base run that failed as witnessed", async () => {
  const repo = makeRepo(
    { "src/answer.txt": "4\n", "test/answer.sh": 'test "$(cat src/answer.txt)" = 5\n', "test/always.sh": "true\n" },
    "vouch-witness-",
  );
  const agent = join(dir.path, "agent-plain.sh");
  writeFileSync(agent, AGENT);
  chmodSync(agent, 0o755);
  const graph = join(dir.path, "plain.yaml");
  writeFileSync(
    graph,
    `version: 1\nname: plain\nnodes:\n  fix:\n    kind: agent\n    harness: command\n    prompt: fix\n    workspace: { mode: worktree }\n    success: { checks: [{ name: answer, run: "sh test/answer.sh", witness: fails_on_base }, { name: always, run: "sh test/always.sh", witness: fails_on_base }] }\n`,
  );
  const r = await vouch(["run", graph], { home: join(dir.path, "home-plain"), cwd: repo, env: { VOUCH_COMMAND: agent } });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("check always (on the base) passed");
  expect(r.stdout).not.toContain("answer (on the base)");
  expect(r.stdout).toContain("vacuous_check");
}, 60_000);
