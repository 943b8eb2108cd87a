// The real GitPort (src/engine/ports.ts): git run by argv, output read with -z so
// any path (spaces, newlines, non-ASCII) parses. A ref or path that could be read
// as an option is refused here too, though the engine checks refs first: git's
// `--end-of-options` and `--` keep the rest of the argv from being options.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChangedPath, DiffStat, GitPort } from "../engine/ports.ts";
import { GitError } from "./git-error.ts";
import { runGit, runGitRaw } from "./run-git.ts";
import { addTree, isOwnTree, removeTree, treeGit, vouchGitDir } from "./tree.ts";
import { ownTreesUnder } from "./own-trees.ts";
import { WORKTREES_DIR } from "../engine/workspace/names.ts";

function refuseOption(args: readonly string[], what: string, value: string): void {
  if (value.startsWith("-")) throw new GitError(args, `${what} "${value}" starts with "-"; git would read it as an option`);
}

async function repoRoot(cwd: string): Promise<string | null> {
  const r = await runGitRaw(cwd, ["rev-parse", "--show-toplevel"]);
  if (r.exit !== 0) return null;
  const root = r.stdout.replace(/\n$/, "");
  return root === "" ? null : root;
}

async function cwdPrefix(cwd: string): Promise<string> {
  return (await runGit(cwd, ["rev-parse", "--show-prefix"])).replace(/\n$/, "");
}

async function resolveCommit(root: string, ref: string): Promise<string | null> {
  if (ref.startsWith("-") || ref === "") return null;
  const r = await runGitRaw(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]);
  if (r.exit !== 0) return null;
  return r.stdout.trim();
}

async function hasUncommittedChanges(root: string): Promise<boolean> {
  // vouch's own folder (the ledger's default home, the worktrees) is not the user's change.
  const out = await runGit(root, ["status", "--porcelain=v1", "-z", "--untracked-files=normal", "--", ":(top,exclude).vouch"]);
  return out.length > 0;
}

async function branchExists(root: string, branch: string): Promise<boolean> {
  if (branch.startsWith("-")) return false;
  const r = await runGitRaw(root, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`]);
  return r.exit === 0;
}

/** A tree of its own (ADR 0041, tree.ts): a private clone that borrows the repository's objects. */
async function addWorktree(root: string, path: string, branch: string, commit: string): Promise<void> {
  const args = ["worktree", "add", "-b", branch, "--", path, commit];
  refuseOption(args, "branch", branch);
  refuseOption(args, "commit", commit);
  await addTree(root, path, branch, commit);
}

/** How vouch runs git on a worktree: its own git dir beside a tree of its own; in a linked
 *  worktree an earlier vouch made (a run resumed across the change), git's own records. */
function onTree(worktree: string): (args: readonly string[]) => Promise<string> {
  return isOwnTree(worktree) ? (args) => treeGit(worktree, args) : (args) => runGit(worktree, args);
}

async function commitAll(worktree: string, message: string): Promise<string> {
  const git = onTree(worktree);
  await git(["add", "--all", "--", ":/"]);
  const staged = await runGitRaw(worktree, [...treeFlags(worktree), "diff", "--cached", "--quiet"]);
  if (staged.exit === 1) await git(["commit", "--quiet", "--no-verify", "-m", message]);
  else if (staged.exit !== 0)
    throw new GitError(["diff", "--cached"], `git diff --cached failed (exit ${staged.exit}): ${staged.stderr.trim()}`);
  return (await git(["rev-parse", "HEAD"])).trim();
}

function treeFlags(worktree: string): string[] {
  return isOwnTree(worktree) ? [`--git-dir=${vouchGitDir(worktree)}`, `--work-tree=${worktree}`] : [];
}

function refuseRange(args: readonly string[], from: string, to: string): void {
  refuseOption(args, "commit", from);
  refuseOption(args, "commit", to);
}

async function diffStat(root: string, from: string, to: string): Promise<DiffStat> {
  const args = ["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", from, to, "--"];
  refuseRange(args, from, to);
  return parseNumstat(await runGit(root, args));
}

/** `--numstat -z` without renames: "ADDED\tDELETED\tPATH\0" per file; binary files print "-". */
export function parseNumstat(out: string): DiffStat {
  const stat: DiffStat = { filesChanged: 0, insertions: 0, deletions: 0 };
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const [added, deleted] = record.split("\t");
    stat.filesChanged += 1;
    if (added !== "-") stat.insertions += Number(added);
    if (deleted !== "-") stat.deletions += Number(deleted);
  }
  return stat;
}

async function diff(root: string, from: string, to: string, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  const args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames", from, to, "--"];
  refuseRange(args, from, to);
  const r = await runGitRaw(root, args, maxBytes);
  if (r.exit !== 0) throw new GitError(args, `git diff failed (exit ${r.exit}): ${r.stderr.trim()}`);
  return { text: r.stdout, truncated: r.truncated };
}

const STATUS: Record<string, ChangedPath["status"]> = {
  A: "added",
  M: "modified",
  D: "removed",
  R: "renamed",
  C: "copied",
  T: "type_changed",
};

async function changedPaths(root: string, from: string, to: string): Promise<ChangedPath[]> {
  const args = ["diff", "--name-status", "-z", "--find-renames", "--no-ext-diff", from, to, "--"];
  refuseRange(args, from, to);
  return parseNameStatus(await runGit(root, args));
}

/** `--name-status -z`: "S\0PATH\0", renames and copies "R100\0OLD\0NEW\0". */
export function parseNameStatus(out: string): ChangedPath[] {
  const fields = out.split("\0");
  const paths: ChangedPath[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++] ?? "";
    if (code === "") continue;
    const status = STATUS[code[0]!] ?? "modified";
    if (status === "renamed" || status === "copied") {
      const from = fields[i++] ?? "";
      paths.push({ status, path: fields[i++] ?? "", from });
    } else paths.push({ status, path: fields[i++] ?? "" });
  }
  return paths;
}

async function restorePaths(worktree: string, commit: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const list = ["ls-tree", "-z", "--name-only", "-r", "--full-tree", commit, "--", ...paths.map(literal)];
  refuseOption(list, "commit", commit);
  const git = onTree(worktree);
  const inBase = new Set((await git(list)).split("\0").filter((p) => p !== ""));
  const back = paths.filter((p) => inBase.has(p));
  const gone = paths.filter((p) => !inBase.has(p));
  if (back.length > 0) await git(["checkout", "--no-overlay", commit, "--", ...back.map(literal)]);
  if (gone.length > 0) await git(["rm", "--quiet", "-r", "--force", "--ignore-unmatch", "--", ...gone.map(literal)]);
}

/** A pathspec that matches exactly this path (no glob, no magic). */
function literal(path: string): string {
  return `:(literal)${path}`;
}

/** git's registered worktrees (the main checkout included), and vouch's own trees under `.vouch/worktrees`. */
async function listWorktrees(root: string): Promise<string[]> {
  const out = await runGit(root, ["worktree", "list", "--porcelain", "-z"]);
  const registered = out
    .split("\0")
    .filter((f) => f.startsWith("worktree "))
    .map((f) => f.slice("worktree ".length));
  return [...registered, ...ownTreesUnder(join(root, WORKTREES_DIR))];
}

/** Whether a worktree is at `path` (a tree of vouch's own, or one git registered). */
async function hasWorktree(root: string, path: string): Promise<boolean> {
  if (isOwnTree(path)) return true;
  return (await listWorktrees(root)).includes(path);
}

/** `*` in vouch's own folder: git then ignores the folder and everything in it. */
async function hideVouchDir(root: string): Promise<void> {
  const dir = join(root, ".vouch");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, ".gitignore");
  if (!existsSync(file)) writeFileSync(file, "# vouch's own folder (ledger, worktrees): never part of the repository\n*\n");
}

async function listBranches(root: string, prefix: string): Promise<string[]> {
  refuseOption(["for-each-ref"], "branch prefix", prefix);
  const out = await runGit(root, ["for-each-ref", "--format=%(refname:short)", "--", `refs/heads/${prefix}`]);
  return out.split("\n").filter((b) => b !== "");
}

async function removeWorktree(root: string, path: string): Promise<void> {
  if (isOwnTree(path)) return removeTree(path);
  await runGit(root, ["worktree", "remove", "--force", "--force", "--", path]);
}

async function renameBranch(root: string, from: string, to: string): Promise<void> {
  const args = ["branch", "--move", "--", from, to];
  refuseRange(args, from, to);
  await runGit(root, args);
}

async function deleteBranch(root: string, branch: string): Promise<void> {
  const args = ["branch", "--delete", "--force", branch];
  refuseOption(args, "branch", branch);
  await runGit(root, args);
}

export const realGit: GitPort = {
  repoRoot,
  cwdPrefix,
  resolveCommit,
  hasUncommittedChanges,
  branchExists,
  addWorktree,
  commitAll,
  diffStat,
  diff,
  changedPaths,
  restorePaths,
  listWorktrees,
  hasWorktree,
  hideVouchDir,
  removeWorktree,
  renameBranch,
  deleteBranch,
  listBranches,
};
