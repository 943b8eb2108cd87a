// The `kind: merge` rules that need git (ADR 0021), checked with the workspace
// rules before a run starts and by `vouch validate`: a merge node whose cwd is
// not in a git repository, or whose base names no commit, is refused with
// file:line:col (exit 2). A templated cwd is checked when the node runs. A
// literal `into` that names a branch this run did not make is refused too (a
// fresh run made none; a resumed one may meet its own merge's earlier branch):
// vouch never renames or moves the user's branches (issue 27).
import { resolve } from "node:path";
import type { PathProblem } from "../engine/graph/problem.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import type { GitPort } from "../engine/ports.ts";
import { DEFAULT_BASE } from "../engine/workspace/spec.ts";
import { intoRefusal } from "../engine/workspace/into.ts";

/** @param runId the run being resumed; absent for a new run (which has made no branch yet) */
export async function checkMerges(graph: GraphFile, baseDir: string, git: GitPort, runId?: string): Promise<PathProblem[]> {
  const problems: PathProblem[] = [];
  for (const [id, node] of Object.entries(graph.nodes)) {
    if (node.kind !== "merge") continue;
    const cwd = node.cwd ?? graph.defaults?.cwd ?? ".";
    if (cwd.includes("{{")) continue;
    const dir = resolve(baseDir, cwd);
    const root = await git.repoRoot(dir);
    if (root === null) {
      problems.push({
        path: ["nodes", id, "kind"],
        message: `a merge node merges git branches, and ${dir} is not in a git repository`,
        hint: "run vouch inside a git repository, or set the merge node's cwd to a folder of one",
      });
      continue;
    }
    const base = node.base ?? DEFAULT_BASE;
    if ((await git.resolveCommit(root, base)) === null) {
      problems.push({
        path: node.base !== undefined ? ["nodes", id, "base"] : ["nodes", id, "kind"],
        message: `merge base "${base}" names no commit in ${root}`,
        hint:
          base === "HEAD" ? "the repository has no commit yet: commit something first" : "name a branch, tag or commit of that repository",
      });
    }
    const into = node.into;
    if (into === undefined || into.includes("{{")) continue;
    const tipSubject = await git.branchSubject(root, into);
    const refused = intoRefusal({ into, runId: runId ?? "", node: id, planned: false, tipSubject });
    if (refused !== null)
      problems.push({
        path: ["nodes", id, "into"],
        message: `${refused} (it exists in ${root})`,
        hint: 'name a new branch, e.g. "vouch/{{ run.id }}/merged"; the run makes it',
      });
  }
  return problems;
}
