// A worktree's git records read from the files (vouch's own git dir beside a tree
// of its own, ADR 0041; a linked worktree's .git link), and an attempt's commit made so
// that nothing the sitting left in the worktree's git records can change it
// (ADR 0044, defence in depth where the sandbox is off): git is pointed at the
// worktree's git dir and work tree explicitly (never found by its search from
// the folder, so a broken or rewritten `.git` link cannot make vouch commit on
// the user's branch); the files are staged through a private index built from
// the last recorded commit (assume-unchanged and skip-worktree flags, or an
// index the sitting wrote, hide nothing); untracked files are those the tree's
// own .gitignore files do not exclude (the shared info/exclude and the user's
// global excludes hide nothing); the branch moves only from the commit vouch
// recorded (update-ref with the old value).
import { lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { RecordedWorktree, WorktreeState } from "../engine/ports.ts";
import { GitError } from "./git-error.ts";
import { runGit, runGitRaw } from "./run-git.ts";
import { isOwnTree, vouchGitDir } from "./tree.ts";

const HEX = /^[0-9a-f]{40,64}$/;

function readText(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** "gitdir: X" in a worktree's .git file, resolved against the worktree. */
function readLink(path: string): string | null {
  const text = readText(join(path, ".git"));
  const m = text === null ? null : /^gitdir: (.+)\n?$/.exec(text);
  if (!m) return null;
  return resolve(path, m[1]!);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function readCommon(gitDir: string): string | null {
  const text = readText(join(gitDir, "commondir"));
  if (text === null) return null;
  const dir = text.replace(/\n$/, "");
  return realOrSame(isAbsolute(dir) ? dir : resolve(gitDir, dir));
}

function readHead(gitDir: string): WorktreeState["head"] {
  const text = readText(join(gitDir, "HEAD"));
  if (text === null) return null;
  const line = text.replace(/\n$/, "");
  if (line.startsWith("ref: ")) return { ref: line.slice(5) };
  return HEX.test(line) ? { detached: line } : null;
}

async function branchTip(root: string, branch: string): Promise<string | null> {
  if (branch.startsWith("-")) return null;
  const r = await runGitRaw(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${branch}^{commit}`]);
  const id = r.stdout.trim();
  return r.exit === 0 && HEX.test(id) ? id : null;
}

export async function worktreeState(root: string, path: string, branch: string, parent: string): Promise<WorktreeState> {
  // A tree of its own (ADR 0041) is recorded by vouch's git dir beside it; its own .git is the
  // sitting's and is never read. A linked worktree (an earlier vouch's) by the git dir its .git names.
  const own = isOwnTree(path);
  const link = own ? vouchGitDir(path) : readLink(path);
  const backText = own ? `${join(path, ".git")}\n` : link === null ? null : readText(join(link, "gitdir"));
  const tip = await branchTip(root, branch);
  let descends = false;
  if (tip !== null && HEX.test(parent))
    descends = tip === parent || (await runGitRaw(root, ["merge-base", "--is-ancestor", parent, tip])).exit === 0;
  return {
    link,
    backLink: backText === null ? null : resolve(link!, backText.replace(/\n$/, "")),
    common: link === null ? null : readCommon(link),
    head: link === null ? null : readHead(link),
    tip,
    descends,
  };
}

/** git with the worktree named explicitly: no search from the folder, whatever its .git says. */
function at(w: RecordedWorktree, args: readonly string[]): string[] {
  return [`--git-dir=${w.gitDir}`, `--work-tree=${w.path}`, ...args];
}

export async function recordAttempt(w: RecordedWorktree, message: string): Promise<string> {
  if (!HEX.test(w.parent)) throw new GitError(["commit"], `"${w.parent}" is not a commit id`);
  if (w.branch.startsWith("-")) throw new GitError(["commit"], `branch "${w.branch}" starts with "-"; git would read it as an option`);
  const dir = mkdtempSync(join(tmpdir(), "vouch-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    const git = (args: readonly string[], stdin?: string) =>
      runGit(w.path, at(w, args), undefined, { env, ...(stdin !== undefined ? { stdin } : {}) });
    await git(["read-tree", w.parent]);
    await git(["add", "--update", "--", "."]);
    const untracked = await git(["ls-files", "-z", "--others", "--exclude-per-directory=.gitignore", "--", "."]);
    if (untracked !== "") await git(["add", "--force", "--pathspec-from-file=-", "--pathspec-file-nul"], untracked);
    const tree = (await git(["write-tree"])).trim();
    const before = (await git(["rev-parse", "--verify", `${w.parent}^{tree}`])).trim();
    if (tree === before) return w.parent;
    const commit = (await git(["commit-tree", tree, "-p", w.parent, "-m", message])).trim();
    await git(["update-ref", "-m", message, `refs/heads/${w.branch}`, commit, w.parent]);
    // The worktree's own index now matches the commit (what the sitting wrote in it is gone).
    await runGit(w.path, at(w, ["read-tree", commit]));
    return commit;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
