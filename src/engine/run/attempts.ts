// The attempt loop shared by agent and script nodes: one process slot from the
// first attempt to the last check, retries by cause with backoff, the failure
// quoted into the next attempt, spending summed over attempts.
import type { Retry } from "../graph/schema.ts";
import type { Cause, StopReason, Tokens } from "../events.ts";
import type { Judgement } from "../verdict/conjunction.ts";
import { decideRetry, quoteFailure } from "../verdict/retry.ts";
import { RetrySpend, retryCostLimit, retryStopText, type RetryStop } from "../verdict/retry-spend.ts";
import { emitJudged, type JudgedBy } from "./attempt-judged.ts";
import { isFatal, simpleResult, stoppedResult } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import { parkOnLimit } from "./limited-attempt.ts";
import { SlotHold } from "./slot-hold.ts";

export interface Attempt {
  /** False when the attempt was refused before it started (budget_insufficient). */
  started: boolean;
  judgement: Judgement;
  stopReason: StopReason | null;
  costUsd: number | null;
  turns: number | null;
  tokens: Tokens | null;
  sessionId?: string;
  /** The session's total cost as the harness reported it (see Sitting.sessionCostUsd). */
  sessionCostUsd?: number;
  resultTail?: string;
  apiRetries?: number;
  /** Its number, set by the loop when it becomes `previous` (limited attempts between are skipped). */
  number?: number;
  /** The sitting was cut off by a usage or rate limit (stop reason rate_limited): no verdict. */
  limited?: { harness: string; resetsAt: number | null };
  /** Set on an attempt that was judged: who sat it and what they claimed (attempt.judged). */
  judged?: JudgedBy;
}

function addTokens(a: Tokens | null, b: Tokens | null): Tokens | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_creation: a.cache_creation + b.cache_creation,
  };
}

/** Spending summed over the attempts that started. */
class Spending {
  // Cost is null when any attempt's cost is unknown: a partial sum would look complete.
  cost: number | null = 0;
  turns: number | null = null;
  tokens: Tokens | null = null;
  apiRetries: number | undefined;

  add(a: Attempt): void {
    if (!a.started) return;
    this.cost = this.cost === null || a.costUsd === null ? null : this.cost + a.costUsd;
    if (a.turns !== null) this.turns = (this.turns ?? 0) + a.turns;
    this.tokens = addTokens(this.tokens, a.tokens);
    if (a.apiRetries !== undefined) this.apiRetries = (this.apiRetries ?? 0) + a.apiRetries;
  }
}

/** One attempt: its number, the failure quoted from the attempt before, and that attempt
 *  (a retry with session: continue resumes its session). */
export type OneAttempt = (attempt: number, quote: string | undefined, previous: Attempt | undefined) => Promise<Attempt>;

export interface LoopOptions {
  /** An agent node's harness: no sitting of a limited harness starts (ADR 0022). */
  harness?: string;
  /** The node's budget_usd cap per sitting: retry.max_cost is a share of it (ADR 0068). */
  budgetUsd?: number;
}

export async function attemptLoop(env: NodeEnv, retry: Retry | undefined, one: OneAttempt, o: LoopOptions = {}): Promise<NodeResult> {
  const { run } = env;
  const t0 = run.clock.now();
  const slot = new SlotHold(env);
  if (!(await slot.take())) return stoppedResult(env.runStop(), 0, run.clock.now() - t0);
  try {
    return await attempts(env, retry, one, t0, slot, o);
  } finally {
    slot.give();
  }
}

/** What the loop knows of the attempts before: the last retry's cause, and each cause's spend. */
class RetryBook {
  retryOf: Cause | undefined;
  readonly spend: RetrySpend;

  constructor(retry: Retry | undefined, budgetUsd: number | undefined) {
    this.spend = new RetrySpend(retryCostLimit(retry, budgetUsd));
  }

  /** An attempt was judged: attempt.judged, and its spend noted against its cause. */
  judged(env: NodeEnv, attempt: number, a: Attempt): void {
    if (a.judged === undefined) return;
    const j = a.judgement;
    emitJudged(env, attempt, a.judged, j, { costUsd: a.costUsd, turns: a.turns }, this.retryOf);
    this.spend.note(j.cause, a.costUsd, j.failedChecks.length, this.retryOf !== undefined);
  }
}

/** Attempts until one is final (not retried, refused, or the node stopped); the slot is held
 *  except while parked on a limit. A limited attempt is numbered but never counted against retry.max. */
async function attempts(
  env: NodeEnv,
  retry: Retry | undefined,
  one: OneAttempt,
  t0: number,
  slot: SlotHold,
  o: LoopOptions,
): Promise<NodeResult> {
  const { run } = env;
  const { harness } = o;
  const spent = new Spending();
  const book = new RetryBook(retry, o.budgetUsd);
  let quote: string | undefined;
  let previous: Attempt | undefined;
  let limitedAttempts = 0;
  const stopped = (attempt: number) => stoppedResult(env.runStop(), attempt, run.clock.now() - t0, spentExtra(spent));
  for (let attempt = 1; ; attempt++) {
    if (harness !== undefined && run.usageLimits.isLimited(harness) && !(await parkOnLimit(env, slot, harness)))
      return stopped(attempt - 1);
    const a = await one(attempt, quote, previous);
    // A sitting cut off by a limit is no failure to continue from (ADR 0022, 0023).
    if (!a.limited) previous = { ...a, number: attempt };
    spent.add(a);
    if (a.limited) {
      if (env.signal.aborted) return stopped(attempt);
      limitedAttempts++;
      run.usageLimits.note(a.limited.harness, a.limited.resetsAt);
      continue; // parks at the top of the loop, before the next attempt
    }
    if (harness !== undefined && a.started) run.usageLimits.clearStreak(harness);
    book.judged(env, attempt, a);
    const j = a.judgement;
    const d = decideRetry(retry, attempt - limitedAttempts, j.status, j.cause);
    const costStop = d.retry ? book.spend.stop() : null;
    if (!a.started || !d.retry || costStop !== null || env.signal.aborted) {
      const r = finalResult(a, a.started ? attempt : attempt - 1, spent, run.clock.now() - t0);
      return costStop !== null && !env.signal.aborted ? withRetryStop(r, costStop) : r;
    }
    book.retryOf = j.cause!;
    quote = quoteFailure(attempt, j);
    emitRetrying(env, attempt, a, quote, d.backoffMs);
    if (d.backoffMs > 0) {
      try {
        await run.clock.sleep(d.backoffMs, env.signal);
      } catch (e) {
        if (isFatal(e)) throw e;
        return stopped(attempt);
      }
    }
  }
}

function emitRetrying(env: NodeEnv, attempt: number, a: Attempt, quote: string, backoffMs: number): void {
  const j = a.judgement;
  const retrying = {
    type: "node.retrying" as const,
    node: env.id,
    attempt,
    cause: j.cause!,
    reason: quote,
    ...(j.error !== undefined ? { error: j.error } : {}),
    backoff_ms: backoffMs,
    ...(a.sessionId !== undefined ? { session_id: a.sessionId } : {}),
  };
  env.run.emitter.emit(env.branch ? { ...retrying, branch: env.branch } : retrying);
}

/** retry.max_cost stopped the retries: named on the result and after its error. */
function withRetryStop(r: NodeResult, stop: RetryStop): NodeResult {
  r.retryStopped = stop;
  r.error = r.error === undefined ? retryStopText(stop) : `${r.error}; ${retryStopText(stop)}`;
  return r;
}

function spentExtra(spent: Spending): Partial<NodeResult> {
  return {
    costUsd: spent.cost,
    turns: spent.turns,
    tokens: spent.tokens,
    ...(spent.apiRetries !== undefined ? { apiRetries: spent.apiRetries } : {}),
  };
}

/** The node's result from its last attempt (`ran` of them started). */
function finalResult(a: Attempt, ran: number, spent: Spending, wallMs: number): NodeResult {
  const j = a.judgement;
  const r = simpleResult(j.status, j.cause, ran, wallMs, {
    qualifier: j.qualifier,
    stopReason: a.stopReason,
    costUsd: ran === 0 ? null : spent.cost,
    turns: spent.turns,
    tokens: spent.tokens,
    evidence: j.evidence,
    failedChecks: j.failedChecks,
  });
  if (j.output !== undefined) r.output = j.output;
  if (j.error !== undefined) r.error = j.error;
  if (j.witnessed !== undefined) r.witnessed = j.witnessed;
  if (a.resultTail !== undefined) r.resultTail = a.resultTail;
  if (a.sessionId !== undefined) r.sessionId = a.sessionId;
  if (a.sessionCostUsd !== undefined) r.sessionCostUsd = a.sessionCostUsd;
  if (spent.apiRetries !== undefined) r.apiRetries = spent.apiRetries;
  return r;
}
