// An agent node: render the prompt, run sittings through the AgentRunner under
// the node's caps, judge each by the success conjunction, retry by cause.
import { notRun } from "../not-run.ts";
import { OverrunOnce, overruns, type Overrun } from "../caps.ts";
import type { AgentNode } from "../graph/schema.ts";
import type { AgentAssignment, Sitting, SittingProgress } from "../ports.ts";
import { renderText } from "../template/render.ts";
import type { Judgement } from "../verdict/conjunction.ts";
import { withQuote } from "../verdict/retry.ts";
import { attemptLoop, type Attempt } from "./attempts.ts";
import { attemptSession } from "./agent-session.ts";
import { compileContract, detailOf, judgeAttempt, renderPrologue, templateFailure, type Contract, type Produced } from "./judging.ts";
import { agentSettings, type AgentSettings } from "./node-settings.ts";
import { commandContext, emitStarted, head, isFatal, tail, type StartedSession } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import { openWorkspace, recordWorkspace, settleAttempt, workspaceFailure } from "./node-workspace.ts";
import type { NodeWorkspace } from "../workspace/workspaces.ts";
import { emitLimited } from "./limited-attempt.ts";
import type { JudgedBy } from "./attempt-judged.ts";
import { claimOf } from "../verdict/claim.ts";
import { nodeSeal, sealRecord, sealRefused, type NodeSeal } from "./node-seal.ts";

function emitOverruns(env: NodeEnv, attempt: number, list: Overrun[]): void {
  for (const o of list) {
    const ev = {
      type: "cap.overrun" as const,
      node: env.id,
      attempt,
      scope: "node" as const,
      cap: o.cap,
      limit: o.limit,
      actual: o.actual,
    };
    env.run.emitter.emit(env.branch ? { ...ev, branch: env.branch } : ev);
  }
}

function crashed(e: unknown, wallMs: number): Sitting {
  return notRun("crashed", `the agent runner failed: ${(e as Error)?.message ?? String(e)}`, wallMs);
}

function produced(sitting: Sitting): Produced {
  return {
    stop: sitting.stopReason,
    exitCode: sitting.exitCode,
    text: sitting.resultText,
    structured: sitting.structured,
    truncated: sitting.resultTruncated === true,
    detail: detailOf(sitting.error, sitting.stderrTail),
  };
}

/** One agent node, prepared once: its settings, rendered prompt and folder, and contract. */
interface Prepared {
  env: NodeEnv;
  node: AgentNode;
  s: AgentSettings;
  prompt: string;
  cwd: string;
  contract: Contract;
  /** The node's git worktree (cwd is inside it), or null: the shared folder. */
  ws: NodeWorkspace | null;
  /** Whether its sittings run sealed (ADR 0040). */
  seal: NodeSeal;
}

export async function runAgentNode(env: NodeEnv, node: AgentNode): Promise<NodeResult> {
  const { run } = env;
  const t0 = run.clock.now();
  const s = agentSettings(env.frame.graph, node, run.options);
  const pro = renderPrologue(env, node, s.cwd, (scope) => ({ prompt: withQuote(renderText(node.prompt, scope), env.feedbackQuote) }));
  if (pro instanceof Error) return templateFailure(env, "agent", pro, t0, s.harness);
  const ws = await openWorkspace(env, node, pro.cwd);
  if (ws instanceof Error) return workspaceFailure(env, "agent", ws, t0, s.harness);
  const cwd = ws?.cwd ?? pro.cwd;
  const seal = nodeSeal(env.frame.graph, node, run.options, ws, cwd);
  if ("refused" in seal) return recordWorkspace(env, ws, sealRefused(env, "agent", seal, t0, s.harness));
  const p: Prepared = { env, node, s, prompt: pro.prompt, cwd, contract: compileContract(env, "agent", node, pro.stamp), ws, seal };
  const result = await attemptLoop(env, s.retry, (attempt, quote, previous) => sitOnce(p, attempt, quote, previous), {
    harness: s.harness,
    ...(s.caps.budgetUsd !== undefined ? { budgetUsd: s.caps.budgetUsd } : {}),
  });
  return recordWorkspace(env, ws, { ...result, seal: sealRecord(seal) });
}

/** What an agent's node.started says beside its kind and attempt: harness, prompt, folder, model, session. */
function startedFields(p: Prepared, prompt: string, session: StartedSession | undefined) {
  const { s } = p;
  return { harness: s.harness, prompt, cwd: p.cwd, ...(s.model !== undefined ? { model: s.model } : {}), ...(session ? { session } : {}) };
}

/** One attempt: refused when the run cannot afford the node's budget cap, else a sitting, judged. */
async function sitOnce(p: Prepared, attempt: number, quote: string | undefined, previous: Attempt | undefined): Promise<Attempt> {
  const { env, s } = p;
  const { run } = env;
  const remaining = env.frame.remainingBudget();
  const short = budgetShortfall(remaining, s.caps.budgetUsd);
  if (short !== null)
    return notStarted({ status: "error", qualifier: null, cause: "budget_insufficient", error: short, evidence: [], failedChecks: [] });
  const sess = attemptSession(env, p.node, s, p.prompt, attempt, quote, previous);
  if (sess.kind === "missing")
    return notStarted({ status: "error", qualifier: null, cause: "unavailable", error: sess.error, evidence: [], failedChecks: [] });
  const fullPrompt = sess.prompt;
  emitStarted(env, "agent", attempt, { ...startedFields(p, fullPrompt, sess.started), sealed: p.seal.decision.sealed });
  const once = new OverrunOnce();
  const token = {};
  const started = run.clock.now();
  let sitting: Sitting;
  try {
    const assignment = assignmentOf(p, attempt, fullPrompt, remaining);
    if (sess.session) assignment.session = sess.session;
    sitting = await run.ports.agents.run(assignment, { signal: env.signal, onProgress: progressReporter(p, attempt, once, token) });
  } catch (e) {
    if (isFatal(e)) throw e;
    sitting = crashed(e, run.clock.now() - started);
  }
  emitOverruns(
    env,
    attempt,
    once.fresh(overruns(s.caps, { turns: sitting.turns, costUsd: sitting.costUsd, wallMs: sitting.wallMs, idleMs: sitting.idleMs })),
  );
  env.frame.settleCost(token, sitting);
  // What the sitting changed is committed on its branch even when a limit cut it off: nothing is lost.
  const work = await settleAttempt(env, p.ws, attempt, p.seal.decision.sealed);
  if (sitting.stopReason === "rate_limited") return limitedAttempt(p, attempt, sitting);
  const judgement = await judgeAttempt(env, p.contract, { ...produced(sitting), ...work }, attempt, () =>
    commandContext(env, attempt, p.cwd, s.passEnv, p.ws?.path),
  );
  const a: Attempt = {
    started: true,
    judgement,
    stopReason: sitting.stopReason,
    costUsd: sitting.costUsd,
    turns: sitting.turns,
    tokens: sitting.tokens,
    resultTail: tail(sitting.resultText),
    judged: judgedBy(p, sitting, judgement),
  };
  if (sitting.sessionId !== undefined) a.sessionId = sitting.sessionId;
  // A sitting that started its session: its own cost is the session's total so far.
  const sessionTotal = sitting.sessionCostUsd ?? sitting.costUsd;
  if (sessionTotal !== null) {
    a.sessionCostUsd = sessionTotal;
    if (sitting.sessionId !== undefined) run.sessionCosts.set(sitting.sessionId, sessionTotal);
  }
  if (sitting.apiRetries !== undefined) a.apiRetries = sitting.apiRetries;
  return a;
}

/** Who sat the attempt, and what the model claimed of it (attempt.judged, ADR 0068). */
function judgedBy(p: Prepared, sitting: Sitting, j: Judgement): JudgedBy {
  const claim = claimOf({
    stop: sitting.stopReason,
    text: sitting.resultText,
    structured: sitting.structured,
    output: j.output,
    ...(p.node.claim !== undefined ? { path: p.node.claim } : {}),
    ...(p.contract.matches !== undefined ? { resultMatches: p.contract.matches } : {}),
  });
  return { kind: "agent", harness: p.s.harness, ...(p.s.model !== undefined ? { model: p.s.model } : {}), claim };
}

/** Cut off by a limit: recorded, not judged (no check runs on a sitting the limit stopped). */
function limitedAttempt(p: Prepared, attempt: number, sitting: Sitting): Attempt {
  emitLimited(p.env, attempt, p.s.harness, sitting);
  const a: Attempt = {
    started: true,
    judgement: {
      status: "error",
      qualifier: null,
      cause: "harness_error",
      error: sitting.error ?? "usage or rate limit",
      evidence: [],
      failedChecks: [],
    },
    stopReason: "rate_limited",
    costUsd: sitting.costUsd,
    turns: sitting.turns,
    tokens: sitting.tokens,
    limited: { harness: p.s.harness, resetsAt: sitting.resetsAt ?? null },
  };
  if (sitting.sessionId !== undefined) a.sessionId = sitting.sessionId;
  // No attempt continues a limited one, but one may resume the session it added to:
  // that sitting's own cost is what the session reached beyond this total.
  const sessionTotal = sitting.sessionCostUsd ?? sitting.costUsd;
  if (sitting.sessionId !== undefined && sessionTotal !== null) p.env.run.sessionCosts.set(sitting.sessionId, sessionTotal);
  if (sitting.apiRetries !== undefined) a.apiRetries = sitting.apiRetries;
  return a;
}

function assignmentOf(p: Prepared, attempt: number, prompt: string, remaining: number | null): AgentAssignment {
  const { env, node, s } = p;
  const assignment: AgentAssignment = {
    runId: env.run.options.runId,
    node: env.id,
    attempt,
    harness: s.harness,
    prompt,
    cwd: p.cwd,
    ...(p.ws ? { workspace: p.ws.path } : {}),
    passEnv: s.passEnv,
    caps: s.caps,
    ...(remaining !== null ? { runBudgetLeftUsd: remaining } : {}),
    output: { format: node.output?.format ?? "text", ...(node.output?.schema ? { schema: node.output.schema } : {}) },
  };
  if (env.branch) assignment.branch = env.branch;
  if (env.round !== undefined) assignment.round = env.round;
  if (p.seal.request) assignment.seal = p.seal.request;
  if (s.acp !== undefined) assignment.acp = s.acp;
  if (s.model !== undefined) assignment.model = s.model;
  if (s.tools !== undefined) assignment.tools = s.tools;
  if (s.permissionMode !== undefined) assignment.permissionMode = s.permissionMode;
  return assignment;
}

/** node.progress for each report of a live sitting, its cap overruns (once each), and its live cost. */
function progressReporter(p: Prepared, attempt: number, once: OverrunOnce, token: object): (progress: SittingProgress) => void {
  const { env, s } = p;
  return (pr) => {
    env.run.emitter.emit({
      type: "node.progress",
      node: env.id,
      attempt,
      ...(env.branch ? { branch: env.branch } : {}),
      ...(pr.turns !== undefined ? { turns: pr.turns } : {}),
      ...(pr.costUsd !== undefined ? { cost_usd: pr.costUsd } : {}),
      ...(pr.tokens !== undefined ? { tokens: pr.tokens } : {}),
      ...(pr.activity !== undefined ? { activity: head(pr.activity, 200) } : {}),
      ...(pr.apiRetries !== undefined ? { api_retries: pr.apiRetries } : {}),
    });
    emitOverruns(env, attempt, once.fresh(overruns(s.caps, { turns: pr.turns, costUsd: pr.costUsd })));
    if (pr.costUsd !== undefined) env.frame.noteLiveCost(token, pr.costUsd);
  };
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
