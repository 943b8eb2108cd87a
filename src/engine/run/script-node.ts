// A script node: the author's `run:`/`argv:` exactly as written, handed to the
// CommandRunner with run data in variables and the state file (never in the
// command text). One printed JSON object is its output.
import { SCRIPT_TIMEOUT_DEFAULT_MS, type ScriptNode } from "../graph/schema.ts";
import type { ScriptOutcome, ScriptSpec } from "../ports.ts";
import { attemptLoop, type Attempt } from "./attempts.ts";
import { compileContract, detailOf, judgeAttempt, renderPrologue, templateFailure, type Produced } from "./judging.ts";
import { scriptSettings } from "./node-settings.ts";
import { commandContext, emitStarted, isFatal, tail } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import { openWorkspace, recordWorkspace, settleAttempt, workspaceFailure } from "./node-workspace.ts";
import { nodeSeal, sealRecord, sealRefused } from "./node-seal.ts";

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

function produced(outcome: ScriptOutcome): Produced {
  return {
    stop: outcome.terminationReason,
    exitCode: outcome.exit,
    signal: outcome.signal,
    text: outcome.stdoutTail,
    truncated: outcome.stdoutBytes > encoder.encode(outcome.stdoutTail).length,
    detail: detailOf(outcome.spawnError, outcome.stderrTail),
  };
}

export async function runScriptNode(env: NodeEnv, node: ScriptNode): Promise<NodeResult> {
  const { run } = env;
  const t0 = run.clock.now();
  const s = scriptSettings(env.frame.graph, node, run.options);
  const pro = renderPrologue(env, node, s.cwd, () => ({}));
  if (pro instanceof Error) return templateFailure(env, "script", pro, t0);
  const spec: ScriptSpec = { timeoutMs: node.timeout ?? SCRIPT_TIMEOUT_DEFAULT_MS, keepStdoutBytes: SCRIPT_STDOUT_KEEP_BYTES };
  if (node.run !== undefined) spec.run = node.run;
  if (node.argv !== undefined) spec.argv = node.argv;
  const contract = compileContract(env, "script", node, pro.stamp);
  const ws = await openWorkspace(env, node, pro.cwd);
  if (ws instanceof Error) return workspaceFailure(env, "script", ws, t0);
  const cwd = ws?.cwd ?? pro.cwd;
  const seal = nodeSeal(env.frame.graph, node, run.options, ws, cwd);
  if ("refused" in seal) return recordWorkspace(env, ws, sealRefused(env, "script", seal, t0));

  const one = async (attempt: number): Promise<Attempt> => {
    emitStarted(env, "script", attempt, { cwd, sealed: seal.decision.sealed });
    const cmd = commandContext(env, attempt, cwd, s.passEnv, ws?.path);
    let outcome: ScriptOutcome;
    try {
      // The script is sealed; its checks are not sealed by this (their own tree is another matter).
      outcome = await run.ports.commands.runScript(spec, seal.request ? { ...cmd, seal: seal.request } : cmd);
    } catch (e) {
      if (isFatal(e)) throw e;
      outcome = failedToRun(e);
    }
    const work = await settleAttempt(env, ws, attempt);
    const judgement = await judgeAttempt(env, contract, { ...produced(outcome), ...work }, attempt, () => cmd);
    // A script spends no model money: its cost is a known zero, not an unknown.
    return { started: true, judgement, stopReason: null, costUsd: 0, turns: null, tokens: null, resultTail: tail(outcome.stdoutTail) };
  };
  return recordWorkspace(env, ws, { ...(await attemptLoop(env, node.retry, one)), seal: sealRecord(seal) });
}
