// The real MergePort on real repositories: branches merged in git's object
// store (a merge commit by "vouch" with both parents), a conflict reported with
// its paths and nothing left behind, and no checkout touched.
import { rmSync } from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { parseMergeTree, realMerge } from "../../src/workspace/merge-git.ts";
import { GitError } from "../../src/workspace/git-error.ts";
import { fingerprint, git, makeRepo, writeFiles } from "./git-repo.ts";

const made: string[] = [];
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

/** main with a.txt and shared.txt; branch b1 adds one.txt, b2 adds two.txt, b3 and b4 both edit shared.txt. */
function repoWithBranches(): { root: string; base: string } {
  const root = makeRepo({ "a.txt": "a\n", "shared.txt": "base\n" }, "vouch-merge-");
  made.push(root);
  const base = git(root, "rev-parse", "HEAD").trim();
  const branch = (name: string, files: Record<string, string>) => {
    git(root, "checkout", "--quiet", "-b", name, base);
    writeFiles(root, files);
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "-m", name);
  };
  branch("b1", { "one.txt": "1\n" });
  branch("b2", { "two.txt": "2\n" });
  branch("b3", { "shared.txt": "three\n" });
  branch("b4", { "shared.txt": "four\n", "four.txt": "4\n" });
  git(root, "checkout", "--quiet", "main");
  return { root, base };
}

const rev = (root: string, ref: string) => git(root, "rev-parse", ref).trim();
const files = (root: string, commit: string) => git(root, "ls-tree", "-r", "--name-only", commit).trim().split("\n");

describe("mergeCommit", () => {
  test("two branches merge onto base: a merge commit by vouch with both parents holding both files; the checkout is untouched", async () => {
    const { root, base } = repoWithBranches();
    const before = fingerprint(root);
    const one = await realMerge.mergeCommit(root, base, rev(root, "b1"), "merge b1");
    if (!one.merged) throw new Error("b1 should merge");
    const two = await realMerge.mergeCommit(root, one.commit, rev(root, "b2"), "merge b2");
    if (!two.merged) throw new Error("b2 should merge");
    expect(files(root, two.commit)).toEqual(["a.txt", "one.txt", "shared.txt", "two.txt"]);
    expect(git(root, "log", "-1", "--format=%an <%ae>|%cn|%P|%s", two.commit).trim()).toBe(
      `vouch <vouch@localhost>|vouch|${one.commit} ${git(root, "rev-parse", "b2").trim()}|merge b2`,
    );
    expect(two.source).toBe(git(root, "rev-parse", "b2").trim());
    expect(fingerprint(root)).toEqual(before);
  });

  test("a branch that conflicts with what was merged before it names the conflicting paths and leaves nothing behind", async () => {
    const { root, base } = repoWithBranches();
    const before = fingerprint(root);
    const refs = git(root, "for-each-ref", "--format=%(refname) %(objectname)");
    const three = await realMerge.mergeCommit(root, base, rev(root, "b3"), "merge b3");
    if (!three.merged) throw new Error("b3 should merge");
    const four = await realMerge.mergeCommit(root, three.commit, rev(root, "b4"), "merge b4");
    expect(four).toEqual({ merged: false, paths: ["shared.txt"], source: git(root, "rev-parse", "b4").trim() });
    expect(git(root, "for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
    expect(fingerprint(root)).toEqual(before);
  });

  test("a source the repository does not hold, one that is no commit id, and an onto that is not a commit id are GitErrors", async () => {
    const { root, base } = repoWithBranches();
    await expect(realMerge.mergeCommit(root, base, "e".repeat(40), "m")).rejects.toThrow(/judged commit e{40} is not in the repository/);
    await expect(realMerge.mergeCommit(root, base, "--all", "m")).rejects.toBeInstanceOf(GitError);
    await expect(realMerge.mergeCommit(root, "--help", rev(root, "b1"), "m")).rejects.toThrow(/not a commit id/);
  });

  test("the commit given is merged, whatever its branch names now", async () => {
    const { root, base } = repoWithBranches();
    const judged = rev(root, "b1");
    git(root, "branch", "--force", "b1", "b3"); // the branch moved after its commit was judged
    const m = await realMerge.mergeCommit(root, base, judged, "m");
    if (!m.merged) throw new Error("b1's judged commit should merge");
    expect(files(root, m.commit)).toEqual(["a.txt", "one.txt", "shared.txt"]);
    expect(git(root, "show", `${m.commit}:shared.txt`)).toBe("base\n");
  });

  test("a path with spaces, quotes or a newline conflicts under its own name", async () => {
    const root = makeRepo({ 'we ird\n"name".txt': "base\n" }, "vouch-merge-");
    made.push(root);
    const base = git(root, "rev-parse", "HEAD").trim();
    for (const [name, text] of [
      ["x", "x\n"],
      ["y", "y\n"],
    ]) {
      git(root, "checkout", "--quiet", "-b", name!, base);
      writeFiles(root, { 'we ird\n"name".txt': text! });
      git(root, "commit", "--quiet", "-am", name!);
    }
    const x = await realMerge.mergeCommit(root, base, rev(root, "x"), "m");
    if (!x.merged) throw new Error("x should merge");
    const y = await realMerge.mergeCommit(root, x.commit, rev(root, "y"), "m");
    expect(y.merged ? [] : y.paths).toEqual(['we ird\n"name".txt']);
  });
});

test("parseMergeTree: the tree, then each conflicting path once", () => {
  expect(parseMergeTree("abc\0f\0f\0g\0")).toEqual({ tree: "abc", paths: ["f", "g"] });
  expect(parseMergeTree("abc\0")).toEqual({ tree: "abc", paths: [] });
});
