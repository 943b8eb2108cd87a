// A node's checks: resolved from the graph's library or inline, run one after
// another in the node's working directory, every one of them (ADR 0002).
import { CHECK_TIMEOUT_DEFAULT_MS, type CheckRef, type GraphFile } from "../graph/schema.ts";
import type { CheckOutcome, CheckSpec, CommandContext } from "../ports.ts";
import { isFatal } from "./node-env.ts";
import type { NodeEnv } from "./contract.ts";

export function checkSpec(graph: GraphFile, ref: CheckRef): CheckSpec | null {
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

export async function runChecks(env: NodeEnv, specs: CheckSpec[], ctx: CommandContext, attempt: number): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  for (const spec of specs) {
    if (env.signal.aborted) break;
    let outcome: CheckOutcome;
    try {
      outcome = await env.run.ports.commands.runCheck(spec, ctx);
    } catch (e) {
      if (isFatal(e)) throw e;
      outcome = brokenCheck(spec, `the check could not run: ${(e as Error).message ?? String(e)}`);
    }
    out.push(outcome);
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
    };
    env.run.emitter.emit(ev);
  }
  return out;
}
