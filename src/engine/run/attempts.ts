// The attempt loop shared by agent and script nodes: one process slot from the
// first attempt to the last check, retries by cause with backoff, the failure
// quoted into the next attempt, spending summed over attempts.
import type { Retry } from "../graph/schema.ts";
import type { StopReason, Tokens } from "../events.ts";
import type { Judgement } from "../verdict/conjunction.ts";
import { decideRetry, quoteFailure } from "../verdict/retry.ts";
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

/** @param harness an agent node's harness: no sitting of a limited harness starts (ADR 0022). */
export async function attemptLoop(env: NodeEnv, retry: Retry | undefined, one: OneAttempt, harness?: string): Promise<NodeResult> {
  const { run } = env;
  const t0 = run.clock.now();
  const slot = new SlotHold(env);
  if (!(await slot.take())) return stoppedResult(env.runStop(), 0, run.clock.now() - t0);
  try {
    return await attempts(env, retry, one, t0, slot, harness);
  } finally {
    slot.give();
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
  harness: string | undefined,
): Promise<NodeResult> {
  const { run } = env;
  const spent = new Spending();
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
    const j = a.judgement;
    const d = decideRetry(retry, attempt - limitedAttempts, j.status, j.cause);
    if (!a.started || !d.retry || env.signal.aborted) return finalResult(a, a.started ? attempt : attempt - 1, spent, run.clock.now() - t0);
    quote = quoteFailure(attempt, j);
    const retrying = {
      type: "node.retrying" as const,
      node: env.id,
      attempt,
      cause: j.cause!,
      reason: quote,
      ...(j.error !== undefined ? { error: j.error } : {}),
      backoff_ms: d.backoffMs,
      ...(a.sessionId !== undefined ? { session_id: a.sessionId } : {}),
    };
    run.emitter.emit(env.branch ? { ...retrying, branch: env.branch } : retrying);
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
