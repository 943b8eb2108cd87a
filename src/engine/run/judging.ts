// The judging pipeline of every node kind whose work leaves evidence (agent and
// script nodes; the coming merge and graph kinds too): the prologue (templates,
// working folder, stamp), the node's contract compiled once, and the success
// conjunction (ADR 0002) run on what one attempt produced. The decisions are
// the pure functions of verdict/conjunction.ts; this file runs the checks.
import { resolve } from "node:path";
import { TemplateError } from "../errors.ts";
import type { CheckRef } from "../graph/schema.ts";
import type { CheckSpec, CommandContext, TerminationReason } from "../ports.ts";
import type { StopReason } from "../events.ts";
import { renderText, renderValue } from "../template/render.ts";
import { judgeBeforeChecks, judgeChecks, judgeStop, judgeTampered, type Judgement, type Parts } from "../verdict/conjunction.ts";
import { stopOutcome } from "../verdict/stop.ts";
import { describeExit, shellCouldNotRun } from "../verdict/could-not-run.ts";
import type { SchemaCheck } from "../verdict/output-schema.ts";
import { checkSpec, runChecks } from "./checks.ts";
import { AttemptTrees, type CheckSource } from "./check-tree.ts";
import { emitStarted, simpleResult, tail } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";

/** The fields of a node definition the conjunction reads. */
export interface JudgedNode {
  /** A script's shell command (`run:`): its shell's 126/127 mean the work never ran. */
  run?: string;
  output?: { format?: "text" | "json"; schema?: Record<string, unknown> };
  stamp?: Record<string, string>;
  success?: { exit_zero?: boolean; result_matches?: string; checks?: CheckRef[] };
}

export type JudgedKind = "agent" | "script";

/** A node's success conjunction, compiled once for all its attempts. */
export interface Contract {
  kind: JudgedKind;
  parts: Parts;
  format: "text" | "json" | undefined;
  specs: CheckSpec[];
  schema: SchemaCheck | undefined;
  matches: RegExp | undefined;
  /** The command runs in a shell vouch started (a script's `run:`). */
  viaShell: boolean;
  /** Stamp values, rendered once from the item (the prologue). */
  stamp: Record<string, unknown> | undefined;
}

export function judgedParts(node: JudgedNode): Parts {
  return {
    exitZero: node.success?.exit_zero ?? true,
    outputJudged: node.output?.format === "json" || node.output?.schema !== undefined || node.stamp !== undefined,
    resultMatches: node.success?.result_matches !== undefined,
    checks: node.success?.checks?.length ?? 0,
  };
}

export function compileContract(env: NodeEnv, kind: JudgedKind, node: JudgedNode, stamp: Record<string, unknown> | undefined): Contract {
  const { run } = env;
  return {
    kind,
    stamp,
    viaShell: kind === "script" && node.run !== undefined,
    parts: judgedParts(node),
    format: node.output?.format,
    // Validation refuses a graph naming a check it does not define: none is dropped here.
    specs: (node.success?.checks ?? []).map((ref) => checkSpec(env.frame.graph, ref)).filter((x) => x !== null),
    schema: node.output?.schema ? run.schemas.compile(node.output.schema) : undefined,
    matches: node.success?.result_matches ? new RegExp(node.success.result_matches) : undefined,
  };
}

export function renderStamp(
  stamp: Record<string, string> | undefined,
  scope: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (!stamp) return undefined;
  return Object.fromEntries(Object.entries(stamp).map(([k, t]) => [k, renderValue(t, scope)]));
}

export interface Prologue {
  cwd: string;
  stamp: Record<string, unknown> | undefined;
}

/** Renders the node's templates from the run data: `first` (an agent's prompt) before
 *  the working folder and the stamp, so the first broken template is the one reported. */
export function renderPrologue<T extends object>(
  env: NodeEnv,
  node: JudgedNode,
  cwd: string | undefined,
  first: (scope: Record<string, unknown>) => T,
): (T & Prologue) | TemplateError {
  try {
    const scope = env.scope();
    const head = first(scope);
    const dir = resolve(env.run.options.baseDir, cwd !== undefined ? renderText(cwd, scope) : ".");
    return { ...head, cwd: dir, stamp: renderStamp(node.stamp, scope) };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return e;
  }
}

/** A template the node could not render: it starts (so the screen shows it) and ends as an error. */
export function templateFailure(env: NodeEnv, kind: JudgedKind, e: TemplateError, t0: number, harness?: string): NodeResult {
  emitStarted(env, kind, 1, harness !== undefined ? { harness } : {});
  return simpleResult("error", "template_error", 1, env.run.clock.now() - t0, { error: e.message });
}

/** What one attempt's process left to judge: an agent's sitting or a script's run. */
export interface Produced {
  stop: StopReason | TerminationReason;
  exitCode: number | null;
  /** The signal that ended a script (null when it exited). */
  signal?: string | null;
  /** The agent's result text or the script's stdout. */
  text: string;
  structured?: unknown;
  truncated: boolean;
  /** The runner's error, else the last line of stderr: said after a stop's reason. */
  detail: string | undefined;
  /** Protected paths the attempt changed in its worktree (ADR 0020). */
  tampered?: readonly string[];
  /** The attempt's work could not be committed or inspected: no verdict. */
  workspaceError?: string;
  /** The git tree object id of the attempt's commit (a node in a worktree): its checks' history key (ADR 0067). */
  treeId?: string;
  /** The attempt's recorded commit, which its checks' trees are built from (ADR 0043). */
  checkSource?: CheckSource;
}

/** The runner's own error wins; else the last line of what the process printed to stderr. */
export function detailOf(error: string | undefined, stderrTail: string): string | undefined {
  const trimmed = stderrTail.trim();
  return error ?? (trimmed ? tail(trimmed.split("\n").pop()!, 300) : undefined);
}

/** The success conjunction on one attempt: stop → exit_zero → output → result_matches → checks. */
export async function judgeAttempt(
  env: NodeEnv,
  c: Contract,
  p: Produced,
  attempt: number,
  command: () => CommandContext,
): Promise<Judgement> {
  const judgement = await conjunction(env, c, p, attempt, command);
  // A script's failing exit says why in its stderr; an agent's detail is in its transcript.
  if (c.kind === "script" && judgement.cause === "nonzero_exit" && p.detail) judgement.error = `${judgement.error}: ${p.detail}`;
  return judgement;
}

async function conjunction(env: NodeEnv, c: Contract, p: Produced, attempt: number, command: () => CommandContext): Promise<Judgement> {
  const stopped = judgeStop(c.kind, p.stop, c.parts, p.detail, env.runStop());
  if (stopped) return stopped;
  if (c.kind === "script" && p.exitCode === null) {
    // The terminal's interrupt, or any signal while the run is being stopped, is the stop's, not a
    // crash: a Ctrl-C to vouch's process group reaches a child in the moment before it leaves the
    // group (posix_spawn's setsid), and the run is cancelling anyway.
    if (env.runStop() !== null || p.signal === "SIGINT") return judgeStop("script", "cancelled", c.parts, p.detail, env.runStop())!;
    // Ended by a signal vouch did not send (a crash, the OOM killer): no exit status, so no verdict.
    const how = `the script was killed by ${p.signal ?? "a signal"}`;
    return { ...judgeStop("script", "crashed", c.parts, undefined, null)!, error: p.detail ? `${how}: ${p.detail}` : how };
  }
  // The shell vouch started could not find or execute the command: the work never ran (ERROR, not FAIL).
  if (c.viaShell && shellCouldNotRun(p.exitCode) !== null) {
    const how = describeExit(p.exitCode);
    return judgeStop("script", "spawn_failed", c.parts, p.detail ? `${how}: ${p.detail}` : how, null)!;
  }
  if (p.workspaceError !== undefined)
    return {
      status: "error",
      qualifier: null,
      cause: "workspace_error",
      error: p.workspaceError,
      evidence: judgeTampered(c.parts, []).evidence,
      failedChecks: [],
    };
  if (p.tampered !== undefined && p.tampered.length > 0) return judgeTampered(c.parts, p.tampered);
  const before = judgeBeforeChecks({
    parts: c.parts,
    exitCode: p.exitCode,
    text: p.text,
    structured: p.structured,
    format: c.format,
    isScript: c.kind === "script",
    truncated: p.truncated,
    schema: c.schema,
    stamp: c.stamp,
    resultMatches: c.matches,
  });
  if (!before.ok) return before.judgement;
  const trees = p.checkSource === undefined ? undefined : new AttemptTrees(env, p.checkSource, attempt);
  const outcomes =
    c.specs.length === 0 ? [] : await runChecks(env, c.specs, { ...command(), output: before.output }, attempt, p.treeId ?? null, trees);
  // Stopped while the checks ran: the checks that did not run are no evidence either way.
  if (env.signal.aborted) return { ...stopOutcome(env.runStop()), qualifier: null, evidence: before.evidence, failedChecks: [] };
  return judgeChecks(before, outcomes);
}
