// The git worktree of an agent or script node (ADR 0020), as the node handlers
// use it: opened before the first attempt, settled (committed, protected paths
// checked) after each, recorded on the node's result. A worktree that cannot be
// set up or recorded is no verdict: error, cause workspace_error.
import { GitPortError } from "../errors.ts";
import { nodeKey } from "../events.ts";
import type { AnyNode } from "../graph/graph-index.ts";
import { BadWorkspaceName } from "../workspace/names.ts";
import { workspaceOf } from "../workspace/spec.ts";
import { WorkspaceError, WorktreeMovedError, type NodeWorkspace } from "../workspace/workspaces.ts";
import type { Produced } from "./judging.ts";
import { emitStarted, isFatal, simpleResult } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";

/** Errors that are the node's (its worktree could not be made), not the run's: the engine's own
 *  and the git port's, known by their classes. */
function isWorkspaceProblem(e: unknown): e is Error {
  return !isFatal(e) && (e instanceof WorkspaceError || e instanceof BadWorkspaceName || e instanceof GitPortError);
}

/** The node's worktree, null when it works in the shared folder, or the error that kept it from being made. */
export async function openWorkspace(env: NodeEnv, node: AnyNode, cwd: string): Promise<NodeWorkspace | null | Error> {
  // The node's own graph file decides (a sub-graph's defaults, ADR 0024); `from` names a node of that file.
  const spec = workspaceOf(env.frame.graph, node);
  if (spec === null) return null;
  if (spec.from !== undefined) spec.from = env.frame.prefix + spec.from;
  try {
    return await env.run.workspaces.open(env.id, env.branch, spec, cwd);
  } catch (e) {
    if (isWorkspaceProblem(e)) return e;
    throw e;
  }
}

/** After an attempt's process: what the judging needs to know of its work. */
/** @param sealed the node's processes run sealed (ADR 0040): so do its checks */
export async function settleAttempt(
  env: NodeEnv,
  ws: NodeWorkspace | null,
  attempt: number,
  sealed = false,
): Promise<Pick<Produced, "tampered" | "workspaceError" | "checkSource" | "treeId">> {
  if (ws === null) return {};
  try {
    const work = await env.run.workspaces.settle(ws, attempt, env.branch, env.round);
    emitRepoChanged(env, ws, attempt, work.repoChanged);
    // The checks run on a tree built from the commit just recorded, never on the live worktree (ADR 0043).
    const source = { root: ws.root, prefix: ws.prefix, base: ws.base, commit: work.record.commit, protect: ws.protectGlobs, sealed };
    return { tampered: work.tampered, treeId: work.treeId, checkSource: ws.deps === undefined ? source : { ...source, deps: ws.deps } };
  } catch (e) {
    if (!isWorkspaceProblem(e)) throw e;
    if (e instanceof WorktreeMovedError) {
      emitRepoChanged(env, ws, attempt, e.repoChanged);
      return { workspaceError: e.message };
    }
    return { workspaceError: `the attempt's work could not be recorded: ${e.message}` };
  }
}

/** The user's repository changed while the attempt ran (ADR 0044): an event, which outputs show as a warning. */
function emitRepoChanged(env: NodeEnv, ws: NodeWorkspace, attempt: number, changed: readonly string[]): void {
  if (changed.length === 0) return;
  env.run.emitter.emit({
    type: "repo.changed",
    node: env.id,
    attempt,
    repo: ws.root,
    changed: [...changed],
    ...(env.branch ? { branch: env.branch } : {}),
  });
}

/** The node's result carries its worktree record; its status decides what `keep` removes at the end. */
export function recordWorkspace(env: NodeEnv, ws: NodeWorkspace | null, r: NodeResult): NodeResult {
  if (ws === null) return r;
  r.workspace = { ...ws.record };
  env.run.workspaces.finished(nodeKey(env.id, env.branch), r.status);
  return r;
}

/** The worktree could not be made: the node starts (so the screen shows it) and ends as an error. */
export function workspaceFailure(env: NodeEnv, kind: string, e: Error, t0: number, harness?: string): NodeResult {
  emitStarted(env, kind, 1, harness !== undefined ? { harness } : {});
  return simpleResult("error", "workspace_error", 1, env.run.clock.now() - t0, {
    error: `could not set up the node's worktree: ${e.message}`,
  });
}
