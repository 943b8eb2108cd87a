// `vouch show RUN --diff NODE`: the patch a node's worktree holds, base..commit
// as its last node.finished recorded them (ADR 0020), read from the repository
// the worktree belongs to. NODE is a label as every reader prints it: an id, or
// map[index].id in a map branch (older spellings are read too: src/read/node-path.ts).
import { existsSync } from "node:fs";
import { UsageError } from "../engine/errors.ts";
import { rootOf } from "../engine/workspace/workspaces.ts";
import type { NodeView, RunSummary } from "../ledger/types.ts";
import { allNodes, nodesNamed, type NamedNode } from "./node-arg.ts";
import { sanitize } from "../text/sanitize.ts";
import { realGit } from "../workspace/git.ts";
import type { CliIO } from "./io.ts";

/** At most this much of a patch is printed (a generated file can make a diff huge). */
export const DIFF_PRINT_BYTES = 16 * 1024 * 1024;

/** The nodes of a run that worked in a worktree, named as --diff takes them (shell completion lists them too). */
export function withWorktrees(s: RunSummary): { name: string; node: NodeView }[] {
  return allNodes(s)
    .filter((n) => n.view.workspace)
    .map((n) => ({ name: n.path, node: n.view }));
}

/** The first repository holding the commit: where the worktree was (this machine's), else the
 *  one here — a branch that ran on a worker (ADR 0029) has its recorded path on the worker. */
export async function holding(commit: string, places: string[]): Promise<string | null> {
  for (const place of places) {
    if (!existsSync(place)) continue;
    const root = await realGit.repoRoot(place);
    if (root !== null && (await realGit.resolveCommit(root, commit)) !== null) return root;
  }
  return null;
}

/** The one node with a worktree `name` names; a usage error naming the candidates otherwise. */
function worktreeNode(s: RunSummary, name: string): NamedNode {
  const all = allNodes(s).filter((n) => n.view.workspace);
  const found = nodesNamed(s, name, all);
  if (found.length === 1) return found[0]!;
  const names = (found.length > 1 ? found : all).map((x) => x.path);
  const some = `${names.slice(0, 20).join(", ")}${names.length > 20 ? ", ..." : ""}`;
  if (found.length > 1)
    throw new UsageError(`node "${name}" has a worktree in ${found.length} map branches of run ${s.run.id}`, `give one: ${some}`);
  throw new UsageError(
    `no node "${name}" with a worktree in run ${s.run.id}`,
    names.length === 0 ? "no node of this run worked in a worktree (workspace mode worktree)" : `nodes with one: ${some}`,
  );
}

export async function printDiff(s: RunSummary, name: string, io: CliIO): Promise<number> {
  const found = worktreeNode(s, name);
  const w = found.view.workspace!;
  const recorded = rootOf(w.path, s.run.id);
  if (recorded === null)
    throw new UsageError(`the recorded worktree of ${found.path} (${w.path}) is not under .vouch/worktrees/${s.run.id}`);
  const root = await holding(w.commit, [recorded, io.cwd]);
  if (root === null)
    throw new UsageError(
      `commit ${w.commit.slice(0, 12)} of ${found.path} is neither in ${recorded} nor in the repository here`,
      "a branch that ran on a worker is here once a merge node fetched it, or after: " +
        "git fetch REMOTE 'refs/heads/vouch/*:refs/heads/vouch/*'",
    );
  const patch = await realGit.diff(root, w.base, w.commit, DIFF_PRINT_BYTES);
  // The exact patch into a pipe (`| git apply` must work); on a terminal no escape sequence of the model's gets through.
  io.out(io.stdoutIsTTY ? sanitize(patch.text) : patch.text);
  if (patch.truncated)
    io.err(
      `vouch: the diff is longer than ${DIFF_PRINT_BYTES} bytes; only its end was printed ` +
        `(git -C ${root} diff ${w.base} ${w.commit} prints all of it)\n`,
    );
  return 0;
}
