// attempt.judged (ADR 0068): after each attempt of an agent or script node is judged,
// what the model claimed beside what the evidence said, and what that attempt spent.
// The ledger keeps one row per event; `vouch stats` and the retry tables read them.
import type { Cause } from "../events.ts";
import type { Judgement } from "../verdict/conjunction.ts";
import type { NodeEnv } from "./contract.ts";

/** Who sat an attempt and what they claimed: set by the node handler on every judged attempt. */
export interface JudgedBy {
  kind: "agent" | "script";
  harness?: string;
  model?: string;
  /** The model's claim (claimOf); absent for a script. */
  claim?: string | null;
}

/** What one attempt spent (its own, not the node's running total). */
export interface AttemptSpend {
  costUsd: number | null;
  turns: number | null;
}

export function emitJudged(
  env: NodeEnv,
  attempt: number,
  by: JudgedBy,
  j: Judgement,
  spent: AttemptSpend,
  retryOf: Cause | undefined,
): void {
  env.run.emitter.emit({
    type: "attempt.judged",
    node: env.id,
    ...(env.branch ? { branch: env.branch } : {}),
    attempt,
    ...(env.round !== undefined ? { round: env.round } : {}),
    kind: by.kind,
    ...(by.harness !== undefined ? { harness: by.harness } : {}),
    ...(by.model !== undefined ? { model: by.model } : {}),
    ...(by.claim !== undefined ? { claim: by.claim } : {}),
    status: j.status,
    qualifier: j.qualifier,
    cause: j.cause,
    ...(retryOf !== undefined ? { retry_of: retryOf } : {}),
    cost_usd: spent.costUsd,
    turns: spent.turns,
  });
}
