// The worktrees' patches for the HTML report (ADR 0071), read here because the
// report is a pure rendering (src/report/ imports no src/cli/, src/workspace/ or
// the process seam): through the real GitPort's diff, from the repository that
// holds the node's commit (as `vouch show --diff` finds it), base..commit as the
// node's last node.finished recorded them. Bounded by DIFF_BOUNDS: at most
// `patches` patches of at most `readBytes` each. A patch that cannot be read is
// a reason on the page, never a failed report.
import { rootOf } from "../engine/workspace/workspaces.ts";
import type { RunSummary } from "../ledger/types.ts";
import type { DiffsFor } from "../report/render.ts";
import { DIFF_BOUNDS, shortCommit, type NodeDiff, type RunDiffs } from "../report/work.ts";
import { oneLine } from "../text/lines.ts";
import { realGit } from "../workspace/git.ts";
import { holding, withWorktrees } from "./show-diff.ts";

type Workspace = NonNullable<RunSummary["nodes"][number]["workspace"]>;

async function readOne(summary: RunSummary, w: Workspace, cwd: string): Promise<NodeDiff> {
  const recorded = rootOf(w.path, summary.run.id);
  const root = await holding(w.commit, recorded === null ? [cwd] : [recorded, cwd]);
  if (root === null) return { unread: `commit ${shortCommit(w.commit)} is in no repository here` };
  const patch = await realGit.diff(root, w.base, w.commit, DIFF_BOUNDS.readBytes);
  if (patch.truncated) return { unread: `the patch is over ${DIFF_BOUNDS.readBytes / 1024 / 1024} MiB` };
  return { patch: patch.text };
}

/** Reads the patches of `summary`'s worktrees that changed something, in the page's order. */
export function recordedDiffs(io: { cwd: string }): DiffsFor {
  return async (summary): Promise<RunDiffs> => {
    const out = new Map<string, NodeDiff>();
    const changed = withWorktrees(summary).filter((n) => n.node.workspace!.commit !== n.node.workspace!.base);
    for (const [i, { name, node }] of changed.entries()) {
      if (i >= DIFF_BOUNDS.patches) {
        out.set(name, { unread: `the page shows at most ${DIFF_BOUNDS.patches} patches` });
        continue;
      }
      try {
        out.set(name, await readOne(summary, node.workspace!, io.cwd));
      } catch (e) {
        out.set(name, { unread: oneLine((e as Error).message) });
      }
    }
    return out;
  };
}
