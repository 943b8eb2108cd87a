// A node's tree of its own (ADR 0041): a folder that is a private clone of the
// user's repository — its `.git/` the sitting's to do anything with, borrowing
// the user's objects read-only through `objects/info/alternates` — and, beside
// it, vouch's own git dir `<tree>.git/` (HEAD on the node's branch, an index, and
// `commondir` naming the user's repository): vouch records the attempts with
// `git --git-dir=<tree>.git --work-tree=<tree>`, so it never reads the sitting's
// git config, hooks, fsmonitor, attributes of its .git or index flags, and the
// branch `vouch/<run>/…` it moves is in the user's repository. Nothing is
// registered in the user's `.git/worktrees`: the sitting has no link to break.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GitError } from "./git-error.ts";
import { runGit } from "./run-git.ts";

/** vouch's git dir for the tree at `path`: beside it, never inside it. */
export function vouchGitDir(path: string): string {
  return `${path}.git`;
}

/** True when `path` is a tree of this kind (vouch's git dir beside it). */
export function isOwnTree(path: string): boolean {
  return existsSync(join(vouchGitDir(path), "commondir"));
}

/** git run on the tree with vouch's own git dir. */
export function treeGit(path: string, args: readonly string[], keepBytes?: number): Promise<string> {
  return runGit(path, [`--git-dir=${vouchGitDir(path)}`, `--work-tree=${path}`, ...args], keepBytes);
}

/** The user's repository as a tree needs it: where its objects are, and their format. */
async function repositoryOf(root: string): Promise<{ commonDir: string; objectFormat: string }> {
  const out = await runGit(root, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--show-object-format"]);
  const [commonDir, objectFormat] = out.trim().split("\n");
  if (!commonDir || !objectFormat) throw new GitError(["rev-parse"], `git rev-parse printed no common dir for ${root}`);
  return { commonDir, objectFormat };
}

/** A new tree at `path` on the new branch `branch` (in the user's repository) at `commit`. */
export async function addTree(root: string, path: string, branch: string, commit: string): Promise<void> {
  if (existsSync(path) || existsSync(vouchGitDir(path)))
    throw new GitError(["worktree"], `cannot make a worktree at ${path}: something is there already`);
  const repo = await repositoryOf(root);
  const id = (await runGit(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${commit}^{commit}`])).trim();
  // Create-only (the old value must be none): an existing branch is refused, as `worktree add -b` does.
  await runGit(root, ["update-ref", "--create-reflog", "-m", "vouch: worktree", `refs/heads/${branch}`, id, ""]);
  try {
    writeVouchGitDir(path, branch, repo.commonDir);
    writeOwnClone(path, branch, id, repo);
    // The files, and vouch's index with their stat data; the clone's index is a copy, so its `git status` is clean.
    await treeGit(path, ["read-tree", "--reset", "-u", id]);
    copyFileSync(join(vouchGitDir(path), "index"), join(path, ".git", "index"));
  } catch (e) {
    rmSync(path, { recursive: true, force: true });
    rmSync(vouchGitDir(path), { recursive: true, force: true });
    await runGit(root, ["update-ref", "-d", `refs/heads/${branch}`, id]).catch(() => undefined);
    throw e;
  }
}

/** `<tree>.git`: HEAD on the branch, the user's repository as its common dir (objects, refs, config). */
function writeVouchGitDir(path: string, branch: string, commonDir: string): void {
  const dir = vouchGitDir(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "HEAD"), `ref: refs/heads/${branch}\n`);
  writeFileSync(join(dir, "commondir"), `${commonDir}\n`);
}

/** `<tree>/.git`: a repository of the sitting's own on the same branch, objects borrowed. */
function writeOwnClone(path: string, branch: string, commit: string, repo: { commonDir: string; objectFormat: string }): void {
  const dot = join(path, ".git");
  for (const d of ["objects/info", "objects/pack", "refs/heads", "refs/tags"]) mkdirSync(join(dot, d), { recursive: true });
  const sha256 = repo.objectFormat !== "sha1";
  const config = [
    "[core]",
    `\trepositoryformatversion = ${sha256 ? 1 : 0}`,
    "\tfilemode = true",
    "\tbare = false",
    "\tlogallrefupdates = true",
    ...(sha256 ? ["[extensions]", `\tobjectformat = ${repo.objectFormat}`] : []),
  ];
  writeFileSync(join(dot, "config"), `${config.join("\n")}\n`);
  writeFileSync(join(dot, "HEAD"), `ref: refs/heads/${branch}\n`);
  writeFileSync(join(dot, "packed-refs"), `${commit} refs/heads/${branch}\n`);
  writeFileSync(join(dot, "objects", "info", "alternates"), `${join(repo.commonDir, "objects")}\n`);
  // A shallow repository's clone must know where history stops, or `git log` fails on a missing parent.
  if (existsSync(join(repo.commonDir, "shallow"))) copyFileSync(join(repo.commonDir, "shallow"), join(dot, "shallow"));
}

/** Removes the tree and vouch's git dir (the branch stays). */
export function removeTree(path: string): void {
  rmSync(path, { recursive: true, force: true });
  rmSync(vouchGitDir(path), { recursive: true, force: true });
}
