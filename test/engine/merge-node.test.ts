// `kind: merge` in the engine with fake git (ADR 0021): upstream branches merged
// in order, a conflicting one left out and reported, the checks run in the
// merged worktree, nothing merged is a failure, an earlier session's branch is
// kept, and git trouble is an error, never a verdict.
import { describe, expect, test } from "vitest";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FAKE_BASE, FAKE_ROOT, FakeGit, FakeMerge } from "./helpers/fake-git.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

/** Fake git whose upstream scripts each write their own file (two of them the same one, when told to). */
function fakeGit(o: { root?: boolean; base?: boolean } = {}) {
  const git = new FakeGit();
  if (o.root === false) git.repoRoot = async () => null;
  if (o.base === false) git.resolveCommit = async (_r, ref) => (ref === "HEAD" ? null : FAKE_BASE);
  const merge = new FakeMerge(git);
  return { git, merge, calls: git.calls, merges: merge.calls };
}

/** Scripts a, b, c in worktrees; each writes <id>.txt, and those in `clash` also write shared.txt. */
function scripts(g: ReturnType<typeof fakeGit>, clash: string[] = [], fail: string[] = []) {
  return new FakeCommandRunner(undefined, (_s, ctx) => {
    const wt = ctx.vars.VOUCH_WORKSPACE!;
    g.git.edit(wt, `${ctx.node}.txt`, ctx.node);
    if (clash.includes(ctx.node)) g.git.edit(wt, "shared.txt", ctx.node);
    return { exit: fail.includes(ctx.node) ? 1 : 0 };
  });
}

const GRAPH = (extra = "", from = "[a, b, c]") => `
version: 1
name: m
nodes:
  a: { kind: script, run: "true", workspace: { mode: worktree } }
  b: { kind: script, run: "true", workspace: { mode: worktree } }
  c: { kind: script, run: "true", workspace: { mode: worktree } }
  integrate:
    kind: merge
    needs: [a, b, c]
    from: ${from}
${extra}
`;

const ports = (g: ReturnType<typeof fakeGit>) => ({ git: g.git, merge: g.merge });
const WT = `${FAKE_ROOT}/.vouch/worktrees/run-test`;
const B = (n: string) => `vouch/run-test/${n}`;

/** The commit each upstream node recorded (node.finished.workspace.commit). */
function recorded(events: Parameters<typeof finishedOf>[0], id: string): string {
  return finishedOf(events, id).workspace!.commit;
}

describe("kind: merge", () => {
  test("merges the recorded commits in order onto base; a conflicting one is left out and reported with its paths", async () => {
    const g = fakeGit();
    const r = await run(GRAPH(), { commands: scripts(g, ["a", "b"]), ports: ports(g) });
    const f = finishedOf(r.events, "integrate");
    expect(f.status).toBe("passed");
    const out = f.output as Record<string, unknown>;
    expect(out.merged).toEqual([
      { branch: B("a"), from: "a", commit: recorded(r.events, "a") },
      { branch: B("c"), from: "c", commit: recorded(r.events, "c") },
    ]);
    expect(out.left_out).toEqual([{ branch: B("b"), from: "b", reason: "merge_conflict", paths: ["shared.txt"] }]);
    expect(out).toMatchObject({ branch: B("integrate"), base: "HEAD", base_commit: FAKE_BASE, files_changed: 3 });
    // Each merge goes onto the last merge commit; b's conflict leaves the tip where a left it.
    expect(g.merges.filter((c) => c.startsWith("merge"))).toEqual([
      `merge ${recorded(r.events, "a")} onto ${FAKE_BASE}`,
      `merge ${recorded(r.events, "b")} onto m1`,
      `merge ${recorded(r.events, "c")} onto m1`,
    ]);
    expect(g.git.commits.get(out.commit as string)).toEqual(
      new Map([...g.git.commits.get(FAKE_BASE)!, ["a.txt", "a"], ["shared.txt", "a"], ["c.txt", "c"]]),
    );
    expect(ofType(r.events, "merge.conflict")).toMatchObject([{ node: "integrate", git_branch: B("b"), from: "b", paths: ["shared.txt"] }]);
    // A passed merge keeps its branch; its worktree is removed.
    expect(g.calls).toContain(`remove ${WT}/integrate`);
  });

  test("a branch moved after its node was judged: the judged commit is merged, not what the branch names now", async () => {
    const g = fakeGit();
    const commands = new FakeCommandRunner(undefined, (_s, ctx) => {
      g.git.edit(ctx.vars.VOUCH_WORKSPACE!, `${ctx.node}.txt`, ctx.node);
      return {};
    });
    const yaml =
      GRAPH("", "[a, b]").replace("needs: [a, b, c]", "needs: [a, b, late]") + "  late: { kind: script, needs: [a, b], run: mover }\n";
    const moving = new FakeCommandRunner(undefined, async (spec, ctx) => {
      if (ctx.node === "late") {
        // Something left running moves a's branch to an unjudged commit (its protected test replaced).
        g.git.commits.set("evil", new Map([["test/t.sh", "exit 0 # trust me"]]));
        g.git.branches.set(B("a"), "evil");
        return {};
      }
      return commands.runScript(spec, ctx);
    });
    const r = await run(yaml, { commands: moving, ports: ports(g) });
    const out = finishedOf(r.events, "integrate").output as { merged: { commit: string }[]; commit: string };
    expect(out.merged.map((m) => m.commit)).toEqual([recorded(r.events, "a"), recorded(r.events, "b")]);
    expect(g.git.commits.get(out.commit)!.get("test/t.sh")).toBe("exit 0");
  });

  test("the checks run on trees of the merge commit, at cwd's place in the repository, with VOUCH_WORKSPACE", async () => {
    const g = fakeGit();
    const commands = scripts(g);
    const checks = new FakeCommandRunner(
      (spec) => (spec.name === "tests" ? { exit: 1, passed: false } : {}),
      (spec, ctx) => commands.runScript(spec, ctx),
    );
    const r = await run(GRAPH("    cwd: pkg\n    success: { checks: [{ name: lint, run: lint }, { name: tests, run: t }] }"), {
      commands: checks,
      ports: ports(g),
    });
    // Each check on a fresh tree of the merge commit, at cwd's place in it (ADR 0043).
    const trees = `${FAKE_ROOT}/.vouch/trees/run-test/integrate`;
    expect(checks.checks.map((c) => c.ctx.cwd)).toEqual([`${trees}/1-1/pkg`, `${trees}/1-2/pkg`]);
    expect(checks.checks[0]!.ctx.vars.VOUCH_WORKSPACE).toBe(`${trees}/1-1`);
    expect(g.git.treesMade.map((t) => t.commit)).toEqual(["m3", "m3"]);
    const f = finishedOf(r.events, "integrate");
    expect(f).toMatchObject({ status: "failed", cause: "check_failed" });
    // A failed merge's worktree stays to be looked at (the one remove clears what a killed session left, before the add).
    expect(g.calls.lastIndexOf(`remove ${WT}/integrate`)).toBeLessThan(g.calls.indexOf(`add ${WT}/integrate ${B("integrate")} m3`));
    expect(g.calls.filter((c) => c.startsWith(`add ${WT}/integrate`))).toEqual([`add ${WT}/integrate ${B("integrate")} m3`]);
  });

  test("all checks pass: verified; no checks: exit-only (nothing checked the merged tree)", async () => {
    const g = fakeGit();
    const checked = await run(GRAPH("    success: { checks: [{ name: t, run: t }] }"), { commands: scripts(g), ports: ports(g) });
    expect(finishedOf(checked.events, "integrate")).toMatchObject({ status: "passed", qualifier: "verified" });
    const h = fakeGit();
    const bare = await run(GRAPH(), { commands: scripts(h), ports: ports(h) });
    expect(finishedOf(bare.events, "integrate")).toMatchObject({ status: "passed", qualifier: "exit-only" });
  });

  test("every branch conflicting is failed/merge_conflict; no recorded commit at all is failed/nothing_to_merge; neither makes a worktree", async () => {
    const all = fakeGit();
    // The merge's base changed src/a.ts one way, each upstream node another: each conflicts.
    all.git.commits.set("b0", new Map([...all.git.commits.get(FAKE_BASE)!, ["src/a.ts", "the base's edit"]]));
    const commands = new FakeCommandRunner(undefined, (_s, ctx) => {
      all.git.edit(ctx.vars.VOUCH_WORKSPACE!, "src/a.ts", `${ctx.node}'s edit`);
      return {};
    });
    const r = await run(GRAPH("    base: b0", "[a, b]"), { commands, ports: ports(all) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({ status: "failed", cause: "merge_conflict" });
    expect(all.calls.some((c) => c.startsWith(`add ${WT}/integrate`))).toBe(false);
    const none = fakeGit();
    const n = await run(GRAPH("", "[a, b]").replace(/, workspace: \{ mode: worktree \}/g, ""), { ports: ports(none) });
    const f = finishedOf(n.events, "integrate");
    expect(f).toMatchObject({ status: "failed", cause: "nothing_to_merge" });
    // They passed, but without a worktree vouch recorded no commit of theirs: said so, not "did not pass".
    expect(f.error).toBe("nothing was merged: a, b passed with no commit vouch recorded (a node without a worktree has none)");
  });

  test("into is a template with run.id and inputs; an earlier session's branch of that name is kept as <into>@n", async () => {
    const g = fakeGit();
    // An earlier session's merge made feat-x (its tip says so): this run's own, kept aside, never the user's.
    g.git.commits.set("m1", new Map(g.git.commits.get(FAKE_BASE)!));
    g.git.messages.set("m1", "vouch: run run-test, node integrate, merge vouch/run-test/a");
    g.git.branches.set("vouch/run-test/feat-x", "m1");
    g.git.branches.set("vouch/run-test/feat-x@1", FAKE_BASE);
    const r = await run(
      GRAPH('    into: "vouch/{{ run.id }}/{{ inputs.name }}"').replace("name: m\n", "name: m\ninputs: { name: { default: feat-x } }\n"),
      { commands: scripts(g), ports: ports(g) },
    );
    expect((finishedOf(r.events, "integrate").output as { branch: string }).branch).toBe("vouch/run-test/feat-x");
    expect(g.calls).toContain("rename vouch/run-test/feat-x vouch/run-test/feat-x@2");
  });

  test.each([
    ['into: "-rf"', 'starts with "-"'],
    ['into: "a b"', "refuses"],
    ['into: "x/../y"', "not a name git accepts"],
    ["base: nope", 'base "nope" names no commit'],
  ])("%s is an error before anything is merged", async (extra, why) => {
    const g = fakeGit();
    const r = await run(GRAPH(`    ${extra}`), { commands: scripts(g), ports: ports(g) });
    const f = finishedOf(r.events, "integrate");
    expect(f.status).toBe("error");
    expect(f.error).toContain(why);
    expect(g.merges).toEqual([]);
    expect(g.calls.filter((c) => c.startsWith(`add ${WT}/integrate`))).toEqual([]);
  });

  test("cwd outside a git repository is an error, exit 3", async () => {
    const g = fakeGit({ root: false });
    const r = await run(GRAPH().replace(/, workspace: \{ mode: worktree \}/g, ""), { ports: ports(g) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({ status: "error", cause: "harness_error" });
    expect(finishedOf(r.events, "integrate").error).toContain("not in a git repository");
    expect(r.outcome.exitCode).toBe(3);
  });

  test("a git failure in the middle is the node's error, with git's message", async () => {
    const g = fakeGit();
    g.merge.mergeCommit = async () => {
      throw new Error("git merge-tree failed (exit 128): fatal: bad object");
    };
    const r = await run(GRAPH(), { commands: scripts(g), ports: ports(g) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({
      status: "error",
      cause: "harness_error",
      error: "the merge could not be made: git merge-tree failed (exit 128): fatal: bad object",
    });
  });

  test("a node that did not pass is not merged and is named in not_passed", async () => {
    const g = fakeGit();
    const r = await run(GRAPH("", "[a, b, c]").replace("needs: [a, b, c]", "needs: [a, c]"), {
      commands: scripts(g, [], ["b"]),
      ports: ports(g),
    });
    const out = finishedOf(r.events, "integrate").output as { merged: { from: string }[]; not_passed: string[] };
    expect(out.merged.map((m) => m.from)).toEqual(["a", "c"]);
    expect(out.not_passed).toEqual(["b"]);
  });
});

test("a merge holds a process slot: with concurrency 1 it never runs beside a script", async () => {
  const g = fakeGit();
  let live = 0;
  let most = 0;
  const busy = async () => {
    most = Math.max(most, ++live);
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    live--;
  };
  const commands = new FakeCommandRunner(undefined, async (_s, ctx) => {
    if (ctx.node === "slow") await busy();
    return {};
  });
  const merge = g.merge.mergeCommit.bind(g.merge);
  g.merge.mergeCommit = async (...a) => {
    await busy();
    return merge(...a);
  };
  const yaml = `
version: 1
name: m
concurrency: 1
nodes:
  a: { kind: script, run: "true", workspace: { mode: worktree } }
  slow: { kind: script, needs: [a], run: "true" }
  integrate: { kind: merge, needs: [a], from: [a] }
`;
  const r = await run(yaml, { commands, ports: ports(g) });
  expect(finishedOf(r.events, "integrate").status).toBe("passed");
  expect(most).toBe(1);
});
