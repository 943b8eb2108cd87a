// The real git port against what a sitting can do to its tree's git records when
// nothing confines it (ADR 0044): index flags in the index vouch records with,
// the shared info/exclude, a replace ref, vouch's git dir removed or re-pointed,
// HEAD switched or detached, the branch moved; for a linked worktree an earlier
// vouch made, a rewritten or removed .git link. vouch's reads see through each;
// its commit lands on the node's branch or nowhere, never on the user's.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { realGit as g } from "../../src/workspace/git.ts";
import { worktreeMoved } from "../../src/engine/workspace/worktree-guard.ts";
import { repoChanges } from "../../src/engine/workspace/repo-watch.ts";
import { git, makeRepo, writeFiles } from "./git-repo.ts";

const made: string[] = [];
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

interface Made {
  r: string;
  wt: string;
  base: string;
  gitDir: string;
  common: string;
  branch: string;
}

/** A node's tree as vouch makes it now (a tree of its own, ADR 0041), or a linked worktree as an earlier vouch made it. */
async function worktree(kind: "own" | "linked" = "own", files = { "test/t.sh": "exit 0\n", "src/a.txt": "a\n" }): Promise<Made> {
  const r = makeRepo(files);
  made.push(r);
  const base = git(r, "rev-parse", "HEAD").trim();
  const wt = join(r, ".vouch", "worktrees", "run1", "n");
  const branch = "vouch/run1/n";
  await g.hideVouchDir(r);
  if (kind === "own") await g.addWorktree(r, wt, branch, base);
  else git(r, "worktree", "add", "-q", "-b", branch, wt, base);
  const s = await g.worktreeState(r, wt, branch, base);
  return { r, wt, base, gitDir: s.link!, common: await g.commonDir(r), branch };
}

async function record(m: Made, parent = m.base): Promise<string> {
  return g.recordAttempt({ path: m.wt, gitDir: m.gitDir, branch: m.branch, parent }, "m");
}

const state = (m: Made, parent = m.base) => g.worktreeState(m.r, m.wt, m.branch, parent);

function moved(m: Made, s: Awaited<ReturnType<typeof g.worktreeState>>, parent = m.base): string[] {
  return worktreeMoved({ path: m.wt, gitDir: m.gitDir, common: m.common, branch: m.branch, parent }, s);
}

/** git as vouch's own git dir of the tree would run it: what an unconfined sitting can do to it too. */
const vouchGit = (m: Made, ...args: string[]) => git(m.wt, `--git-dir=${m.gitDir}`, `--work-tree=${m.wt}`, ...args);

describe("what a fresh tree's records say", () => {
  test("a tree of its own: vouch's git dir beside it, of this repository, HEAD on the node's branch at base", async () => {
    const m = await worktree();
    expect(m.gitDir).toBe(`${m.wt}.git`);
    const s = await state(m);
    expect(s).toMatchObject({ common: m.common, head: { ref: `refs/heads/${m.branch}` }, tip: m.base, descends: true });
    expect(moved(m, s)).toEqual([]);
  });
  test("a linked worktree an earlier vouch made: its .git names a git dir of this repository that names it back", async () => {
    const m = await worktree("linked");
    const s = await state(m);
    expect(s.link!.startsWith(join(m.common, "worktrees"))).toBe(true);
    expect(s).toMatchObject({ backLink: `${m.wt}/.git`, common: m.common, head: { ref: `refs/heads/${m.branch}` }, tip: m.base });
    expect(moved(m, s)).toEqual([]);
  });
});

describe("index flags and excludes hide nothing from vouch's commit", () => {
  test.each(["own", "linked"] as const)(
    "%s: an edit hidden by assume-unchanged or skip-worktree in the index vouch records with is committed",
    async (kind) => {
      const m = await worktree(kind);
      vouchGit(m, "update-index", "--assume-unchanged", "test/t.sh");
      vouchGit(m, "update-index", "--skip-worktree", "src/a.txt");
      writeFiles(m.wt, { "test/t.sh": "exit 1\n", "src/a.txt": "changed\n" });
      expect(vouchGit(m, "status", "--porcelain")).toBe(""); // git itself no longer sees them
      const commit = await record(m);
      expect((await g.changedPaths(m.r, m.base, commit)).map((c) => c.path).sort()).toEqual(["src/a.txt", "test/t.sh"]);
      // The index vouch records with matches the commit: the flags are gone with it.
      expect(
        vouchGit(m, "ls-files", "-v")
          .split("\n")
          .filter((l) => l !== "" && !l.startsWith("H ")),
      ).toEqual([]);
    },
  );

  test("a new file the shared info/exclude hides is committed; one the tree's own .gitignore excludes is not", async () => {
    const m = await worktree();
    writeFileSync(join(m.common, "info", "exclude"), "conftest.py\n");
    writeFiles(m.wt, { "conftest.py": "import sys; sys.exit(0)\n", ".gitignore": "build/\n", "build/out.o": "x" });
    const commit = await record(m);
    expect((await g.changedPaths(m.r, m.base, commit)).map((c) => c.path).sort()).toEqual([".gitignore", "conftest.py"]);
  });

  test("a deleted file is committed as deleted; the sitting's own .git is never part of the commit", async () => {
    const m = await worktree();
    unlinkSync(join(m.wt, "src/a.txt"));
    const commit = await record(m);
    expect(await g.changedPaths(m.r, m.base, commit)).toEqual([{ status: "removed", path: "src/a.txt" }]);
  });
});

describe("a replace ref does not make vouch read one object as another", () => {
  test("the sitting replaces the base by a commit holding its tampered test: vouch still sees the edit", async () => {
    const m = await worktree();
    writeFiles(m.wt, { "test/t.sh": "exit 0 # trust me\n" });
    // A copy of base whose test is the tampered one, put in base's place in the user's repository.
    const blob = git(m.r, "hash-object", "-w", join(m.wt, "test/t.sh")).trim();
    const idx = join(m.r, "..", `${m.r.split("/").pop()}-idx`);
    const env = { GIT_INDEX_FILE: idx };
    const withEnv = (...a: string[]) => execFileSync("git", a, { cwd: m.r, env: { ...process.env, ...env }, encoding: "utf8" });
    withEnv("read-tree", m.base);
    withEnv("update-index", "--cacheinfo", `100644,${blob},test/t.sh`);
    const tree = withEnv("write-tree").trim();
    rmSync(idx, { force: true });
    const fake = git(m.r, "commit-tree", tree, "-m", "initial").trim();
    git(m.r, "replace", m.base, fake);
    const commit = await record(m);
    expect(git(m.r, "diff", "--name-only", m.base, commit)).toBe(""); // plain git is fooled
    expect(await g.changedPaths(m.r, m.base, commit)).toEqual([{ status: "modified", path: "test/t.sh" }]);
  });
});

describe("a tree moved under vouch is named, and vouch's commit never lands elsewhere", () => {
  test("own tree: vouch's git dir removed, re-pointed at another repository, or its HEAD switched: each named", async () => {
    const m = await worktree();
    writeFileSync(join(m.gitDir, "HEAD"), "ref: refs/heads/main\n");
    expect(moved(m, await state(m))).toEqual([`HEAD was switched to refs/heads/main, not the node's branch ${m.branch}`]);
    writeFileSync(join(m.gitDir, "HEAD"), `${m.base}\n`);
    expect(moved(m, await state(m))).toEqual([`HEAD was detached at ${m.base.slice(0, 12)}`]);
    writeFileSync(join(m.gitDir, "HEAD"), `ref: refs/heads/${m.branch}\n`);
    writeFileSync(join(m.gitDir, "commondir"), "/tmp\n");
    expect(moved(m, await state(m))[0]).toMatch(/re-pointed at another repository \(\/tmp/);
    rmSync(m.gitDir, { recursive: true, force: true });
    expect(moved(m, await state(m))[0]).toMatch(/is gone, or its .git no longer names it/);
  });

  test("own tree: the sitting's own .git, switched, reset or deleted, moves nothing of vouch's", async () => {
    const m = await worktree();
    git(m.wt, "checkout", "-q", "-b", "elsewhere");
    git(m.wt, "commit", "-q", "--allow-empty", "-m", "detour");
    expect(moved(m, await state(m))).toEqual([]);
    rmSync(join(m.wt, ".git"), { recursive: true, force: true });
    expect(moved(m, await state(m))).toEqual([]);
  });

  test("linked worktree: a .git link re-pointed at the user's repository is named; the explicit commit still goes to the node's branch", async () => {
    const m = await worktree("linked");
    const userHead = git(m.r, "rev-parse", "main").trim();
    writeFileSync(join(m.wt, ".git"), `gitdir: ${m.common}\n`);
    writeFiles(m.wt, { "src/a.txt": "work\n" });
    expect(moved(m, await state(m))).toEqual([`its .git link was changed: it names ${m.common}, not ${m.gitDir}`]);
    const commit = await record(m);
    expect(git(m.r, "rev-parse", m.branch).trim()).toBe(commit);
    expect(git(m.r, "rev-parse", "main").trim()).toBe(userHead);
    expect(git(m.r, "status", "--porcelain")).toBe("");
  });

  test("linked worktree: a removed .git link and a rewritten back link are named", async () => {
    const m = await worktree("linked");
    writeFileSync(join(m.gitDir, "gitdir"), `${m.r}/.git\n`);
    expect(moved(m, await state(m))).toEqual([`git's record of the worktree (${m.gitDir}/gitdir) was changed to name ${m.r}/.git`]);
    unlinkSync(join(m.wt, ".git"));
    expect(moved(m, await state(m))[0]).toMatch(/is gone, or its .git no longer names it/);
  });

  test("the node's branch in the user's repository reset elsewhere or deleted: named; moved on top is not", async () => {
    const m = await worktree();
    writeFiles(m.wt, { "src/a.txt": "mine\n" });
    const first = await record(m);
    const onTop = git(m.r, "commit-tree", `${first}^{tree}`, "-p", first, "-m", "on top").trim();
    git(m.r, "update-ref", `refs/heads/${m.branch}`, onTop);
    expect(moved(m, await state(m, first), first)).toEqual([]);
    const orphan = git(m.r, "commit-tree", `${m.base}^{tree}`, "-m", "elsewhere").trim();
    git(m.r, "update-ref", `refs/heads/${m.branch}`, orphan);
    expect(moved(m, await state(m, onTop), onTop)).toEqual([
      `the branch ${m.branch} was moved from ${onTop.slice(0, 12)} to ${orphan.slice(0, 12)}, which does not descend from it`,
    ]);
    git(m.r, "update-ref", "-d", `refs/heads/${m.branch}`);
    expect(moved(m, await state(m, onTop), onTop)).toContain(`the branch ${m.branch} was deleted`);
  });

  test("recordAttempt moves the branch only from the commit it was given", async () => {
    const m = await worktree();
    writeFiles(m.wt, { "src/a.txt": "x\n" });
    const first = await record(m);
    writeFiles(m.wt, { "src/a.txt": "y\n" });
    await expect(record(m, m.base)).rejects.toThrow(/update-ref/);
    expect(git(m.r, "rev-parse", m.branch).trim()).toBe(first);
    expect(readFileSync(join(m.wt, "src/a.txt"), "utf8")).toBe("y\n");
  });
});

describe("the user's repository fingerprint (what a sitting must leave alone)", () => {
  test("config, hooks, info/exclude, a replace ref, the checkout's index and HEAD are each seen; vouch's own branches and the worktree's index are not", async () => {
    const m = await worktree("linked");
    const before = await g.repoFingerprint(m.r);
    writeFiles(m.wt, { "src/a.txt": "work\n" });
    await record(m); // vouch's branch moves: no change to report
    git(m.wt, "add", "-A"); // the linked worktree's own index: not the user's checkout's
    expect(repoChanges(before, await g.repoFingerprint(m.r))).toEqual([]);
    git(m.r, "config", "core.hooksPath", "/tmp/evil-hooks");
    writeFileSync(join(m.common, "hooks", "pre-commit"), "#!/bin/sh\necho owned\n");
    writeFileSync(join(m.common, "info", "exclude"), "conftest.py\n");
    const blob = git(m.r, "hash-object", "-w", "--stdin").trim();
    git(m.r, "replace", "-f", git(m.r, "rev-parse", "HEAD:src/a.txt").trim(), blob);
    git(m.r, "update-index", "--assume-unchanged", "src/a.txt");
    git(m.r, "branch", "stray");
    const changed = repoChanges(before, await g.repoFingerprint(m.r));
    expect(changed.filter((c) => !c.startsWith("refs/replace/"))).toEqual([
      "config",
      "hooks",
      "info/exclude",
      "index",
      "refs/heads/stray added",
    ]);
    expect(changed.filter((c) => c.startsWith("refs/replace/"))).toEqual([expect.stringMatching(/^refs\/replace\/[0-9a-f]{40} added$/)]);
  });
});
