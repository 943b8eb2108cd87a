// The real git port's check trees (ADR 0043) on real repositories: a commit's tree
// with paths from another composed in the object store, written into a folder
// with a git dir of its own (git in a check sees that tree, never the user's
// repository), the checkout's ignored dependency folders linked in, and the
// user's checkout untouched throughout.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { realGit as g } from "../../src/workspace/git.ts";
import { checkoutTreeAt, treesRemoved } from "../../src/workspace/check-tree.ts";
import { fingerprint, git, makeRepo, writeFiles } from "./git-repo.ts";

const made: string[] = [];
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

function repo(): { r: string; base: string; work: string } {
  const r = makeRepo({ "scripts/test": "echo base\n", "src/a.js": "a\n", ".gitignore": "node_modules/\ndist/\n" }, "vouch-tree-");
  made.push(r);
  const base = git(r, "rev-parse", "HEAD").trim();
  git(r, "checkout", "-q", "-b", "work");
  writeFiles(r, { "scripts/test": "exit 0\n", "src/a.js": "fixed\n", "src/new.js": "n\n" });
  git(r, "add", "-A");
  git(r, "commit", "-qm", "work");
  const work = git(r, "rev-parse", "HEAD").trim();
  git(r, "checkout", "-q", "main");
  return { r, base, work };
}

describe("composeTree", () => {
  test("the commit's tree with the named paths as base has them (one base lacks is left out); nothing to take is the commit itself", async () => {
    const { r, base, work } = repo();
    const before = fingerprint(r);
    const t = await g.composeTree(r, work, base, ["scripts/test", "src/new.js"], "vouch: the tree t checks");
    expect(git(r, "show", `${t}:scripts/test`)).toBe("echo base\n");
    expect(git(r, "show", `${t}:src/a.js`)).toBe("fixed\n");
    expect(git(r, "ls-tree", "-r", "--name-only", t).trim().split("\n")).toEqual([".gitignore", "scripts/test", "src/a.js"]);
    expect(git(r, "rev-parse", `${t}^`).trim()).toBe(work);
    expect(await g.composeTree(r, work, base, [], "m")).toBe(work);
    expect(await g.composeTree(r, work, base, ["src/missing-in-both"], "m")).toBe(work);
    expect(fingerprint(r)).toEqual(before);
  });

  test("paths with spaces, quotes and newlines are taken exactly", async () => {
    const r = makeRepo({ 'we ird\n"x".sh': "base\n" }, "vouch-tree-");
    made.push(r);
    const base = git(r, "rev-parse", "HEAD").trim();
    writeFiles(r, { 'we ird\n"x".sh': "work\n" });
    git(r, "commit", "-qam", "w");
    const work = git(r, "rev-parse", "HEAD").trim();
    const t = await g.composeTree(r, work, base, ['we ird\n"x".sh'], "m");
    expect(git(r, "cat-file", "-p", `${t}^{tree}`)).toContain("x");
    expect(git(r, "diff", "--name-only", base, t)).toBe("");
  });
});

describe("checkoutTree", () => {
  // Security review: /dev/shm is shared by every user and the trees' folder name is predictable.
  // A folder there that others may enter (made first by another user, or loosened) is not used:
  // the trees go to the repository's .vouch/trees. Test first: the open folder was used.
  test.skipIf(!existsSync("/dev/shm"))("a trees folder in /dev/shm that others may enter is not used: the disk instead", async () => {
    const { r, work } = repo();
    const uid = process.getuid?.() ?? 0;
    const shared = join("/dev/shm", `vouch-trees-${uid}`, createHash("sha256").update(r).digest("hex").slice(0, 16));
    mkdirSync(shared, { recursive: true });
    chmodSync(shared, 0o777);
    made.push(shared);
    const dir = await g.checkoutTree(r, work, "run1/n/1-1", []);
    expect(dir.startsWith(join(r, ".vouch", "trees"))).toBe(true);
    expect(readFileSync(join(dir, "src/a.js"), "utf8")).toBe("fixed\n");
  });

  test("writes the tree with a git dir of its own: git in it sees a clean tree at the commit, not the user's repository", async () => {
    const { r, work } = repo();
    const dir = await g.checkoutTree(r, work, "run1/n/1-1", []);
    // A tmpfs when this machine has one with room (where writing 10,000 files is fast), else the repository's .vouch/trees.
    expect(dir.endsWith("/run1/n/1-1")).toBe(true);
    expect(dir.includes("/vouch-trees-") || dir.startsWith(join(r, ".vouch", "trees"))).toBe(true);
    expect(readFileSync(join(dir, "src/a.js"), "utf8")).toBe("fixed\n");
    expect(git(dir, "rev-parse", "--show-toplevel").trim()).toBe(dir);
    expect(git(dir, "rev-parse", "HEAD").trim()).toBe(work);
    expect(git(dir, "status", "--porcelain")).toBe("");
    writeFileSync(join(dir, "src/a.js"), "a check wrote this\n");
    expect(git(dir, "status", "--porcelain")).toBe(" M src/a.js\n");
    expect(git(r, "status", "--porcelain")).not.toContain("src/"); // the user's checkout is untouched
    await g.removeTree(dir);
  });

  test("in the repository's .vouch/trees too (where there is no tmpfs): the same tree, the same git", async () => {
    const { r, work } = repo();
    const dir = join(r, ".vouch", "trees", "run1", "n", "1-3");
    await checkoutTreeAt(r, work, dir, []);
    expect(readFileSync(join(dir, "src/a.js"), "utf8")).toBe("fixed\n");
    expect(git(dir, "rev-parse", "--show-toplevel").trim()).toBe(dir);
    expect(git(dir, "status", "--porcelain")).toBe("");
    await g.removeTree(dir);
    expect(existsSync(dir)).toBe(false);
  });

  test("a name that would climb out, or read as an option, is refused before anything is written", async () => {
    const { r, work } = repo();
    for (const name of ["../x", "a/../../b", "-rf", "", "a//b"])
      await expect(g.checkoutTree(r, work, name, [])).rejects.toThrow(/cannot name a check tree/);
  });

  test("links each dependency folder read from the checkout; a path the tree has stays the tree's", async () => {
    const { r, work } = repo();
    mkdirSync(join(r, "node_modules", "runner"), { recursive: true });
    writeFileSync(join(r, "node_modules", "runner", "index.js"), "module.exports = 1\n");
    mkdirSync(join(r, "dist"));
    expect(await g.ignoredFolders(r)).toEqual(["dist", "node_modules"]);
    const dir = join(r, ".vouch", "trees", "run1", "n", "1-2");
    await checkoutTreeAt(r, work, dir, [
      { path: "node_modules", target: join(r, "node_modules") },
      { path: "src", target: join(r, "dist") },
      { path: "no/such/parent", target: join(r, "dist") },
    ]);
    expect(readlinkSync(join(dir, "node_modules"))).toBe(join(r, "node_modules"));
    expect(readFileSync(join(dir, "node_modules", "runner", "index.js"), "utf8")).toContain("module.exports");
    expect(lstatSync(join(dir, "src")).isDirectory()).toBe(true);
    expect(existsSync(join(dir, "no"))).toBe(false);
  });

  test("made afresh over what a killed session left; removeTree removes only check tree folders", async () => {
    const { r, base, work } = repo();
    const dir = join(r, ".vouch", "trees", "run1", "n", "1-1");
    await checkoutTreeAt(r, work, dir, []);
    writeFileSync(join(dir, "leftover"), "x");
    await checkoutTreeAt(r, base, dir, []);
    expect(existsSync(join(dir, "leftover"))).toBe(false);
    expect(readFileSync(join(dir, "scripts/test"), "utf8")).toBe("echo base\n");
    await g.removeTree(dir);
    expect(existsSync(dir)).toBe(false);
    await expect(g.removeTree(r)).rejects.toThrow(/not a check tree folder/);
    await expect(checkoutTreeAt(r, work, join(r, "elsewhere"), [])).rejects.toThrow(/not a check tree folder/);
    expect(existsSync(join(r, "src/a.js"))).toBe(true);
  });
});

describe("what a sealed check's tree costs in processes (ADR 0073)", () => {
  /** Runs `f` with a `git` on PATH that logs each call's subcommand, then runs the real git. */
  async function counting<T>(f: () => Promise<T>): Promise<{ value: T; calls: string[] }> {
    const bin = mkdtempSync(join(tmpdir(), "vouch-git-count-"));
    made.push(bin);
    const real = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
    const log = join(bin, "log");
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\nfor a; do case "$a" in -c) skip=1;; -*) ;; *) if [ -n "$skip" ]; then skip=; else echo "$a" >> '${log}'; break; fi;; esac; done\nexec '${real}' "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    writeFileSync(log, "");
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const value = await f();
      return {
        value,
        calls: readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => l !== ""),
      };
    } finally {
      process.env.PATH = path;
    }
  }

  test("a composition takes four git processes once both commits are listed, none when the paths are the same in both; a tree one; its removal none, and it leaves its path at once", async () => {
    const { r, base, work } = repo();
    await g.composeTree(r, work, base, ["scripts/test"], "warm: lists the base, reads the commit's tree id");
    const composed = await counting(() => g.composeTree(r, work, base, ["scripts/test", "src/new.js"], "m"));
    expect(composed.calls).toEqual(["read-tree", "update-index", "write-tree", "commit-tree"]);
    // Paths the work left as the base has them: the commit itself, no git process.
    const same = await counting(() => g.composeTree(r, work, base, [".gitignore", "src/missing-in-both"], "m"));
    expect(same).toEqual({ value: work, calls: [] });
    const dir = join(r, ".vouch", "trees", "run1", "n", "1-1");
    await checkoutTreeAt(r, work, dir, []); // reads the common dir, once per repository
    const tree = await counting(() => checkoutTreeAt(r, composed.value, dir, []));
    expect(tree.calls).toEqual(["read-tree"]);
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(readFileSync(join(dir, "scripts/test"), "utf8")).toBe("echo base\n");
    const removed = await counting(() => g.removeTree(dir));
    expect(removed.calls).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    await treesRemoved();
    expect(readdirSync(join(r, ".vouch", "trees", "run1", "n"))).toEqual([]);
  });
});
