// A worktree that moved under vouch (ADR 0044): the pure judgement of what moved,
// and the engine making such an attempt an error (workspace_error, naming what
// moved) before it commits anything; committing on top of vouch's commit is work.
import { describe, expect, test } from "vitest";
import type { WorktreeState } from "../../src/engine/ports.ts";
import { worktreeMoved, type KnownWorktree } from "../../src/engine/workspace/worktree-guard.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

const K: KnownWorktree = { path: "/r/wt", gitDir: "/r/.git/worktrees/wt", common: "/r/.git", branch: "vouch/x/n", parent: "a".repeat(40) };
const OK: WorktreeState = {
  link: K.gitDir,
  backLink: "/r/wt/.git",
  common: K.common,
  head: { ref: "refs/heads/vouch/x/n" },
  tip: K.parent,
  descends: true,
};

describe("worktreeMoved", () => {
  test("as vouch left it: nothing moved", () => {
    expect(worktreeMoved(K, OK)).toEqual([]);
  });
  test("each record that changed is named once; a bad link hides what its git dir says", () => {
    expect(worktreeMoved(K, { ...OK, link: null })).toEqual([
      "the git dir vouch records it with (/r/.git/worktrees/wt) is gone, or its .git no longer names it",
    ]);
    expect(worktreeMoved(K, { ...OK, link: "/r/.git" })).toEqual(["its .git link was changed: it names /r/.git, not /r/.git/worktrees/wt"]);
    expect(worktreeMoved(K, { ...OK, common: "/elsewhere/.git" })).toEqual([
      "its git dir was re-pointed at another repository (/elsewhere/.git, not /r/.git)",
    ]);
    expect(worktreeMoved(K, { ...OK, head: { detached: "b".repeat(40) } })).toEqual(["HEAD was detached at bbbbbbbbbbbb"]);
    expect(worktreeMoved(K, { ...OK, head: { ref: "refs/heads/main" } })).toEqual([
      "HEAD was switched to refs/heads/main, not the node's branch vouch/x/n",
    ]);
    expect(worktreeMoved(K, { ...OK, tip: null })).toEqual(["the branch vouch/x/n was deleted"]);
    expect(worktreeMoved(K, { ...OK, tip: "c".repeat(40), descends: false })).toEqual([
      "the branch vouch/x/n was moved from aaaaaaaaaaaa to cccccccccccc, which does not descend from it",
    ]);
    expect(worktreeMoved(K, { ...OK, head: { ref: "refs/heads/main" }, tip: null })).toHaveLength(2);
  });
});

const GRAPH = `
version: 1
name: ws
nodes:
  impl:
    kind: agent
    prompt: implement
    workspace: { mode: worktree }
    success: { checks: [{ name: tests, run: "true" }] }
`;
const WT = `${FAKE_ROOT}/.vouch/worktrees/run-test/impl`;

describe("the engine refuses a worktree that moved", () => {
  test("a sitting that switched HEAD: error workspace_error naming it, no commit, no check", async () => {
    const git = new FakeGit();
    const commands = new FakeCommandRunner();
    const r = await run(GRAPH, {
      git,
      commands,
      agents: (a) => {
        git.edit(a.workspace!, "src/a.ts", "work");
        git.moved.set(WT, { head: { ref: "refs/heads/main" } });
        return {};
      },
    });
    const f = finishedOf(r.events, "impl");
    expect([f.status, f.cause]).toEqual(["error", "workspace_error"]);
    expect(f.error).toContain("HEAD was switched to refs/heads/main");
    expect(git.calls.filter((c) => c.startsWith("commit"))).toEqual([]);
    expect(commands.checks).toEqual([]);
  });

  test("a sitting that committed on top of the start: its commits are its work, and vouch's commit follows them", async () => {
    const git = new FakeGit();
    const r = await run(GRAPH, {
      git,
      agents: (a) => {
        git.edit(a.workspace!, "src/a.ts", "own commit");
        const own = "own1";
        git.commits.set(own, new Map(git.worktrees.get(a.workspace!)!.files));
        git.parents.set(own, git.branches.get("vouch/run-test/impl")!);
        git.branches.set("vouch/run-test/impl", own);
        git.edit(a.workspace!, "src/b.ts", "then more");
        return {};
      },
    });
    const f = finishedOf(r.events, "impl");
    expect(f.status).toBe("passed");
    expect(git.parents.get(f.workspace!.commit)).toBe("own1");
  });
});

describe("the user's repository is watched after each sitting (repo.changed)", () => {
  test("a sitting that changed the config and added a replace ref: one event naming both; vouch's own branches are no change", async () => {
    const git = new FakeGit();
    const r = await run(GRAPH.replace("    success:", "    retry: { max: 1 }\n    success:").replace('run: "true"', 'run: "false"'), {
      git,
      commands: new FakeCommandRunner(() => ({ passed: false, exit: 1 })),
      agents: (a) => {
        git.edit(a.workspace!, "src/a.ts", `work ${a.attempt}`);
        if (a.attempt === 1) {
          git.repoFiles.config = "core.hooksPath = /tmp/evil";
          git.branches.set("replace-me", "c0");
        }
        return {};
      },
    });
    const changed = ofType(r.events, "repo.changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ node: "impl", attempt: 1, repo: FAKE_ROOT, changed: ["config", "refs/heads/replace-me added"] });
  });

  test("a sitting that changes nothing of it: no event", async () => {
    const git = new FakeGit();
    const r = await run(GRAPH, { git, agents: (a) => (git.edit(a.workspace!, "src/a.ts", "w"), {}) });
    expect(ofType(r.events, "repo.changed")).toEqual([]);
  });

  test("it is reported even when the worktree moved too (the attempt is an error)", async () => {
    const git = new FakeGit();
    const r = await run(GRAPH, {
      git,
      agents: () => {
        git.repoFiles.hooks = "a pre-commit hook";
        git.moved.set(WT, { head: { detached: "d".repeat(40) } });
        return {};
      },
    });
    expect(ofType(r.events, "repo.changed")[0]?.changed).toEqual(["hooks"]);
    expect(finishedOf(r.events, "impl").cause).toBe("workspace_error");
  });
});
