// An agent node: render the prompt, run sittings through the AgentRunner under
// the node's caps, judge each by the success conjunction, retry by cause.
import { resolve } from "node:path";
import { OverrunOnce, overruns, type Overrun } from "../caps.ts";
import { TemplateError } from "../errors.ts";
import type { AgentNode } from "../graph/schema.ts";
import type { AgentAssignment, Sitting, SittingProgress } from "../ports.ts";
import { renderText } from "../template/render.ts";
import { judgeBeforeChecks, judgeChecks, judgeStop, type Judgement, type Parts } from "../verdict/conjunction.ts";
import { judgedParts, renderStamp } from "./judging.ts";
import { withQuote } from "../verdict/retry.ts";
import { attemptLoop, type Attempt } from "./attempts.ts";
import { checkSpec, runChecks } from "./checks.ts";
import { agentSettings } from "./node-settings.ts";
import { commandContext, head, isFatal, simpleResult, stoppedResult, tail, type NodeEnv, type NodeResult } from "./node-env.ts";

function emitOverruns(env: NodeEnv, attempt: number, list: Overrun[]): void {
  for (const o of list) {
    const ev = { type: "cap.overrun" as const, node: env.id, attempt, scope: "node" as const, cap: o.cap, limit: o.limit, actual: o.actual };
    env.ctx.emitter.emit(env.branch ? { ...ev, branch: env.branch } : ev);
  }
}

function crashed(e: unknown, wallMs: number): Sitting {
  return {
    stopReason: "crashed",
    resultText: "",
    turns: null,
    costUsd: null,
    tokens: null,
    wallMs,
    permissionDenials: 0,
    exitCode: null,
    stderrTail: "",
    error: `the agent runner failed: ${(e as Error)?.message ?? String(e)}`,
  };
}

export async function runAgentNode(env: NodeEnv, node: AgentNode): Promise<NodeResult> {
  const { ctx } = env;
  const t0 = ctx.clock.now();
  const s = agentSettings(ctx.graph, node, ctx.options);
  const parts = judgedParts(node);
  let prompt: string;
  let cwd: string;
  let stamp: Record<string, unknown> | undefined;
  try {
    const scope = env.scope();
    prompt = withQuote(renderText(node.prompt, scope), env.feedbackQuote);
    cwd = resolve(ctx.options.baseDir, s.cwd !== undefined ? renderText(s.cwd, scope) : ".");
    stamp = renderStamp(node.stamp, scope);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    emitStarted(env, 1, s.harness);
    return simpleResult("error", "template_error", 1, ctx.clock.now() - t0, { error: e.message });
  }
  const specs = (node.success?.checks ?? []).map((ref) => checkSpec(ctx.graph, ref)!);
  const schema = node.output?.schema ? ctx.schemas.compile(node.output.schema) : undefined;
  const matches = node.success?.result_matches ? new RegExp(node.success.result_matches) : undefined;

  const one = async (attempt: number, quote: string | undefined): Promise<Attempt> => {
    const remaining = ctx.remainingBudget();
    const short = budgetShortfall(remaining, s.caps.budgetUsd);
    if (short !== null) return notStarted({ status: "error", qualifier: null, cause: "budget_insufficient", error: short, evidence: [], failedChecks: [] });
    const fullPrompt = withQuote(prompt, quote);
    emitStarted(env, attempt, s.harness, fullPrompt);
    const assignment: AgentAssignment = {
      runId: ctx.options.runId,
      node: env.id,
      attempt,
      harness: s.harness,
      prompt: fullPrompt,
      cwd,
      passEnv: s.passEnv,
      caps: s.caps,
      ...(remaining !== null ? { runBudgetLeftUsd: remaining } : {}),
      output: { format: node.output?.format ?? "text", ...(node.output?.schema ? { schema: node.output.schema } : {}) },
    };
    if (env.branch) assignment.branch = env.branch;
    if (env.round !== undefined) assignment.round = env.round;
    if (s.model !== undefined) assignment.model = s.model;
    if (s.tools !== undefined) assignment.tools = s.tools;
    if (s.permissionMode !== undefined) assignment.permissionMode = s.permissionMode;

    const once = new OverrunOnce();
    const token = {};
    const onProgress = (p: SittingProgress) => {
      const ev = { type: "node.progress" as const, node: env.id, attempt };
      const body = {
        ...ev,
        ...(env.branch ? { branch: env.branch } : {}),
        ...(p.turns !== undefined ? { turns: p.turns } : {}),
        ...(p.costUsd !== undefined ? { cost_usd: p.costUsd } : {}),
        ...(p.tokens !== undefined ? { tokens: p.tokens } : {}),
        ...(p.activity !== undefined ? { activity: head(p.activity, 200) } : {}),
        ...(p.apiRetries !== undefined ? { api_retries: p.apiRetries } : {}),
      };
      ctx.emitter.emit(body);
      emitOverruns(env, attempt, once.fresh(overruns(s.caps, { turns: p.turns, costUsd: p.costUsd })));
      if (p.costUsd !== undefined) ctx.noteLiveCost(token, p.costUsd);
    };
    const started = ctx.clock.now();
    let sitting: Sitting;
    try {
      sitting = await ctx.ports.agents.run(assignment, { signal: env.signal, onProgress });
    } catch (e) {
      if (isFatal(e)) throw e;
      sitting = crashed(e, ctx.clock.now() - started);
    }
    emitOverruns(env, attempt, once.fresh(overruns(s.caps, { turns: sitting.turns, costUsd: sitting.costUsd, wallMs: sitting.wallMs, idleMs: sitting.idleMs })));
    ctx.settleCost(token, sitting);
    const judged = await judgeSitting(env, node, sitting, parts, { schema, matches, stamp, specs, cwd, passEnv: s.passEnv, attempt });
    const a: Attempt = {
      started: true,
      judgement: judged,
      stopReason: sitting.stopReason,
      costUsd: sitting.costUsd,
      turns: sitting.turns,
      tokens: sitting.tokens,
      resultTail: tail(sitting.resultText),
    };
    if (sitting.sessionId !== undefined) a.sessionId = sitting.sessionId;
    if (sitting.apiRetries !== undefined) a.apiRetries = sitting.apiRetries;
    return a;
  };
  return attemptLoop(env, s.retry, one);
}

/** What is left of a run budget below this counts as nothing. */
const NOTHING_LEFT_USD = 1e-9;

/** Why an attempt may not start for lack of run budget, or null. A node with
 *  its own budget_usd needs that much left; one without needs something left
 *  (it is handed what is left, ADR 0012). */
export function budgetShortfall(remaining: number | null, nodeBudget: number | undefined): string | null {
  if (remaining === null) return null;
  if (nodeBudget !== undefined && remaining < nodeBudget) {
    return `not started: the run has $${remaining.toFixed(4)} left, less than this node's budget_usd cap of $${nodeBudget}`;
  }
  // Below a nano-dollar is floating-point residue of summed costs, not money
  // (1 - (0.5 + 0.2 + 0.2 + 0.1) > 0); claude would be handed it as "0" and refuse it.
  if (remaining < NOTHING_LEFT_USD) return `not started: nothing is left of the run budget ($${remaining.toFixed(4)})`;
  return null;
}

function notStarted(judgement: Judgement): Attempt {
  return { started: false, judgement, stopReason: null, costUsd: null, turns: null, tokens: null };
}

function emitStarted(env: NodeEnv, attempt: number, harness: string, prompt?: string): void {
  const ev = {
    type: "node.started" as const,
    node: env.id,
    kind: "agent",
    attempt,
    harness,
    ...(env.branch ? { branch: env.branch } : {}),
    ...(prompt !== undefined ? { prompt: head(prompt) } : {}),
    ...(env.round !== undefined ? { round: env.round } : {}),
  };
  env.ctx.emitter.emit(ev);
}

interface JudgeInput {
  schema: ((v: unknown) => string | null) | undefined;
  matches: RegExp | undefined;
  stamp: Record<string, unknown> | undefined;
  specs: ReturnType<typeof checkSpec>[];
  cwd: string;
  passEnv: string[];
  attempt: number;
}

async function judgeSitting(env: NodeEnv, node: AgentNode, sitting: Sitting, parts: Parts, j: JudgeInput): Promise<Judgement> {
  const detail = sitting.error ?? (sitting.stderrTail.trim() ? tail(sitting.stderrTail.trim().split("\n").pop()!, 300) : undefined);
  const stopped = judgeStop("agent", sitting.stopReason, parts, detail, env.runStop());
  if (stopped) return stopped;
  const before = judgeBeforeChecks({
    parts,
    exitCode: sitting.exitCode,
    text: sitting.resultText,
    structured: sitting.structured,
    format: node.output?.format,
    isScript: false,
    truncated: sitting.resultTruncated === true,
    schema: j.schema,
    stamp: j.stamp,
    resultMatches: j.matches,
  });
  if (!before.ok) return before.judgement;
  const specs = j.specs.filter((x) => x !== null);
  const outcomes = specs.length === 0 ? [] : await runChecks(env, specs, { ...commandContext(env, j.attempt, j.cwd, j.passEnv), output: before.output }, j.attempt);
  if (env.signal.aborted) {
    const r = stoppedResult(env, j.attempt, 0);
    return { status: r.status, qualifier: null, cause: r.cause, error: r.error, evidence: before.evidence, failedChecks: [] };
  }
  return judgeChecks(before, outcomes);
}
