// A `kind: merge` node (ADR 0021): merges the passed upstream branches, in
// order, onto a new branch from `base`, leaving out (and reporting) each one
// that conflicts with what was merged before it; then checks out the result in
// its own worktree and runs the node's checks there. The user's checkout is
// never touched: merges happen in git's object store (MergePort), the result
// is a branch.
import { resolve } from "node:path";
import { TemplateError } from "../errors.ts";
import type { MergeNode } from "../graph/schema.ts";
import type { CheckOutcome } from "../ports.ts";
import { renderText } from "../template/render.ts";
import { judgeChecks } from "../verdict/conjunction.ts";
import { branchName, worktreePath } from "../workspace/names.ts";
import { keepAside } from "../workspace/workspaces.ts";
import { DEFAULT_BASE } from "../workspace/spec.ts";
import { intoRefusal, mergeMessage } from "../workspace/into.ts";
import { checkSpec, runChecks } from "./checks.ts";
import { decideSeal, NOT_PROBED, sandboxModeOf } from "../sandbox.ts";
import { AttemptTrees, type CheckSource } from "./check-tree.ts";
import { mergeSources, type MergeSource } from "./merge-sources.ts";
import { commandContext, emitStarted, isFatal, simpleResult, stoppedResult } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import { AbortedWhileWaiting } from "../scheduler/slots.ts";
import type { NodeView } from "./node-view.ts";
import { mergeVerdict, type MergeOutput, type MergeVerdict } from "./merge-verdict.ts";
import { branchNameProblem } from "../graph/branch-name.ts";
import { mergeFromIds } from "../graph/merge-from.ts";

/** The most conflicting paths an event or the output names per branch. */
const MAX_PATHS = 50;

interface Place {
  root: string;
  /** Where cwd is inside the repository ("" at its root). */
  prefix: string;
  into: string;
  base: string;
  baseCommit: string;
}

/** The branch the merge goes to, rendered from `into` (default vouch/<run>/<node>). */
function intoBranch(env: NodeEnv, node: MergeNode): string {
  if (node.into === undefined) return branchName(env.run.options.runId, env.id);
  return renderText(node.into, { ...env.scope(), run: { id: env.run.options.runId } });
}

async function locate(env: NodeEnv, node: MergeNode): Promise<Place | string> {
  const { run } = env;
  const scope = env.scope();
  // The node's own file decides (a sub-graph's defaults, ADR 0024), as for agents and scripts.
  const cwdTemplate = node.cwd ?? env.frame.graph.defaults?.cwd;
  const cwd = resolve(run.options.baseDir, cwdTemplate !== undefined ? renderText(cwdTemplate, scope) : ".");
  const into = intoBranch(env, node);
  const bad = branchNameProblem(into);
  if (bad) return `into "${into}" ${bad}`;
  const root = await run.ports.git.repoRoot(cwd);
  if (root === null) return `${cwd} is not in a git repository: a merge node merges git branches`;
  // Before any git write: a branch this merge did not make is never renamed or moved.
  const planned = env.frame.graph.origin === "planned";
  const tipSubject = await run.ports.git.branchSubject(root, into);
  const refused = intoRefusal({ into, runId: run.options.runId, node: env.id, planned, tipSubject });
  if (refused !== null) return refused;
  const base = node.base ?? DEFAULT_BASE;
  const baseCommit = await run.ports.git.resolveCommit(root, base);
  if (baseCommit === null) return `base "${base}" names no commit in ${root}`;
  return { root, prefix: await run.ports.git.cwdPrefix(cwd), into, base, baseCommit };
}

/** Merges each source onto the last merge commit; a conflicting one is left out and reported. */
async function mergeAll(
  env: NodeEnv,
  p: Place,
  sources: MergeSource[],
): Promise<{ tip: string; output: Pick<MergeOutput, "merged" | "left_out"> }> {
  const { run } = env;
  let tip = p.baseCommit;
  const merged: MergeOutput["merged"] = [];
  const leftOut: MergeOutput["left_out"] = [];
  for (const s of sources) {
    // The commit vouch judged, never what the branch names now (a sitting, or something it left
    // running, may have moved it since): what was judged is what is merged (issue 27).
    const judged = run.workspaces.recorded(s.key);
    if (judged === undefined) {
      leftOut.push({ branch: s.branch, from: s.from, reason: "no_branch", paths: [] });
      continue;
    }
    const step = await run.ports.merge.mergeCommit(p.root, tip, judged.commit, mergeMessage(run.options.runId, env.id, s.branch));
    if (step.merged) {
      tip = step.commit;
      merged.push({ branch: s.branch, from: s.from, commit: step.source });
      continue;
    }
    const paths = step.paths.slice(0, MAX_PATHS);
    leftOut.push({ branch: s.branch, from: s.from, reason: "merge_conflict", paths });
    run.emitter.emit({ type: "merge.conflict", node: env.id, attempt: 1, git_branch: s.branch, from: s.from, paths });
  }
  return { tip, output: { merged, left_out: leftOut } };
}

/** The worktree the merged tree is checked out in; an earlier session's branch is kept as <into>@n. */
async function checkout(env: NodeEnv, p: Place, tip: string): Promise<string> {
  const git = env.run.ports.git;
  await keepAside(git, p.root, p.into);
  const path = worktreePath(p.root, env.run.options.runId, env.id);
  await git.removeWorktree(p.root, path).catch(() => {}); // a worktree a killed session left behind
  await git.hideVouchDir(p.root);
  await git.addWorktree(p.root, path, p.into, tip);
  return path;
}

/** A merge starts git and the checks: it holds a process slot, like an attempt of an agent or a script. */
export async function runMergeNode(env: NodeEnv, node: MergeNode): Promise<NodeResult> {
  const t0 = env.run.clock.now();
  let release: () => void;
  try {
    release = await env.run.slots.acquire(env.signal);
  } catch (e) {
    if (e instanceof AbortedWhileWaiting) return stoppedResult(env.runStop(), 0, env.run.clock.now() - t0);
    throw e;
  }
  try {
    if (env.signal.aborted) return stoppedResult(env.runStop(), 0, env.run.clock.now() - t0);
    return await merge(env, node, t0);
  } finally {
    release();
  }
}

async function merge(env: NodeEnv, node: MergeNode, t0: number): Promise<NodeResult> {
  const { run } = env;
  emitStarted(env, "merge", 1);
  const took = () => run.clock.now() - t0;
  try {
    const place = await locate(env, node);
    if (typeof place === "string") return simpleResult("error", "harness_error", 1, took(), { error: place });
    await fetchFromWorkers(env, node, place.root);
    const plan = mergeSources(env.frame.graph, node, run.options.runId, env.scope().nodes as Record<string, NodeView>, env.frame.prefix);
    const { tip, output } = await mergeAll(env, place, plan.sources);
    const stat = await run.ports.git.diffStat(place.root, place.baseCommit, tip);
    const full: MergeOutput = {
      base: place.base,
      base_commit: place.baseCommit,
      commit: tip,
      ...output,
      not_passed: plan.notPassed,
      files_changed: stat.filesChanged,
      insertions: stat.insertions,
      deletions: stat.deletions,
    };
    // Nothing merged: no branch and no worktree are made, and there is no tree to check.
    let outcomes: CheckOutcome[] | null = [];
    if (output.merged.length > 0) {
      full.branch = place.into;
      full.worktree = await checkout(env, place, tip);
      // The merged tree's protected paths come from base: every merged source's protect globs.
      const merged = new Set(output.merged.map((m) => m.branch));
      const protect = [...new Set(plan.sources.filter((s) => merged.has(s.branch)).flatMap((s) => s.protect))];
      outcomes = await checksOn(env, node, { root: place.root, prefix: place.prefix, base: place.baseCommit, commit: tip, protect });
    }
    const judged = outcomes === null ? null : judgeChecks({ ok: true, output: full, evidence: [], selfReported: false }, outcomes);
    const v = mergeVerdict(full, judged, env.runStop());
    const result = mergeResult(v, full, took());
    // The branch holds the result; a failed merge's worktree stays to be looked at (`vouch clean` removes it).
    if (v.status === "passed" && full.worktree !== undefined) await run.ports.git.removeWorktree(place.root, full.worktree);
    return result;
  } catch (e) {
    if (isFatal(e)) throw e;
    if (e instanceof TemplateError) return simpleResult("error", "template_error", 1, took(), { error: e.message });
    if (e instanceof SealRefusedError) return simpleResult("error", "unavailable", 1, took(), { error: e.message });
    return simpleResult("error", "harness_error", 1, took(), { error: `the merge could not be made: ${(e as Error).message}` });
  }
}

/** Branches that ran on workers were pushed to the remote (ADR 0029): bring them here first.
 *  Only the top graph's maps run on workers (a sub-graph's branches run here). */
async function fetchFromWorkers(env: NodeEnv, node: MergeNode, root: string): Promise<void> {
  const { run } = env;
  const remote = run.options.remoteWorkspace;
  const overWorkers = env.frame.prefix === "" && mergeFromIds(node).some((id) => env.frame.graph.nodes[id]?.kind === "map");
  if (remote && overWorkers && run.ports.merge.fetchRunBranches)
    await run.ports.merge.fetchRunBranches(root, remote.remote, run.options.runId);
}

/** The node's result: the verdict, the output, and the worktree record when a branch was made. */
function mergeResult(v: MergeVerdict, full: MergeOutput, wallMs: number): NodeResult {
  const result = simpleResult(v.status, v.cause, 1, wallMs, {
    qualifier: v.qualifier,
    output: full,
    failedChecks: v.failedChecks,
    evidence: v.evidence,
  });
  if (v.error !== undefined) result.error = v.error;
  if (full.branch !== undefined && full.worktree !== undefined) {
    result.workspace = {
      branch: full.branch,
      base: full.base_commit,
      commit: full.commit,
      files_changed: full.files_changed,
      insertions: full.insertions,
      deletions: full.deletions,
      path: full.worktree,
    };
  }
  return result;
}

/** `sandbox: required` where nothing can seal: the merge's checks do not run unsealed. */
class SealRefusedError extends Error {
  override readonly name = "SealRefusedError";
}

/** The node's checks, each on a tree built from the merge commit (ADR 0043; cwd keeps its place
 *  relative to the repository root), never on the worktree it was checked out in. */
async function checksOn(env: NodeEnv, node: MergeNode, source: CheckSource): Promise<CheckOutcome[] | null> {
  if (env.signal.aborted) return null;
  const specs = (node.success?.checks ?? []).map((ref) => checkSpec(env.frame.graph, ref)).filter((s) => s !== null);
  if (specs.length === 0) return [];
  const passEnv = [...new Set([...(env.frame.graph.defaults?.env ?? []), ...(node.env ?? []), ...(env.run.options.passEnv ?? [])])];
  const deps = env.frame.graph.defaults?.workspace?.deps;
  // The merge's checks are sealed as the graph's defaults (or --sandbox) say a script with a worktree is (ADR 0040).
  const mode = sandboxModeOf(undefined, env.frame.graph.defaults?.sandbox, env.run.options.sandbox);
  const seal = decideSeal(mode, env.run.options.sandboxAvailability ?? NOT_PROBED, { kind: "script", workspace: true });
  if ("refused" in seal) throw new SealRefusedError(seal.refused);
  const trees = new AttemptTrees(env, { ...source, ...(deps === undefined ? {} : { deps }), sealed: seal.sealed }, 1);
  const ctx = commandContext(env, 1, source.root, passEnv);
  const outcomes = await runChecks(env, specs, ctx, 1, null, trees);
  return env.signal.aborted ? null : outcomes;
}
