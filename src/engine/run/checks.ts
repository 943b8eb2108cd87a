// A node's checks: resolved from the graph's library or inline, run one after
// another in the node's working directory, every one of them (ADR 0002).
import { CHECK_TIMEOUT_DEFAULT_MS, type CheckRef, type GraphFile } from "../graph/schema.ts";
import type { CheckOutcome, CheckSpec, CommandContext } from "../ports.ts";
import { isFatal } from "./node-env.ts";
import type { NodeEnv } from "./contract.ts";
import type { AttemptTrees, OpenTree } from "./check-tree.ts";
import { commandDigest } from "../check-digest.ts";
import { withReruns } from "./check-reruns.ts";

export function checkSpec(graph: GraphFile, ref: CheckRef): CheckSpec | null {
  const def = typeof ref === "string" ? (Object.hasOwn(graph.checks ?? {}, ref) ? graph.checks![ref] : undefined) : ref;
  if (!def) return null;
  const spec: CheckSpec = {
    name: typeof ref === "string" ? ref : ref.name,
    run: def.run,
    expect: def.expect ?? "exit_zero",
    timeoutMs: def.timeout ?? CHECK_TIMEOUT_DEFAULT_MS,
  };
  if (def.from_base !== undefined) spec.fromBase = def.from_base;
  if (def.from_result !== undefined) spec.fromResult = def.from_result;
  if (def.network !== undefined) spec.network = def.network;
  if (def.witness !== undefined) spec.witness = def.witness;
  // The check's own reruns, else its file's defaults (ADR 0066).
  const reruns = def.reruns ?? graph.defaults?.reruns;
  if (reruns !== undefined) spec.reruns = reruns;
  return spec;
}

function expectText(spec: CheckSpec): string {
  const e = spec.expect;
  if (typeof e === "string") return e;
  return "exit" in e ? `exit ${e.exit}` : `output_matches /${e.output_matches}/`;
}

function brokenCheck(spec: CheckSpec, reason: string): CheckOutcome {
  return {
    name: spec.name,
    passed: false,
    expect: expectText(spec),
    reason,
    notRun: true,
    exit: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    stdoutTail: "",
    stderrTail: "",
    truncated: false,
  };
}

/** Every check of the node, one after another (ADR 0002). With `trees` (a node with a worktree,
 *  ADR 0043) each runs on a fresh tree built from the attempt's commit, and a witnessed check
 *  first on the base (ADR 0044): one that passes there is vacuous and does not run on the result. */
/** @param treeId the git tree the checks run on (the attempt's commit's, in a worktree); null without one. */
export async function runChecks(
  env: NodeEnv,
  specs: CheckSpec[],
  ctx: CommandContext,
  attempt: number,
  treeId: string | null = null,
  trees?: AttemptTrees,
): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  // The trees the checks open, in order, when each goes as planned (a witness fails on the base, no
  // rerun): while one runs, the next one's tree is written (ADR 0073). Only sealed: a sealed check
  // cannot reach another tree (its /dev/shm and the repository's .vouch are its own), an unsealed
  // one could write the next check's tree while it waits.
  const ahead = trees?.source.sealed === true ? trees : undefined;
  const plan = specs.flatMap((spec) => [...(spec.witness !== undefined ? [{ spec, onBase: true }] : []), { spec, onBase: false }]);
  const after = (spec: CheckSpec, onBase: boolean) => {
    const i = plan.findIndex((s) => s.spec === spec && s.onBase === onBase);
    const next = plan[i + 1];
    return next === undefined || ahead === undefined ? undefined : () => ahead.prepare(next.spec, next.onBase);
  };
  try {
    for (const spec of specs) {
      if (env.signal.aborted) break;
      if (spec.witness !== undefined) {
        // Never rerun: failing there is what a witness must do. Its history is not the result's tree's.
        const base: OneCheck = { spec, ctx, attempt, treeId: null, trees, onBase: true, next: after(spec, true) };
        const onBase = trees === undefined ? noBase(spec) : await runOne(env, base, 0);
        if (env.signal.aborted) break;
        if (onBase.notRun || onBase.passed) {
          out.push(onBase.notRun ? { ...onBase, reason: `on the base: ${onBase.reason ?? "it could not run"}` } : vacuous(spec, onBase));
          continue;
        }
      }
      // After a failure it may run again on the same tree (reruns, ADR 0066).
      const one: OneCheck = { spec, ctx, attempt, treeId, trees, onBase: false, next: after(spec, false) };
      const outcome = await withReruns(
        spec,
        (rerun) => runOne(env, one, rerun),
        () => env.signal.aborted,
      );
      if (spec.witness !== undefined && outcome.passed) outcome.witnessed = true;
      out.push(outcome);
    }
  } finally {
    await trees?.dispose();
  }
  return out;
}

interface OneCheck {
  spec: CheckSpec;
  ctx: CommandContext;
  attempt: number;
  treeId: string | null;
  trees: AttemptTrees | undefined;
  onBase: boolean;
  /** Starts the next check's tree (once this one's is open). */
  next?: (() => void) | undefined;
}

/** One run of one check (`rerun` 0: the first), on a fresh tree of its own when it has one; check.finished says which. */
async function runOne(env: NodeEnv, { spec, ctx, attempt, treeId, trees, onBase, next }: OneCheck, rerun: number): Promise<CheckOutcome> {
  let outcome: CheckOutcome;
  // What it ran on (ADR 0067): on a check tree, that tree's id (the commit's with what came from the
  // base, ADR 0073); a witness's base run keeps none (its history is not the result's).
  let ranOn = treeId;
  try {
    if (trees === undefined) outcome = await env.run.ports.commands.runCheck(spec, ctx);
    else {
      const sealed = await runSealed(env, spec, ctx, trees, onBase, next);
      outcome = sealed.outcome;
      if (!onBase && sealed.treeId !== null) ranOn = sealed.treeId;
    }
  } catch (e) {
    if (isFatal(e)) throw e;
    outcome = brokenCheck(spec, `the check could not run: ${(e as Error).message ?? String(e)}`);
  }
  const ev = {
    type: "check.finished" as const,
    node: env.id,
    attempt,
    name: outcome.name,
    passed: outcome.passed,
    expect: outcome.expect,
    exit: outcome.exit,
    signal: outcome.signal,
    timed_out: outcome.timedOut,
    duration_ms: outcome.durationMs,
    stdout_tail: outcome.stdoutTail,
    stderr_tail: outcome.stderrTail,
    truncated: outcome.truncated,
    ...(env.branch ? { branch: env.branch } : {}),
    ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    ...(trees !== undefined ? { tree: onBase ? ("base" as const) : ("commit" as const) } : {}),
    ...(outcome.notRun ? { could_not_run: true as const } : {}),
    // Its history's key (ADR 0067): the command, and the tree it ran on.
    command_digest: commandDigest(spec.run, spec.expect),
    tree_id: ranOn,
    ...(rerun > 0 ? { rerun } : {}),
    // A rerun runs only after a failure: one that passes makes the check flaky on this tree.
    ...(rerun > 0 && outcome.passed ? { flaky: true as const } : {}),
  };
  env.run.emitter.emit(ev);
  return outcome;
}

/** The check in a fresh folder of its tree, at cwd's place in it; the folder goes after. */
async function runSealed(
  env: NodeEnv,
  spec: CheckSpec,
  ctx: CommandContext,
  trees: AttemptTrees,
  onBase: boolean,
  next: (() => void) | undefined,
): Promise<{ outcome: CheckOutcome; treeId: string | null }> {
  // The next check's tree is written ahead only while the run goes on: a stopped run would wait for a tree nobody uses.
  const prepareNext = () => {
    if (!env.signal.aborted) next?.();
  };
  let tree: OpenTree;
  try {
    tree = await trees.open(spec, onBase);
  } catch (e) {
    if (isFatal(e)) throw e;
    prepareNext();
    return { outcome: brokenCheck(spec, `its tree could not be made: ${(e as Error).message ?? String(e)}`), treeId: null };
  }
  prepareNext();
  try {
    const cwd = trees.source.prefix === "" ? tree.dir : `${tree.dir}/${trees.source.prefix.replace(/\/+$/, "")}`;
    const vars = { ...ctx.vars, VOUCH_WORKSPACE: tree.dir };
    const network = spec.network === true;
    // Sealed, a check may write only its own tree (and a scratch TMPDIR and HOME): the dependency
    // folders it links stay read-only, your repository's records out of reach (ADR 0040, 0043).
    const seal = trees.source.sealed ? { seal: { tree: tree.dir, repository: trees.source.root, network } } : {};
    const outcome = await env.run.ports.commands.runCheck(spec, {
      ...ctx,
      cwd,
      vars,
      checkTree: { dir: tree.dir, links: tree.links, network },
      ...seal,
    });
    return { outcome, treeId: tree.treeId };
  } finally {
    await tree.close().catch(() => undefined); // a folder left behind is vouch clean's
  }
}

/** A witness needs a base to run on: a node without a worktree has none (the validator refuses it). */
function noBase(spec: CheckSpec): CheckOutcome {
  return brokenCheck(spec, "a witness (fails_on_base) needs the node's worktree: there is no base to run it on");
}

/** Passed on the base: it does not tell the work apart from what was there before. */
function vacuous(spec: CheckSpec, onBase: CheckOutcome): CheckOutcome {
  return {
    ...onBase,
    name: spec.name,
    passed: false,
    vacuous: true,
    reason: "it passed on the base too, so it does not tell the work apart (witness: fails_on_base)",
  };
}
