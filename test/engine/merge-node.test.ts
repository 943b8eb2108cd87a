// `kind: merge` in the engine with fake git (ADR 0021): upstream branches merged
// in order, a conflicting one left out and reported, the checks run in the
// merged worktree, nothing merged is a failure, an earlier session's branch is
// kept, and git trouble is an error, never a verdict.
import { describe, expect, test } from "vitest";
import type { GitPort, MergePort, MergeStep } from "../../src/engine/ports.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

const hex = (n: number) => n.toString(16).padStart(40, "0");

/** Git with the listed branches; merging a branch in `conflicts` conflicts on its paths. */
function fakeGit(branches: string[], conflicts: Record<string, string[]> = {}, o: { root?: string | null; base?: string | null } = {}) {
  const calls: string[] = [];
  const have = new Set(branches);
  let next = 100;
  const git = {
    repoRoot: async () => (o.root === undefined ? "/repo" : o.root),
    cwdPrefix: async () => "pkg/",
    resolveCommit: async (_r: string, ref: string) => (o.base === undefined ? (ref === "HEAD" || ref === "main" ? hex(1) : null) : o.base),
    branchExists: async (_r: string, b: string) => have.has(b),
    // The user's branches say what the user wrote; feat-x is an earlier try of this run's merge.
    branchSubject: async (_r: string, b: string) =>
      !have.has(b) ? null : b.includes("feat-x") ? "vouch: run run-test, node integrate, merge vouch/run-test/a" : "the user's work",
    renameBranch: async (_r: string, from: string, to: string) => {
      calls.push(`rename ${from} ${to}`);
      have.delete(from);
      have.add(to);
    },
    removeWorktree: async (_r: string, path: string) => void calls.push(`remove ${path}`),
    hideVouchDir: async () => {},
    addWorktree: async (_r: string, path: string, branch: string, commit: string) => {
      calls.push(`add ${path} ${branch} ${commit}`);
      have.add(branch);
    },
    diffStat: async () => ({ filesChanged: 2, insertions: 5, deletions: 1 }),
  } as unknown as GitPort;
  const merge: MergePort = {
    mergeBranch: async (_r, onto, branch): Promise<MergeStep> => {
      calls.push(`merge ${branch} onto ${onto}`);
      const source = hex(next++);
      if (conflicts[branch]) return { merged: false, paths: conflicts[branch]!, source };
      return { merged: true, commit: hex(next++), source };
    },
  };
  return { git, merge, calls };
}

const GRAPH = (extra = "", from = "[a, b, c]") => `
version: 1
name: m
nodes:
  a: { kind: script, run: "true" }
  b: { kind: script, run: "true" }
  c: { kind: script, run: "true" }
  integrate:
    kind: merge
    needs: [a, b, c]
    from: ${from}
${extra}
`;

const ports = (g: ReturnType<typeof fakeGit>) => ({ git: g.git, merge: g.merge });
const B = (n: string) => `vouch/run-test/${n}`;

describe("kind: merge", () => {
  test("merges the passed branches in order onto base; a conflicting one is left out and reported with its paths", async () => {
    const g = fakeGit([B("a"), B("b"), B("c")], { [B("b")]: ["src/x.js", "README.md"] });
    const r = await run(GRAPH(), { ports: ports(g) });
    const f = finishedOf(r.events, "integrate");
    expect(f.status).toBe("passed");
    const out = f.output as Record<string, unknown>;
    expect((out.merged as { branch: string }[]).map((m) => m.branch)).toEqual([B("a"), B("c")]);
    expect(out.left_out).toEqual([{ branch: B("b"), from: "b", reason: "merge_conflict", paths: ["src/x.js", "README.md"] }]);
    expect(out).toMatchObject({ branch: B("integrate"), base: "HEAD", base_commit: hex(1), files_changed: 2, insertions: 5, deletions: 1 });
    // Each merge goes onto the last merge commit; b's conflict leaves the tip where a left it.
    expect(g.calls.filter((c) => c.startsWith("merge"))).toEqual([
      `merge ${B("a")} onto ${hex(1)}`,
      `merge ${B("b")} onto ${hex(101)}`,
      `merge ${B("c")} onto ${hex(101)}`,
    ]);
    expect(ofType(r.events, "merge.conflict")).toMatchObject([
      { node: "integrate", git_branch: B("b"), from: "b", paths: ["src/x.js", "README.md"] },
    ]);
    // A passed merge keeps its branch; its worktree is removed.
    expect(g.calls.at(-1)).toBe(`remove /repo/.vouch/worktrees/run-test/integrate`);
  });

  test("the checks run in the merged worktree, at cwd's place in the repository, with VOUCH_WORKSPACE", async () => {
    const g = fakeGit([B("a"), B("b"), B("c")]);
    const commands = new FakeCommandRunner((spec) => (spec.name === "tests" ? { exit: 1, passed: false } : {}));
    const r = await run(GRAPH("    success: { checks: [{ name: lint, run: lint }, { name: tests, run: t }] }"), {
      commands,
      ports: ports(g),
    });
    expect(commands.checks.map((c) => c.ctx.cwd)).toEqual([
      "/repo/.vouch/worktrees/run-test/integrate/pkg",
      "/repo/.vouch/worktrees/run-test/integrate/pkg",
    ]);
    expect(commands.checks[0]!.ctx.vars.VOUCH_WORKSPACE).toBe("/repo/.vouch/worktrees/run-test/integrate");
    const f = finishedOf(r.events, "integrate");
    expect(f).toMatchObject({ status: "failed", cause: "check_failed" });
    // A failed merge's worktree stays to be looked at.
    expect(g.calls.at(-1)).toMatch(/^add /);
    expect(g.calls.filter((c) => c.startsWith("add"))).toEqual([
      `add /repo/.vouch/worktrees/run-test/integrate ${B("integrate")} ${hex(105)}`,
    ]);
  });

  test("all checks pass: verified; no checks: exit-only (nothing checked the merged tree)", async () => {
    const g = fakeGit([B("a"), B("b"), B("c")]);
    const checked = await run(GRAPH("    success: { checks: [{ name: t, run: t }] }"), { ports: ports(g) });
    expect(finishedOf(checked.events, "integrate")).toMatchObject({ status: "passed", qualifier: "verified" });
    const bare = await run(GRAPH(), { ports: ports(fakeGit([B("a"), B("b"), B("c")])) });
    expect(finishedOf(bare.events, "integrate")).toMatchObject({ status: "passed", qualifier: "exit-only" });
  });

  test("every branch conflicting is failed/merge_conflict; no upstream work passed is failed/nothing_to_merge; neither makes a worktree", async () => {
    const all = fakeGit([B("a"), B("b")], { [B("a")]: ["f"], [B("b")]: ["f"] });
    const r = await run(GRAPH("", "[a, b]"), { ports: ports(all) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({ status: "failed", cause: "merge_conflict" });
    expect(all.calls.some((c) => c.startsWith("add"))).toBe(false);
    expect(r.outcome.exitCode).toBe(1);
    const commands = new FakeCommandRunner(undefined, (_s, ctx) => ({ exit: ctx.node === "c" ? 0 : 1 }));
    const none = await run(GRAPH("", "[a, b]").replace("needs: [a, b, c]", "needs: [c]"), { commands, ports: ports(fakeGit([])) });
    const f = finishedOf(none.events, "integrate");
    expect(f).toMatchObject({ status: "failed", cause: "nothing_to_merge" });
    expect(f.error).toBe("nothing was merged: no upstream work passed (a, b did not)");
  });

  // Issue 27 item 3 (test first: this was failed/nothing_to_merge "no upstream work passed").
  test("passed work whose branches are gone is an error naming them, not a failure: that work was never judged", async () => {
    const n = await run(GRAPH("", "[a, b]"), { ports: ports(fakeGit([])) });
    const f = finishedOf(n.events, "integrate");
    expect(f).toMatchObject({ status: "error", cause: "workspace_error" });
    expect(f.error).toBe(
      `nothing was merged: the branches of passed work are gone: ${B("a")} (a), ${B("b")} (b); renamed or deleted after the node passed, that work was never merged or checked here`,
    );
    expect((f.output as { left_out: unknown[] }).left_out).toEqual([
      { branch: B("a"), from: "a", reason: "no_branch", paths: [] },
      { branch: B("b"), from: "b", reason: "no_branch", paths: [] },
    ]);
    expect(n.outcome.exitCode).toBe(3);
  });

  test("into is a template with run.id and inputs; an earlier session's branch of that name is kept as <into>@n", async () => {
    const g = fakeGit([B("a"), B("b"), B("c"), "vouch/run-test/feat-x", "vouch/run-test/feat-x@1"]);
    const r = await run(
      GRAPH('    into: "vouch/{{ run.id }}/{{ inputs.name }}"').replace("name: m\n", "name: m\ninputs: { name: { default: feat-x } }\n"),
      { ports: ports(g) },
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
    const g = fakeGit([B("a"), B("b"), B("c")]);
    const r = await run(GRAPH(`    ${extra}`), { ports: ports(g) });
    const f = finishedOf(r.events, "integrate");
    expect(f.status).toBe("error");
    expect(f.error).toContain(why);
    expect(g.calls.filter((c) => c.startsWith("merge") || c.startsWith("add"))).toEqual([]);
  });

  test("cwd outside a git repository is an error, exit 3", async () => {
    const r = await run(GRAPH(), { ports: ports(fakeGit([], {}, { root: null })) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({ status: "error", cause: "harness_error" });
    expect(finishedOf(r.events, "integrate").error).toContain("not in a git repository");
    expect(r.outcome.exitCode).toBe(3);
  });

  test("a git failure in the middle is the node's error, with git's message", async () => {
    const g = fakeGit([B("a"), B("b"), B("c")]);
    g.merge.mergeBranch = async () => {
      throw new Error("git merge-tree failed (exit 128): fatal: bad object");
    };
    const r = await run(GRAPH(), { ports: ports(g) });
    expect(finishedOf(r.events, "integrate")).toMatchObject({
      status: "error",
      cause: "harness_error",
      error: "the merge could not be made: git merge-tree failed (exit 128): fatal: bad object",
    });
  });

  test("a node that did not pass is not merged and is named in not_passed", async () => {
    const g = fakeGit([B("a"), B("b"), B("c")]);
    const commands = new FakeCommandRunner(undefined, (_s, ctx) => ({ exit: ctx.node === "b" ? 1 : 0 }));
    const r = await run(GRAPH("", "[a, b, c]").replace("needs: [a, b, c]", "needs: [a, c]"), { commands, ports: ports(g) });
    const out = finishedOf(r.events, "integrate").output as { merged: { from: string }[]; not_passed: string[] };
    expect(out.merged.map((m) => m.from)).toEqual(["a", "c"]);
    expect(out.not_passed).toEqual(["b"]);
  });
});

test("a merge holds a process slot: with concurrency 1 it never runs beside a script", async () => {
  const g = fakeGit([B("a")]);
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
  const merge = g.merge.mergeBranch;
  g.merge.mergeBranch = async (...a) => {
    await busy();
    return merge(...a);
  };
  const yaml = `
version: 1
name: m
concurrency: 1
nodes:
  a: { kind: script, run: "true" }
  slow: { kind: script, needs: [a], run: "true" }
  integrate: { kind: merge, needs: [a], from: [a] }
`;
  const r = await run(yaml, { commands, ports: ports(g) });
  expect(finishedOf(r.events, "integrate").status).toBe("passed");
  expect(most).toBe(1);
});
