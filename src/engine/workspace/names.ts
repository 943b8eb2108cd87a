// Branch names and worktree folders of a run (ADR 0020): one place decides
// them, so the engine, `vouch clean` and `vouch show` agree. Every part is
// checked to be a plain name (letters, digits, _ and -, not starting with -
// or .), so no run id or node id can make a path that climbs out of
// .vouch/worktrees, or a branch name git reads as an option or refuses.
import type { BranchRef } from "../events.ts";

export const WORKTREES_DIR = ".vouch/worktrees";
export const TREES_DIR = ".vouch/trees";
export const BRANCH_PREFIX = "vouch";

const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

export class BadWorkspaceName extends Error {
  override readonly name = "BadWorkspaceName";
}

function plain(what: string, value: string): string {
  if (!PLAIN.test(value) || value.length > 200) {
    throw new BadWorkspaceName(`${what} "${value}" cannot name a branch or a folder (only letters, digits, _ and -, not starting with -)`);
  }
  return value;
}

/** The parts after the run: "node", or "map/index/node" in a map branch. A node inside a
 *  sub-graph has a prefixed id ("review/fix", ADR 0024): each part is checked on its own. */
function parts(runId: string, node: string, branch?: BranchRef): string[] {
  const out = [plain("run id", runId)];
  if (branch) out.push(...branch.map.split("/").map((m) => plain("map", m)), String(branch.index));
  out.push(...node.split("/").map((n) => plain("node", n)));
  return out;
}

/** vouch/<run>/<node>, or vouch/<run>/<map>/<index>/<node>. */
export function branchName(runId: string, node: string, branch?: BranchRef): string {
  return [BRANCH_PREFIX, ...parts(runId, node, branch)].join("/");
}

/** <repo>/.vouch/worktrees/<run>/<node>, or …/<run>/<map>/<index>/<node>. */
export function worktreePath(repoRoot: string, runId: string, node: string, branch?: BranchRef): string {
  return [repoRoot.replace(/\/+$/, ""), WORKTREES_DIR, ...parts(runId, node, branch)].join("/");
}

/** The name of one check's tree of one attempt (ADR 0043): <run>/…/<node>/<attempt>-<n>, "-base" for a
 *  witness's run on the base. The git port decides where the folder of that name is (a tmpfs, or
 *  <repo>/.vouch/trees); it is made for the check and removed after it. */
export function checkTreeName(
  runId: string,
  node: string,
  branch: BranchRef | undefined,
  attempt: number,
  n: number,
  onBase = false,
): string {
  return [...parts(runId, node, branch), `${attempt}-${n}${onBase ? "-base" : ""}`].join("/");
}

/** The folder holding every worktree of a run. */
export function runWorktreesDir(repoRoot: string, runId: string): string {
  return [repoRoot.replace(/\/+$/, ""), WORKTREES_DIR, plain("run id", runId)].join("/");
}

/** The name an earlier try's branch is kept under when the node runs again: <branch>@<n>. */
export function keptBranchName(branch: string, n: number): string {
  return `${branch}@${n}`;
}

/** The message of the commit after an attempt: it names run, node and attempt (and the
 *  feedback round after the first: attempts restart each round). */
export function attemptMessage(runId: string, node: string, attempt: number, branch?: BranchRef, round?: number): string {
  const where = branch ? `${branch.map}[${branch.index}].${node}` : node;
  return `vouch: run ${runId}, node ${where}, attempt ${attempt}${round !== undefined && round > 1 ? `, round ${round}` : ""}`;
}
