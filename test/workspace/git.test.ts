// The real git port on real repositories: worktrees on new branches, commits by
// "vouch", diff stats, changed paths (renames), restores from a commit, and the
// user's checkout left as it was.
import { existsSync, readFileSync, rmSync, writeFileSync, unlinkSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { realGit as g, parseNameStatus, parseNumstat } from "../../src/workspace/git.ts";
import { GitError } from "../../src/workspace/git-error.ts";
import { fingerprint, git, makeRepo, writeFiles } from "./git-repo.ts";

const made: string[] = [];
function repo(files: Record<string, string> = { "a.txt": "one\ntwo\n", "test/t.sh": "exit 0\n" }): string {
  const r = makeRepo(files);
  made.push(r);
  return r;
}
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

describe("finding the repository and commits", () => {
  test("repoRoot is the top of the work tree from a subfolder, null outside a repository", async () => {
    const r = repo();
    expect(await g.repoRoot(join(r, "test"))).toBe(r);
    expect(await g.repoRoot("/")).toBeNull();
  });
  test("resolveCommit gives the full id of a branch or HEAD, null for an unknown ref or one starting with -", async () => {
    const r = repo();
    const head = git(r, "rev-parse", "HEAD").trim();
    expect(await g.resolveCommit(r, "HEAD")).toBe(head);
    expect(await g.resolveCommit(r, "main")).toBe(head);
    expect(await g.resolveCommit(r, "no-such-branch")).toBeNull();
    expect(await g.resolveCommit(r, "--all")).toBeNull();
    expect(await g.resolveCommit(r, "-h")).toBeNull();
  });
  test("hasUncommittedChanges sees an edited file and an untracked one, not vouch's own .vouch folder", async () => {
    const r = repo();
    writeFiles(r, { ".vouch/ledger.sqlite": "x" });
    expect(await g.hasUncommittedChanges(r)).toBe(false);
    writeFileSync(join(r, "new.txt"), "x");
    expect(await g.hasUncommittedChanges(r)).toBe(true);
  });
});

describe("a worktree, a commit, the diff", () => {
  test("a worktree on a new branch sees base's files; a commit by vouch carries its changes; the user's checkout is untouched", async () => {
    const r = repo();
    const before = fingerprint(r);
    const base = (await g.resolveCommit(r, "HEAD"))!;
    const wt = join(r, ".vouch", "worktrees", "run1", "n");
    await g.addWorktree(r, wt, "vouch/run1/n", base);
    expect(readFileSync(join(wt, "a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(await g.branchExists(r, "vouch/run1/n")).toBe(true);
    writeFiles(wt, { "a.txt": "one\nTWO\nthree\n", "b b.txt": "new\n" });
    const commit = await g.commitAll(wt, "vouch: run run1, node n, attempt 1");
    expect(commit).not.toBe(base);
    expect(git(r, "log", "-1", "--format=%an <%ae>|%cn|%s", commit).trim()).toBe(
      "vouch <vouch@localhost>|vouch|vouch: run run1, node n, attempt 1",
    );
    expect(await g.diffStat(r, base, commit)).toEqual({ filesChanged: 2, insertions: 3, deletions: 1 });
    const patch = await g.diff(r, base, commit, 1 << 20);
    expect(patch.truncated).toBe(false);
    expect(patch.text).toContain("+TWO");
    expect((await g.diff(r, base, commit, 10)).truncated).toBe(true);
    expect(await g.changedPaths(r, base, commit)).toEqual([
      { status: "modified", path: "a.txt" },
      { status: "added", path: "b b.txt" },
    ]);
    const after = fingerprint(r);
    // .vouch/ shows as untracked unless vouch hides it (the engine writes .vouch/.gitignore); the rest is identical.
    expect({ ...after, status: "" }).toEqual({ ...before, status: "" });
  });
  test("nothing changed: commitAll makes no commit and returns the current HEAD", async () => {
    const r = repo();
    const base = (await g.resolveCommit(r, "HEAD"))!;
    const wt = join(r, ".wt");
    await g.addWorktree(r, wt, "b", base);
    expect(await g.commitAll(wt, "m")).toBe(base);
  });
  test("changedPaths names removes and renames (both sides); restorePaths puts protected paths back and removes added ones", async () => {
    const r = repo({ "test/t.sh": "exit 0\n", "test/u.sh": "a\nb\nc\nd\ne\n", "keep.txt": "k\n" });
    const base = (await g.resolveCommit(r, "HEAD"))!;
    const wt = join(r, ".wt");
    await g.addWorktree(r, wt, "b", base);
    unlinkSync(join(wt, "test/t.sh"));
    renameSync(join(wt, "test/u.sh"), join(wt, "moved.sh"));
    writeFiles(wt, { "test/added.sh": "echo something else entirely\n", "keep.txt": "changed\n" });
    const commit = await g.commitAll(wt, "m");
    const changed = await g.changedPaths(r, base, commit);
    expect(changed).toContainEqual({ status: "removed", path: "test/t.sh" });
    expect(changed).toContainEqual({ status: "renamed", path: "moved.sh", from: "test/u.sh" });
    expect(changed).toContainEqual({ status: "added", path: "test/added.sh" });
    await g.restorePaths(wt, base, ["test/t.sh", "test/u.sh", "test/added.sh"]);
    expect(readFileSync(join(wt, "test/t.sh"), "utf8")).toBe("exit 0\n");
    expect(readFileSync(join(wt, "test/u.sh"), "utf8")).toBe("a\nb\nc\nd\ne\n");
    expect(existsSync(join(wt, "test/added.sh"))).toBe(false);
    expect(readFileSync(join(wt, "keep.txt"), "utf8")).toBe("changed\n");
  });
  test("a path with glob characters is restored literally, not as a pattern", async () => {
    const r = repo({ "t/[ab].txt": "lit\n", "t/a.txt": "a\n" });
    const base = (await g.resolveCommit(r, "HEAD"))!;
    const wt = join(r, ".wt");
    await g.addWorktree(r, wt, "b", base);
    writeFiles(wt, { "t/[ab].txt": "edited\n", "t/a.txt": "edited\n" });
    await g.commitAll(wt, "m");
    await g.restorePaths(wt, base, ["t/[ab].txt"]);
    expect(readFileSync(join(wt, "t/[ab].txt"), "utf8")).toBe("lit\n");
    expect(readFileSync(join(wt, "t/a.txt"), "utf8")).toBe("edited\n");
  });
  test("removeWorktree removes the folder and keeps the branch; renameBranch and deleteBranch", async () => {
    const r = repo();
    const wt = join(r, ".wt");
    await g.addWorktree(r, wt, "vouch/x/n", "HEAD");
    writeFileSync(join(wt, "dirty"), "uncommitted");
    await g.removeWorktree(r, wt);
    expect(existsSync(wt)).toBe(false);
    expect(await g.branchExists(r, "vouch/x/n")).toBe(true);
    await g.renameBranch(r, "vouch/x/n", "vouch/x/n@1");
    expect(await g.branchExists(r, "vouch/x/n")).toBe(false);
    expect(await g.branchExists(r, "vouch/x/n@1")).toBe(true);
    await g.deleteBranch(r, "vouch/x/n@1");
    expect(await g.branchExists(r, "vouch/x/n@1")).toBe(false);
  });
});

describe("listing and hiding", () => {
  test("listWorktrees names the main checkout, git's worktrees and vouch's trees under .vouch/worktrees; listBranches only those under the prefix", async () => {
    const r = repo();
    const wt = join(r, ".vouch", "worktrees", "run1", "m", "0", "n");
    await g.addWorktree(r, wt, "vouch/run1/m/0/n", "HEAD");
    await g.addWorktree(r, join(r, ".wt2"), "vouch-other", "HEAD");
    git(r, "worktree", "add", "--quiet", "-b", "users-own", join(r, ".users-wt"));
    expect((await g.listWorktrees(r)).sort()).toEqual([r, wt, join(r, ".users-wt")].sort());
    expect(await g.hasWorktree(r, join(r, ".wt2"))).toBe(true);
    expect(await g.hasWorktree(r, join(r, ".users-wt"))).toBe(true);
    expect(await g.hasWorktree(r, join(r, "test"))).toBe(false);
    expect(await g.listBranches(r, "vouch/")).toEqual(["vouch/run1/m/0/n"]);
    expect(await g.cwdPrefix(join(r, "test"))).toBe("test/");
    expect(await g.cwdPrefix(r)).toBe("");
  });
  test("hideVouchDir keeps .vouch/ (and worktrees in it) out of git status; it never rewrites an existing file", async () => {
    const r = repo();
    await g.addWorktree(r, join(r, ".vouch", "worktrees", "x", "n"), "b", "HEAD");
    expect(git(r, "status", "--porcelain")).toBe("?? .vouch/\n");
    await g.hideVouchDir(r);
    expect(git(r, "status", "--porcelain", "--untracked-files=all")).toBe("");
    writeFileSync(join(r, ".vouch", ".gitignore"), "mine\n");
    await g.hideVouchDir(r);
    expect(readFileSync(join(r, ".vouch", ".gitignore"), "utf8")).toBe("mine\n");
  });
});

describe("hostile values", () => {
  test("a branch or commit starting with - is a GitError, never an option to git", async () => {
    const r = repo();
    await expect(g.addWorktree(r, join(r, ".wt"), "-D", "HEAD")).rejects.toBeInstanceOf(GitError);
    await expect(g.addWorktree(r, join(r, ".wt"), "ok", "--orphan")).rejects.toBeInstanceOf(GitError);
    await expect(g.diffStat(r, "--output=/tmp/x", "HEAD")).rejects.toBeInstanceOf(GitError);
    await expect(g.deleteBranch(r, "--all")).rejects.toBeInstanceOf(GitError);
  });
  test("a git failure is a GitError naming the command and git's message", async () => {
    const r = repo();
    const err = await g.addWorktree(r, join(r, ".wt"), "a..b", "HEAD").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).message).toMatch(/^git update-ref failed \(exit \d+\): .*a\.\.b/);
  });
  test("the user's GIT_INDEX_FILE and GIT_DIR do not reach git", async () => {
    const r = repo();
    const other = repo({ "z.txt": "z" });
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = join(other, ".git");
    process.env.GIT_INDEX_FILE = join(other, ".git", "index");
    try {
      expect(await g.repoRoot(join(r, "test"))).toBe(r);
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
      else process.env.GIT_INDEX_FILE = saved.index;
    }
  });
});

describe("parsers", () => {
  test("numstat: binary files count as changed with no lines", () => {
    expect(parseNumstat("3\t1\ta.txt\0-\t-\timg.png\0")).toEqual({ filesChanged: 2, insertions: 3, deletions: 1 });
    expect(parseNumstat("")).toEqual({ filesChanged: 0, insertions: 0, deletions: 0 });
  });
  test("name-status: a path with a newline or tab parses whole", () => {
    expect(parseNameStatus("M\0a\nb\0R087\0old\tx\0new\0")).toEqual([
      { status: "modified", path: "a\nb" },
      { status: "renamed", path: "new", from: "old\tx" },
    ]);
  });
});
