// A node's checks: resolved from the graph's library or inline, run one after
// another in the node's working directory, every one of them (ADR 0002).
import { CHECK_TIMEOUT_DEFAULT_MS, type CheckRef, type GraphFile } from "../graph/schema.ts";
import type { CheckOutcome, CheckSpec, CommandContext } from "../ports.ts";
import { isFatal } from "./node-env.ts";
import type { NodeEnv } from "./contract.ts";
import { commandDigest } from "../check-digest.ts";
import { withReruns } from "./check-reruns.ts";

export function checkSpec(graph: GraphFile, ref: CheckRef): CheckSpec | null {
  const spec = baseSpec(graph, ref);
  // The check's own reruns, else its file's defaults (ADR 0066).
  const reruns = (typeof ref === "string" ? graph.checks?.[ref]?.reruns : ref.reruns) ?? graph.defaults?.reruns;
  if (spec !== null && reruns !== undefined) spec.reruns = reruns;
  return spec;
}

function baseSpec(graph: GraphFile, ref: CheckRef): CheckSpec | null {
  if (typeof ref === "string") {
    const def = graph.checks?.[ref];
    if (!def) return null;
    return { name: ref, run: def.run, expect: def.expect ?? "exit_zero", timeoutMs: def.timeout ?? CHECK_TIMEOUT_DEFAULT_MS };
  }
  return { name: ref.name, run: ref.run, expect: ref.expect ?? "exit_zero", timeoutMs: ref.timeout ?? CHECK_TIMEOUT_DEFAULT_MS };
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

/** @param treeId the git tree the checks run on (the attempt's commit's, in a worktree); null without one. */
export async function runChecks(
  env: NodeEnv,
  specs: CheckSpec[],
  ctx: CommandContext,
  attempt: number,
  treeId: string | null = null,
): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  for (const spec of specs) {
    if (env.signal.aborted) break;
    // After a failure it may run again on the same tree (reruns, ADR 0066).
    const one: OneCheck = { spec, ctx, attempt, treeId };
    out.push(
      await withReruns(
        spec,
        (rerun) => runOne(env, one, rerun),
        () => env.signal.aborted,
      ),
    );
  }
  return out;
}

interface OneCheck {
  spec: CheckSpec;
  ctx: CommandContext;
  attempt: number;
  treeId: string | null;
}

/** One run of one check, and its check.finished (`rerun` 0: the first run). */
async function runOne(env: NodeEnv, { spec, ctx, attempt, treeId }: OneCheck, rerun: number): Promise<CheckOutcome> {
  let outcome: CheckOutcome;
  try {
    outcome = await env.run.ports.commands.runCheck(spec, ctx);
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
    ...(outcome.notRun ? { could_not_run: true as const } : {}),
    // Its history's key (ADR 0067): the command, and the tree it ran on.
    command_digest: commandDigest(spec.run, spec.expect),
    tree_id: treeId,
    ...(rerun > 0 ? { rerun } : {}),
    // A rerun runs only after a failure: one that passes makes the check flaky on this tree.
    ...(rerun > 0 && outcome.passed ? { flaky: true as const } : {}),
  };
  env.run.emitter.emit(ev);
  return outcome;
}
