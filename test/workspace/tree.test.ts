// A node's tree of its own (ADR 0041), on real repositories: a private clone the
// sitting may do anything with, borrowing the user's objects; vouch records
// with its own git dir beside it, so nothing the sitting does to the clone's
// git (config that runs programs, hooks, index flags, excludes, branch moves,
// a deleted .git) reaches vouch's record or the user's repository.
import { existsSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { realGit as g } from "../../src/workspace/git.ts";
import { vouchGitDir } from "../../src/workspace/tree.ts";
import { git, makeRepo, records, writeFiles } from "./git-repo.ts";

const made: string[] = [];
function repo(): string {
  const r = makeRepo({ "a.txt": "one\n", "test/t.sh": "exit 0\n", "src/m.ts": "export const x = 1;\n" });
  made.push(r);
  return r;
}
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

async function tree(r: string, node = "n"): Promise<{ wt: string; base: string; branch: string }> {
  const base = (await g.resolveCommit(r, "HEAD"))!;
  const wt = join(r, ".vouch", "worktrees", "run1", node);
  const branch = `vouch/run1/${node}`;
  await g.hideVouchDir(r);
  await g.addWorktree(r, wt, branch, base);
  return { wt, base, branch };
}

const changed = async (r: string, base: string, commit: string) => (await g.changedPaths(r, base, commit)).map((c) => c.path).sort();

describe("the tree: a clone of its own", () => {
  test("its git works for the sitting (status clean, log through the borrowed objects, a commit of its own)", async () => {
    const r = repo();
    const { wt, branch } = await tree(r);
    expect(git(wt, "status", "--porcelain")).toBe("");
    expect(git(wt, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe(branch);
    expect(git(wt, "log", "--format=%s").trim()).toBe("initial");
    writeFiles(wt, { "a.txt": "agent\n" });
    git(wt, "commit", "-qam", "the agent's own commit");
    expect(git(wt, "log", "--format=%s").trim().split("\n")).toEqual(["the agent's own commit", "initial"]);
    // Its objects are its own: the user's store did not get the agent's commit.
    const agentCommit = git(wt, "rev-parse", "HEAD").trim();
    expect(() => git(r, "cat-file", "-e", agentCommit)).toThrow();
  });

  test("the user's repository registers no worktree; only vouch's branch is new; its records are otherwise byte-identical", async () => {
    const r = repo();
    const before = records(r);
    const { wt, base, branch } = await tree(r);
    writeFiles(wt, { "a.txt": "two\n" });
    const commit = await g.commitAll(wt, "vouch: attempt 1");
    expect(git(r, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(git(r, "rev-parse", `refs/heads/${branch}`).trim()).toBe(commit);
    expect(git(r, "rev-parse", `${commit}^`).trim()).toBe(base);
    expect(records(r)).toEqual(before);
  });

  test("removeWorktree removes the tree and vouch's git dir; the branch stays", async () => {
    const r = repo();
    const { wt, branch } = await tree(r);
    await g.removeWorktree(r, wt);
    expect(existsSync(wt)).toBe(false);
    expect(existsSync(vouchGitDir(wt))).toBe(false);
    expect(await g.branchExists(r, branch)).toBe(true);
  });
});

describe("vouch never runs the sitting's git records", () => {
  test("config that runs programs (fsmonitor, a clean filter, hooks, hooksPath) in the clone runs nothing when vouch commits", async () => {
    const r = repo();
    const { wt, base } = await tree(r);
    const marker = join(r, "..", `${r.split("/").pop()}-pwned`);
    const script = join(wt, "pwn.sh");
    writeFileSync(script, `#!/bin/sh\necho ran >> ${marker}\ncat\n`);
    chmodSync(script, 0o755);
    git(wt, "config", "core.fsmonitor", script);
    git(wt, "config", "filter.pwn.clean", script);
    git(wt, "config", "core.hooksPath", join(wt, "hooks"));
    writeFiles(wt, { ".git/info/attributes": "* filter=pwn\n", "hooks/pre-commit": `#!/bin/sh\necho hook >> ${marker}\n` });
    chmodSync(join(wt, "hooks", "pre-commit"), 0o755);
    writeFiles(wt, { "a.txt": "changed\n" });
    const commit = await g.commitAll(wt, "vouch: attempt 1");
    expect(existsSync(marker)).toBe(false);
    expect(git(r, "show", `${commit}:a.txt`)).toBe("changed\n");
    expect(await changed(r, base, commit)).toContain("a.txt");
  });

  test("index flags and excludes in the clone hide nothing from vouch's record", async () => {
    const r = repo();
    const { wt, base } = await tree(r);
    git(wt, "update-index", "--assume-unchanged", "test/t.sh");
    git(wt, "update-index", "--skip-worktree", "src/m.ts");
    writeFiles(wt, {
      "test/t.sh": "exit 0 # tampered\n",
      "src/m.ts": "export const x = 2;\n",
      ".git/info/exclude": "hidden.txt\n",
      "hidden.txt": "new\n",
    });
    expect(git(wt, "status", "--porcelain")).toBe("");
    const commit = await g.commitAll(wt, "vouch: attempt 1");
    expect(await changed(r, base, commit)).toEqual(["hidden.txt", "src/m.ts", "test/t.sh"]);
  });

  test("branch moves and resets in the clone do not move vouch's branch; a deleted .git does not stop the record", async () => {
    const r = repo();
    const { wt, branch } = await tree(r);
    writeFiles(wt, { "a.txt": "attempt one\n" });
    const first = await g.commitAll(wt, "vouch: attempt 1");
    git(wt, "checkout", "-q", "-b", "elsewhere");
    git(wt, "commit", "-q", "--allow-empty", "-m", "detour");
    git(wt, "branch", "-f", branch, "HEAD");
    expect(git(r, "rev-parse", `refs/heads/${branch}`).trim()).toBe(first);
    rmSync(join(wt, ".git"), { recursive: true, force: true });
    writeFiles(wt, { "a.txt": "attempt two\n" });
    const second = await g.commitAll(wt, "vouch: attempt 2");
    expect(git(r, "rev-parse", `${second}^`).trim()).toBe(first);
    expect(git(r, "show", `${second}:a.txt`)).toBe("attempt two\n");
    expect(await changed(r, first, second)).toEqual(["a.txt"]);
  });

  test("restorePaths puts a protected path back with vouch's git, whatever the clone's index says", async () => {
    const r = repo();
    const { wt, base } = await tree(r);
    git(wt, "update-index", "--skip-worktree", "test/t.sh");
    writeFiles(wt, { "test/t.sh": "exit 0 # tampered\n" });
    await g.commitAll(wt, "vouch: attempt 1");
    await g.restorePaths(wt, base, ["test/t.sh"]);
    expect(readFileSync(join(wt, "test", "t.sh"), "utf8")).toBe("exit 0\n");
  });
});
