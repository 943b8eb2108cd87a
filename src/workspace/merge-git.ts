// The real MergePort (src/engine/ports.ts): a merge of the commits vouch judged
// (never of what a branch names now: issue 27), computed in git's object store. `git merge-tree --write-tree` (git 2.38+) merges two commits without a
// work tree or index, so a conflict leaves nothing to abort and the user's
// checkout and every other worktree stay as they are; `git commit-tree` then
// records the merge commit (author and committer "vouch", from run-git.ts).
import type { MergePort, MergeStep } from "../engine/ports.ts";
import { GitError } from "./git-error.ts";
import { runGit, runGitRaw } from "./run-git.ts";

const HEX = /^[0-9a-f]{40,64}$/;

/** The judged commit must be in this repository: a worker's branch that moved after it was
 *  judged may have been pushed without it. */
async function present(root: string, commit: string): Promise<void> {
  if (!HEX.test(commit)) throw new GitError(["merge-tree"], `"${commit}" is not a commit id`);
  const r = await runGitRaw(root, ["cat-file", "-e", `${commit}^{commit}`]);
  if (r.exit !== 0) throw new GitError(["cat-file"], `the judged commit ${commit} is not in the repository at ${root}`);
}

/** `merge-tree --write-tree --name-only --no-messages -z`: "TREE\0" then one conflicted path per field. */
export function parseMergeTree(out: string): { tree: string; paths: string[] } {
  const [tree = "", ...rest] = out.split("\0");
  return { tree, paths: [...new Set(rest.filter((p) => p !== ""))] };
}

async function mergeCommit(root: string, onto: string, source: string, message: string): Promise<MergeStep> {
  if (!HEX.test(onto)) throw new GitError(["merge-tree"], `"${onto}" is not a commit id`);
  await present(root, source);
  // Both sides are commit ids (hex): nothing git could read as an option.
  const args = ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", onto, source];
  const r = await runGitRaw(root, args);
  if (r.exit !== 0 && r.exit !== 1)
    throw new GitError(args, `git merge-tree failed (exit ${r.exit}): ${r.stderr.trim() || "(no message)"}`);
  const { tree, paths } = parseMergeTree(r.stdout);
  if (r.exit === 1) return { merged: false, paths, source };
  if (!HEX.test(tree)) throw new GitError(args, `git merge-tree printed no tree id`);
  const commit = (await runGit(root, ["commit-tree", tree, "-p", onto, "-p", source, "-m", message])).trim();
  return { merged: true, commit, source };
}

const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** The run's branches workers pushed (ADR 0029), forced: a branch re-run after its worker
 *  died replaced what the first one pushed. */
async function fetchRunBranches(root: string, remote: string, runId: string): Promise<void> {
  if (!PLAIN.test(runId)) throw new GitError(["fetch"], `run id "${runId}" cannot name a branch`);
  if (remote.startsWith("-")) throw new GitError(["fetch"], `remote "${remote}" starts with "-"; git would read it as an option`);
  const refs = `refs/heads/vouch/${runId}/`;
  await runGit(root, ["fetch", "--quiet", "--no-tags", "--end-of-options", remote, `+${refs}*:${refs}*`]);
}

export const realMerge: MergePort = { mergeCommit, fetchRunBranches };
