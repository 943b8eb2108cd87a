// A script node: the author's `run:`/`argv:` exactly as written, handed to the
// CommandRunner with run data in variables and the state file (never in the
// command text). One printed JSON object is its output.
import { resolve } from "node:path";
import { TemplateError } from "../errors.ts";
import { SCRIPT_TIMEOUT_DEFAULT_MS, type ScriptNode } from "../graph/schema.ts";
import type { ScriptOutcome, ScriptSpec } from "../ports.ts";
import { renderText } from "../template/render.ts";
import { judgeBeforeChecks, judgeChecks, judgeStop, type Judgement } from "../verdict/conjunction.ts";
import { describeExit, shellCouldNotRun } from "../verdict/could-not-run.ts";
import { judgedParts, renderStamp } from "./judging.ts";
import { attemptLoop, type Attempt } from "./attempts.ts";
import { checkSpec, runChecks } from "./checks.ts";
import { scriptSettings } from "./node-settings.ts";
import { commandContext, isFatal, simpleResult, stoppedResult, tail, type NodeEnv, type NodeResult } from "./node-env.ts";

/** How much of a script's stdout is kept: its output is parsed from it. */
export const SCRIPT_STDOUT_KEEP_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

function failedToRun(e: unknown): ScriptOutcome {
  return {
    exit: null,
    signal: null,
    terminationReason: "spawn_failed",
    wallMs: 0,
    stdoutTail: "",
    stderrTail: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    truncated: false,
    spawnError: `the command runner failed: ${(e as Error)?.message ?? String(e)}`,
  };
}

export async function runScriptNode(env: NodeEnv, node: ScriptNode): Promise<NodeResult> {
  const { ctx } = env;
  const t0 = ctx.clock.now();
  const s = scriptSettings(ctx.graph, node, ctx.options);
  const parts = judgedParts(node);
  let cwd: string;
  let stamp: Record<string, unknown> | undefined;
  try {
    const scope = env.scope();
    cwd = resolve(ctx.options.baseDir, s.cwd !== undefined ? renderText(s.cwd, scope) : ".");
    stamp = renderStamp(node.stamp, scope);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    emitStarted(env, 1);
    return simpleResult("error", "template_error", 1, ctx.clock.now() - t0, { error: e.message });
  }
  const spec: ScriptSpec = { timeoutMs: node.timeout ?? SCRIPT_TIMEOUT_DEFAULT_MS, keepStdoutBytes: SCRIPT_STDOUT_KEEP_BYTES };
  if (node.run !== undefined) spec.run = node.run;
  if (node.argv !== undefined) spec.argv = node.argv;
  const specs = (node.success?.checks ?? []).map((ref) => checkSpec(ctx.graph, ref)).filter((x) => x !== null);
  const schema = node.output?.schema ? ctx.schemas.compile(node.output.schema) : undefined;
  const matches = node.success?.result_matches ? new RegExp(node.success.result_matches) : undefined;

  const one = async (attempt: number): Promise<Attempt> => {
    emitStarted(env, attempt);
    const cmd = commandContext(env, attempt, cwd, s.passEnv);
    let outcome: ScriptOutcome;
    try {
      outcome = await ctx.ports.commands.runScript(spec, cmd);
    } catch (e) {
      if (isFatal(e)) throw e;
      outcome = failedToRun(e);
    }
    const detail = outcome.spawnError ?? (outcome.stderrTail.trim() ? tail(outcome.stderrTail.trim().split("\n").pop()!, 300) : undefined);
    let judgement: Judgement | null = judgeStop("script", outcome.terminationReason, parts, detail, env.runStop());
    if (!judgement && outcome.exit === null) {
      // Ended by a signal vouch did not send (a crash, the OOM killer): no exit status, so no verdict.
      const how = `the script was killed by ${outcome.signal ?? "a signal"}`;
      judgement = judgeStop("script", "crashed", parts, undefined, null)!;
      judgement = { ...judgement, error: detail ? `${how}: ${detail}` : how };
    }
    // The shell vouch started could not find or execute the command: the work never ran (ERROR, not FAIL).
    if (!judgement && node.run !== undefined && shellCouldNotRun(outcome.exit) !== null) {
      judgement = judgeStop("script", "spawn_failed", parts, detail ? `${describeExit(outcome.exit)}: ${detail}` : describeExit(outcome.exit), null);
    }
    if (!judgement) {
      const before = judgeBeforeChecks({
        parts,
        exitCode: outcome.exit,
        text: outcome.stdoutTail,
        format: node.output?.format,
        isScript: true,
        truncated: outcome.stdoutBytes > encoder.encode(outcome.stdoutTail).length,
        schema,
        stamp,
        resultMatches: matches,
      });
      if (!before.ok) judgement = before.judgement;
      else {
        const outcomes = await runChecks(env, specs, { ...cmd, output: before.output }, attempt);
        if (env.signal.aborted) {
          const r = stoppedResult(env, attempt, 0);
          judgement = { status: r.status, qualifier: null, cause: r.cause, error: r.error, evidence: before.evidence, failedChecks: [] };
        } else judgement = judgeChecks(before, outcomes);
      }
    }
    if (judgement.cause === "nonzero_exit" && detail) judgement.error = `${judgement.error}: ${detail}`;
    // A script spends no model money: its cost is a known zero, not an unknown.
    return { started: true, judgement, stopReason: null, costUsd: 0, turns: null, tokens: null, resultTail: tail(outcome.stdoutTail) };
  };
  return attemptLoop(env, node.retry, one);
}

function emitStarted(env: NodeEnv, attempt: number): void {
  const ev = { type: "node.started" as const, node: env.id, kind: "script", attempt, ...(env.branch ? { branch: env.branch } : {}), ...(env.round !== undefined ? { round: env.round } : {}) };
  env.ctx.emitter.emit(ev);
}
