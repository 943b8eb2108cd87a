// The engine's use of worktrees (ADR 0020), with a fake GitPort: tampering
// fails the attempt and is retried with the paths named, checks run in the
// worktree, `from` starts at the upstream's commit, `keep` decides removals,
// and a worktree that cannot be made is an error, never a pass.
import { describe, expect, test } from "vitest";
import { GitPortError } from "../../src/engine/errors.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FAKE_BASE, FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";
import { finishedOf, graphOf, run, runFinished } from "./helpers/run-helper.ts";

const WT = `${FAKE_ROOT}/.vouch/worktrees/run-test`;

function graph(workspace: string, extra = ""): string {
  return `
version: 1
name: ws
nodes:
  impl:
    kind: agent
    prompt: implement
    workspace: ${workspace}
    success: { checks: [{ name: tests, run: "sh test/t.sh" }] }
${extra}`;
}

describe("tampering", () => {
  test("an attempt that edits a protected path fails tampered, is restored, and the retry prompt names the path", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner();
    const r = await run(graph('{ mode: worktree, protect: ["test/**"] }', "    retry: { max: 1 }"), {
      commands,
      git,
      agents: (a) => {
        git.edit(a.workspace!, "src/a.ts", `a${a.attempt}`);
        if (a.attempt === 1) git.edit(a.workspace!, "test/t.sh", "exit 0 # trust me");
        return {};
      },
    });
    const f = finishedOf(r.events, "impl");
    expect({ status: f.status, attempt: f.attempt }).toEqual({ status: "passed", attempt: 2 });
    const retrying = r.events.find((e) => e.type === "node.retrying");
    expect(retrying?.type === "node.retrying" && retrying.cause).toBe("tampered");
    expect(r.agents.prompts("impl")[1]).toContain("test/t.sh");
    expect(git.calls).toContain("restore test/t.sh");
    // The checks ran once, for attempt 2, on a tree of attempt 2's commit (ADR 0043), which VOUCH_WORKSPACE names.
    const tree = `${FAKE_ROOT}/.vouch/trees/run-test/impl/2-1`;
    expect(commands.checks.map((c) => [c.ctx.attempt, c.ctx.cwd, c.ctx.vars.VOUCH_WORKSPACE, c.ctx.checkTree?.dir])).toEqual([
      [2, tree, tree, tree],
    ]);
    expect(git.treesMade).toEqual([{ dir: tree, commit: "c2" }]);
    expect(git.trees.size).toBe(0); // removed after the check
    expect(f.workspace).toEqual({
      branch: "vouch/run-test/impl",
      base: FAKE_BASE,
      commit: "c2",
      files_changed: 1,
      insertions: 1,
      deletions: 1,
      path: `${WT}/impl`,
    });
  });

  test("without retry the node is failed/tampered and its checks never run; a rename out of a protected folder counts", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner();
    const r = await run(graph('{ mode: worktree, protect: ["test/**"] }'), {
      commands,
      git,
      agents: (a) => {
        git.edit(a.workspace!, "test/t.sh", null);
        git.edit(a.workspace!, "t.sh", "exit 0");
        return {};
      },
    });
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause]).toEqual(["failed", "tampered"]);
    expect(f.workspace?.tampered).toEqual(["test/t.sh"]);
    expect(commands.checks).toEqual([]);
    expect(runFinished(r.events).exit_code).toBe(1);
  });
});

describe("setting up", () => {
  test("a worktree that cannot be made is error/workspace_error: no sitting starts", async () => {
    const git = new FakeGit();
    git.failAdd = new GitPortError(["worktree", "add"], "git worktree failed (exit 128): fatal: disk full");
    const r = await run(graph("{ mode: worktree }"), { git });
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause]).toEqual(["error", "workspace_error"]);
    expect(f.error).toContain("disk full");
    expect(r.agents.assignments).toEqual([]);
    expect(runFinished(r.events).exit_code).toBe(3);
  });

  test("an error that only calls itself GitError is no git failure: it ends the run, not as the node's workspace_error", async () => {
    const git = new FakeGit();
    git.failAdd = Object.assign(new Error("a bug somewhere"), { name: "GitError" });
    await expect(run(graph("{ mode: worktree }"), { git })).rejects.toThrow("a bug somewhere");
  });

  test("a run id that would climb out of .vouch/worktrees or read as an option never reaches git", async () => {
    for (const runId of ["../../etc", "-rf", ".hidden", "a/b"]) {
      const git = new FakeGit();
      const r = await run(graph("{ mode: worktree }"), { git, options: { runId } });
      const f = finishedOf(r.events, "impl");
      expect([f.status, f.cause]).toEqual(["error", "workspace_error"]);
      expect(f.error).toContain("cannot name a branch or a folder");
      expect(git.calls).toEqual([]);
    }
  });

  test("shared mode (the default) never touches git", async () => {
    const r = await run(graph("{ mode: shared }"), {});
    expect(finishedOf(r.events, "impl").status).toBe("passed");
  });

  test("cwd keeps its meaning relative to the repository root", async () => {
    const git = new FakeGit();
    const r = await run(graph("{ mode: worktree }", "    cwd: sub/dir"), { git });
    expect(r.agents.assignments[0]!.cwd).toBe(`${WT}/impl/sub/dir`);
    expect(r.agents.assignments[0]!.workspace).toBe(`${WT}/impl`);
  });
});

describe("from and keep", () => {
  const chain = `
version: 1
name: ws
nodes:
  impl:
    kind: agent
    prompt: implement
    workspace: { mode: worktree, keep: always }
  review:
    kind: agent
    needs: [impl]
    prompt: review
    workspace: { from: impl }
`;
  test("from starts the node's own worktree at the upstream's last commit: it sees the upstream's work", async () => {
    const git = new FakeGit();
    let seen: string | undefined;
    const r = await run(chain, {
      git,
      agents: (a) => {
        if (a.node === "impl") git.edit(a.workspace!, "src/a.ts", "implemented");
        else seen = git.worktrees.get(a.workspace!)!.files.get("src/a.ts");
        return {};
      },
    });
    expect(seen).toBe("implemented");
    const impl = finishedOf(r.events, "impl").workspace!;
    const review = finishedOf(r.events, "review").workspace!;
    expect(review.base).toBe(impl.commit);
    expect(review.branch).toBe("vouch/run-test/review");
    expect(review.files_changed).toBe(0);
    // keep: always kept impl's worktree; review's (on_failure, passed) was removed.
    expect(git.calls.filter((c) => c.startsWith("remove"))).toEqual([`remove ${WT}/review`]);
  });

  test("a feedback round continues in the node's own worktree (one worktree, its commits name the round); the from node starts afresh at the new commit", async () => {
    const git = new FakeGit();
    const loop = chain.replace("    workspace: { from: impl }\n", "    workspace: { from: impl }\n    feedback: { to: impl, max: 1 }\n");
    let round = 0;
    const r = await run(loop, {
      git,
      agents: (a) => {
        if (a.node === "impl") git.edit(a.workspace!, "src/a.ts", `round ${++round}`);
        // The review fails round 1, so the loop runs implement again.
        return a.node === "review" && a.round === 1 ? { exitCode: 1 } : {};
      },
    });
    expect(git.calls.filter((c) => c.startsWith(`add ${WT}/impl `))).toHaveLength(1);
    expect(git.calls.filter((c) => c.startsWith("commit")).map((c) => c.replace(/^commit c\d+ /, ""))).toEqual([
      "vouch: run run-test, node impl, attempt 1",
      "vouch: run run-test, node impl, attempt 1, round 2",
    ]);
    expect(git.calls).toContain("rename vouch/run-test/review vouch/run-test/review@1");
    const reviews = r.events
      .filter((e) => e.type === "node.finished" && e.node === "review")
      .map((e) => (e.type === "node.finished" ? e.workspace!.base : ""));
    const impls = r.events
      .filter((e) => e.type === "node.finished" && e.node === "impl")
      .map((e) => (e.type === "node.finished" ? e.workspace!.commit : ""));
    expect(reviews).toEqual(impls);
  });

  test("keep: never removes a failed node's worktree; on_failure keeps it; the branches stay", async () => {
    for (const [keep, removed] of [
      ["never", true],
      ["on_failure", false],
    ] as const) {
      const git = new FakeGit();
      await run(graph(`{ mode: worktree, keep: ${keep} }`), { git, commands: new FakeCommandRunner(() => ({ passed: false, exit: 1 })) });
      expect(git.worktrees.has(`${WT}/impl`)).toBe(!removed);
      expect(git.branches.has("vouch/run-test/impl")).toBe(true);
    }
  });

  test("resume: a node that runs again sets the earlier try aside (<branch>@1) and starts fresh from base", async () => {
    const git = new FakeGit();
    await git.addWorktree(FAKE_ROOT, `${WT}/impl`, "vouch/run-test/impl", FAKE_BASE);
    git.edit(`${WT}/impl`, "src/a.ts", "half-done");
    const r = await run(graph("{ mode: worktree }"), { git, options: { resume: { startSeq: 0, nodes: {}, branches: {} } } });
    expect(finishedOf(r.events, "impl").status).toBe("passed");
    expect(git.calls).toContain("rename vouch/run-test/impl vouch/run-test/impl@1");
    // What the dead session left uncommitted is kept on the renamed branch.
    expect(git.commits.get(git.branches.get("vouch/run-test/impl@1")!)!.get("src/a.ts")).toBe("half-done");
    expect(finishedOf(r.events, "impl").workspace!.base).toBe(FAKE_BASE);
  });
});

test("a sub-graph node's attempt commit names its whole prefixed id (s/impl), not its last part", async () => {
  const git = new FakeGit();
  const inner = `version: 1\nname: inner\nnodes:\n  impl: { kind: agent, prompt: implement, workspace: { mode: worktree } }\n`;
  const r = await run(`version: 1\nname: t\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
    git,
    agents: (a) => {
      git.edit(a.workspace!, "src/a.ts", "changed");
      return {};
    },
    options: { baseDir: FAKE_ROOT, subgraphs: new Map([["/work/inner.yaml", graphOf(inner)]]) },
  });
  expect(finishedOf(r.events, "s/impl").status).toBe("passed");
  expect(git.calls.filter((c) => c.startsWith("commit "))).toEqual(["commit c1 vouch: run run-test, node s/impl, attempt 1"]);
});
