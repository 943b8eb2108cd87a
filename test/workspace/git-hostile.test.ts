// The real git port against what a sitting can do to its worktree's git records
// when nothing confines it (ADR 0044): index flags, the shared info/exclude, a
// replace ref, a rewritten or removed .git link, a moved, switched or detached
// branch. vouch's reads see through each; its commit lands on the node's branch
// or nowhere, never on the user's.
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

async function worktree(files: Record<string, string> = { "test/t.sh": "exit 0\n", "src/a.txt": "a\n" }): Promise<Made> {
  const r = makeRepo(files);
  made.push(r);
  const base = git(r, "rev-parse", "HEAD").trim();
  const wt = join(r, ".vouch", "worktrees", "run1", "n");
  const branch = "vouch/run1/n";
  await g.hideVouchDir(r);
  await g.addWorktree(r, wt, branch, base);
  const s = await g.worktreeState(r, wt, branch, base);
  return { r, wt, base, gitDir: s.link!, common: await g.commonDir(r), branch };
}

async function record(m: Made, parent = m.base): Promise<string> {
  return g.recordAttempt({ path: m.wt, gitDir: m.gitDir, branch: m.branch, parent }, "m");
}

function moved(m: Made, state: Awaited<ReturnType<typeof g.worktreeState>>, parent = m.base): string[] {
  return worktreeMoved({ path: m.wt, gitDir: m.gitDir, common: m.common, branch: m.branch, parent }, state);
}

describe("what a fresh worktree's records say", () => {
  test("its .git names a git dir of this repository that names it back; HEAD is on the node's branch at base", async () => {
    const m = await worktree();
    const s = await g.worktreeState(m.r, m.wt, m.branch, m.base);
    expect(s.link!.startsWith(join(m.common, "worktrees"))).toBe(true);
    expect(s).toMatchObject({
      backLink: `${m.wt}/.git`,
      common: m.common,
      head: { ref: `refs/heads/${m.branch}` },
      tip: m.base,
      descends: true,
    });
    expect(moved(m, s)).toEqual([]);
  });
});

describe("index flags and excludes hide nothing from vouch's commit", () => {
  test("an edit hidden by assume-unchanged or skip-worktree is committed", async () => {
    const m = await worktree();
    git(m.wt, "update-index", "--assume-unchanged", "test/t.sh");
    git(m.wt, "update-index", "--skip-worktree", "src/a.txt");
    writeFiles(m.wt, { "test/t.sh": "exit 1\n", "src/a.txt": "changed\n" });
    expect(git(m.wt, "status", "--porcelain")).toBe(""); // git itself no longer sees them
    const commit = await record(m);
    expect((await g.changedPaths(m.r, m.base, commit)).map((c) => c.path).sort()).toEqual(["src/a.txt", "test/t.sh"]);
    // The worktree's own index matches the commit: the flags are gone with it.
    expect(
      git(m.wt, "ls-files", "-v")
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith("H ")),
    ).toEqual([]);
  });

  test("a new file the shared info/exclude hides is committed; one the tree's own .gitignore excludes is not", async () => {
    const m = await worktree();
    writeFileSync(join(m.common, "info", "exclude"), "conftest.py\n");
    writeFiles(m.wt, { "conftest.py": "import sys; sys.exit(0)\n", ".gitignore": "build/\n", "build/out.o": "x" });
    const commit = await record(m);
    expect((await g.changedPaths(m.r, m.base, commit)).map((c) => c.path).sort()).toEqual([".gitignore", "conftest.py"]);
  });

  test("a deleted file is committed as deleted", async () => {
    const m = await worktree();
    unlinkSync(join(m.wt, "src/a.txt"));
    const commit = await record(m);
    expect(await g.changedPaths(m.r, m.base, commit)).toEqual([{ status: "removed", path: "src/a.txt" }]);
  });
});

describe("a replace ref does not make vouch read one object as another", () => {
  test("the sitting commits a tampered test and replaces that commit by one without it: vouch still sees the edit", async () => {
    const m = await worktree();
    writeFiles(m.wt, { "test/t.sh": "exit 1\n" });
    git(m.wt, "add", "-A");
    git(m.wt, "commit", "-q", "-m", "tamper");
    const tampered = git(m.wt, "rev-parse", "HEAD").trim();
    const clean = git(m.wt, "commit-tree", `${m.base}^{tree}`, "-p", m.base, "-m", "looks clean").trim();
    git(m.wt, "replace", tampered, clean);
    expect(git(m.r, "diff", "--name-only", m.base, tampered)).toBe(""); // plain git is fooled
    const commit = await record(m, (await g.worktreeState(m.r, m.wt, m.branch, m.base)).tip!);
    expect(commit).toBe(tampered);
    expect(await g.changedPaths(m.r, m.base, commit)).toEqual([{ status: "modified", path: "test/t.sh" }]);
  });
});

describe("a worktree moved under vouch is named, and vouch's commit never lands elsewhere", () => {
  test("a .git link re-pointed at the user's repository: named; the explicit commit still goes to the node's branch", async () => {
    const m = await worktree();
    const userHead = git(m.r, "rev-parse", "main").trim();
    writeFileSync(join(m.wt, ".git"), `gitdir: ${m.common}\n`);
    writeFiles(m.wt, { "src/a.txt": "work\n" });
    const s = await g.worktreeState(m.r, m.wt, m.branch, m.base);
    expect(moved(m, s)).toEqual([`its .git link was changed: it names ${m.common}, not ${m.gitDir}`]);
    const commit = await record(m);
    expect(git(m.r, "rev-parse", m.branch).trim()).toBe(commit);
    expect(git(m.r, "rev-parse", "main").trim()).toBe(userHead);
    expect(git(m.r, "status", "--porcelain")).toBe("");
  });

  test("a removed .git link and a rewritten back link are named", async () => {
    const m = await worktree();
    writeFileSync(join(m.gitDir, "gitdir"), `${m.r}/.git\n`);
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, m.base))).toEqual([
      `git's record of the worktree (${m.gitDir}/gitdir) was changed to name ${m.r}/.git`,
    ]);
    unlinkSync(join(m.wt, ".git"));
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, m.base))[0]).toMatch(/\.git link .* is gone/);
  });

  test("HEAD switched to the user's branch, detached, the branch reset elsewhere or deleted: each named", async () => {
    const m = await worktree();
    git(m.wt, "checkout", "-q", "--detach");
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, m.base))).toEqual([`HEAD was detached at ${m.base.slice(0, 12)}`]);
    git(m.wt, "checkout", "-q", "-b", "other");
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, m.base))).toEqual([
      `HEAD was switched to refs/heads/other, not the node's branch ${m.branch}`,
    ]);
    git(m.wt, "checkout", "-q", m.branch);
    writeFiles(m.wt, { "src/a.txt": "mine\n" });
    git(m.wt, "commit", "-qam", "on top");
    const onTop = git(m.wt, "rev-parse", "HEAD").trim();
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, m.base))).toEqual([]); // committing on top moves nothing
    const orphan = git(m.wt, "commit-tree", `${m.base}^{tree}`, "-m", "elsewhere").trim();
    git(m.wt, "update-ref", `refs/heads/${m.branch}`, orphan);
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, onTop), onTop)).toEqual([
      `the branch ${m.branch} was moved from ${onTop.slice(0, 12)} to ${orphan.slice(0, 12)}, which does not descend from it`,
    ]);
    git(m.r, "update-ref", "-d", `refs/heads/${m.branch}`);
    expect(moved(m, await g.worktreeState(m.r, m.wt, m.branch, onTop), onTop)).toContain(`the branch ${m.branch} was deleted`);
  });

  test("recordAttempt moves the branch only from the commit it was given", async () => {
    const m = await worktree();
    writeFiles(m.wt, { "src/a.txt": "x\n" });
    git(m.wt, "commit", "-qam", "sitting's own");
    writeFiles(m.wt, { "src/a.txt": "y\n" });
    await expect(record(m, m.base)).rejects.toThrow(/update-ref/);
    expect(readFileSync(join(m.wt, "src/a.txt"), "utf8")).toBe("y\n");
  });
});

describe("the user's repository fingerprint (what a sitting must leave alone)", () => {
  test("config, hooks, info/exclude, a replace ref, the checkout's index and HEAD are each seen; vouch's own branches and the worktree's index are not", async () => {
    const m = await worktree();
    const before = await g.repoFingerprint(m.r);
    writeFiles(m.wt, { "src/a.txt": "work\n" });
    await record(m); // vouch's branch moves: no change to report
    git(m.wt, "add", "-A"); // the worktree's own index: not the user's
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
