// reruns (ADR 0066): a failed check runs again on the same tree; failed then passed is
// flaky — error flaky_check, no retry asked of the agent, every failure's tails kept;
// failed every time is failed after 1 + reruns runs; a real failure elsewhere still fails.
import { describe, expect, test } from "vitest";
import { ofType, run } from "./helpers/run-helper.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";

const graph = (o: { reruns?: string; defaults?: string; retry?: boolean; more?: string }) => `
version: 1
name: t
${o.defaults ?? ""}
checks:
  tests: { run: "npm test"${o.reruns ?? ""} }
  lint: { run: "npm run lint" }
nodes:
  fix:
    kind: agent
    prompt: p
    success: { checks: [tests${o.more ?? ""}] }
    ${o.retry ? "retry: { max: 2, on: [check_failed] }" : ""}
`;

/** A check that fails on the runs listed (1-based, per check name), and passes otherwise. */
function commands(failOn: Record<string, number[]>) {
  const seen = new Map<string, number>();
  return new FakeCommandRunner((spec) => {
    const n = (seen.get(spec.name) ?? 0) + 1;
    seen.set(spec.name, n);
    return failOn[spec.name]?.includes(n)
      ? { passed: false, exit: 1, reason: "exit 1", stdoutTail: `${spec.name} run ${n}: FAIL\n` }
      : { stdoutTail: `${spec.name} run ${n}: ok\n` };
  });
}

describe("reruns", () => {
  test("failed, then passed on a rerun: error flaky_check, the agent not re-asked, both runs' tails in their events", async () => {
    const r = await run(graph({ reruns: ", reruns: 2", retry: true }), { commands: commands({ tests: [1] }) });
    const f = ofType(r.events, "node.finished")[0]!;
    expect([f.status, f.cause, f.attempt]).toEqual(["error", "flaky_check", 1]);
    expect(f.error).toBe(
      "1 of 1 check flaky (failed, then passed on the same tree: no evidence either way): tests (flaky: it failed (exit 1), then passed on rerun 1 of 2 on the same tree)",
    );
    expect(r.agents.assignments).toHaveLength(1);
    expect(ofType(r.events, "node.retrying")).toEqual([]);
    expect(ofType(r.events, "check.finished").map((c) => [c.name, c.passed, c.rerun ?? 0, c.flaky ?? false, c.stdout_tail])).toEqual([
      ["tests", false, 0, false, "tests run 1: FAIL\n"],
      ["tests", true, 1, true, "tests run 2: ok\n"],
    ]);
    expect(f.evidence?.find((e) => e.part === "checks")?.outcome).toBe("not_checked");
  });

  test("failed every time: failed check_failed after 1 + reruns runs, as without reruns", async () => {
    const r = await run(graph({ reruns: ", reruns: 2" }), { commands: commands({ tests: [1, 2, 3] }) });
    const f = ofType(r.events, "node.finished")[0]!;
    expect([f.status, f.cause]).toEqual(["failed", "check_failed"]);
    expect(f.error).toBe("1 of 1 check failed: tests (exit 1 (failed each of 3 runs on the same tree))");
    expect(ofType(r.events, "check.finished").map((c) => [c.rerun ?? 0, c.passed])).toEqual([
      [0, false],
      [1, false],
      [2, false],
    ]);
  });

  test("without reruns a failure is failed and retried as before; a pass is never rerun", async () => {
    const r = await run(graph({ retry: true }), { commands: commands({ tests: [1] }) });
    expect(ofType(r.events, "node.finished")[0]).toMatchObject({ status: "passed", qualifier: "verified", attempt: 2 });
    expect(r.agents.assignments).toHaveLength(2);
    const passing = await run(graph({ reruns: ", reruns: 3" }), { commands: commands({}) });
    expect(ofType(passing.events, "check.finished")).toHaveLength(1);
  });

  test("defaults.reruns applies to the file's checks that set none; a check's own wins", async () => {
    const r = await run(graph({ defaults: "defaults: { reruns: 1 }" }), { commands: commands({ tests: [1] }) });
    expect(ofType(r.events, "node.finished")[0]).toMatchObject({ status: "error", cause: "flaky_check" });
    const own = await run(graph({ defaults: "defaults: { reruns: 3 }", reruns: ", reruns: 1" }), {
      commands: commands({ tests: [1, 2, 3] }),
    });
    expect(ofType(own.events, "check.finished")).toHaveLength(2);
    expect(ofType(own.events, "node.finished")[0]).toMatchObject({ status: "failed", cause: "check_failed" });
  });

  test("another check that failed outright makes the node failed; the retry quotes it and not the flaky one", async () => {
    const r = await run(graph({ reruns: ", reruns: 1", more: ", lint", retry: true }), {
      commands: commands({ tests: [1], lint: [1, 2, 3] }),
    });
    const retrying = ofType(r.events, "node.retrying");
    expect(retrying[0]).toMatchObject({ cause: "check_failed", error: "1 of 2 checks failed: lint (exit 1)" });
    expect(retrying[0]!.reason).toContain("- lint: exit 1");
    expect(retrying[0]!.reason).not.toContain("- tests");
  });

  test("a check that could not run is not rerun; a rerun that could not run leaves the first failure standing", async () => {
    const notRun = await run(graph({ reruns: ", reruns: 2" }), {
      commands: new FakeCommandRunner(() => ({ passed: false, notRun: true, exit: 127, reason: "exit 127" })),
    });
    expect(ofType(notRun.events, "check.finished")).toHaveLength(1);
    expect(ofType(notRun.events, "node.finished")[0]).toMatchObject({ status: "error", cause: "harness_error" });
    let n = 0;
    const second = await run(graph({ reruns: ", reruns: 2" }), {
      commands: new FakeCommandRunner(() =>
        ++n === 1 ? { passed: false, exit: 1, reason: "exit 1" } : { passed: false, notRun: true, exit: 127 },
      ),
    });
    expect(ofType(second.events, "check.finished")).toHaveLength(2);
    expect(ofType(second.events, "node.finished")[0]).toMatchObject({ status: "failed", cause: "check_failed" });
  });
});

describe("the tree a check ran on (ADR 0067)", () => {
  test("in a worktree: the attempt's commit's tree, the same for its reruns, another for an attempt that changed files", async () => {
    const git = new FakeGit();
    let n = 0;
    const r = await run(
      `
version: 1
name: t
nodes:
  impl:
    kind: agent
    prompt: p
    workspace: { mode: worktree }
    success: { checks: [{ name: tests, run: "sh test/t.sh", reruns: 1 }] }
    retry: { max: 1, on: [check_failed] }
`,
      {
        git,
        agents: (a) => (git.edit(a.workspace!, "src/a.ts", `a${a.attempt}`), {}),
        commands: new FakeCommandRunner(() => (++n <= 2 ? { passed: false, exit: 1, reason: "exit 1" } : {})),
      },
    );
    const checks = ofType(r.events, "check.finished").map((c) => [c.attempt, c.rerun ?? 0, c.tree_id]);
    const tree = (commit: string) => git.treeId(FAKE_ROOT, commit);
    expect(checks).toEqual([
      [1, 0, await tree("c1")],
      [1, 1, await tree("c1")],
      [2, 0, await tree("c2")],
    ]);
    expect(await tree("c1")).not.toBe(await tree("c2"));
  });

  test("without a worktree: null", async () => {
    const r = await run(graph({}), { commands: commands({}) });
    expect(ofType(r.events, "check.finished").map((c) => c.tree_id)).toEqual([null]);
  });
});
