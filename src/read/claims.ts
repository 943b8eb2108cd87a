// Claims vs evidence (ADR 0068): what models said of their own work beside what vouch's
// evidence found, as a confusion table with what each cell cost; and what each cause's
// retries bought. Pure: rows in (one per judged attempt, attempt.judged), cells out.
// `vouch stats`, `vouch show` and the reports print these; the ledger fills the rows.
import type { Cause, NodeStatus, Qualifier } from "../engine/events.ts";

/** What the evidence gave a sitting: verified (a check vouch ran passed), unchecked (it passed on
 *  its own word or its exit: nothing tested it), failed (the evidence says no), no verdict
 *  (error or cancelled: the evidence could not be had, e.g. a check that could not run). */
export const EVIDENCE = ["verified", "unchecked", "failed", "no verdict"] as const;
export type Evidence = (typeof EVIDENCE)[number];

export function evidenceOf(status: NodeStatus, qualifier: Qualifier | null): Evidence {
  if (status === "passed") return qualifier === "verified" ? "verified" : "unchecked";
  if (status === "failed") return "failed";
  return "no verdict";
}

/** One judged attempt, as the ledger's sittings table holds it. */
export interface SittingRow {
  kind: "agent" | "script";
  /** What the rows are grouped by (a harness, a model, a graph, a node); "" for no grouping. */
  group: string;
  /** null: the model made no claim vouch could read. */
  claim: string | null;
  status: NodeStatus;
  qualifier: Qualifier | null;
  cause: Cause | null;
  retry_of: Cause | null;
  cost_usd: number | null;
  turns: number | null;
}

/** What a set of sittings spent: the known costs summed, how many had none, turns summed. */
export interface Spent {
  sittings: number;
  cost_usd: number;
  cost_unknown: number;
  turns: number;
}

export interface ClaimCell extends Spent {
  group: string;
  claim: string | null;
  evidence: Evidence;
}

export interface RetryCell extends Spent {
  group: string;
  /** The cause the attempt before was retried for. */
  cause: Cause;
  /** Of these retries, how many ended in a verified pass. */
  verified: number;
}

function add(s: Spent, r: SittingRow): void {
  s.sittings++;
  if (r.cost_usd === null) s.cost_unknown++;
  else s.cost_usd += r.cost_usd;
  s.turns += r.turns ?? 0;
}

const none = (): Spent => ({ sittings: 0, cost_usd: 0, cost_unknown: 0, turns: 0 });
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The confusion table of agent sittings: one cell per group, claim and evidence that occurred.
 *  The cells' sittings add up to the agent rows given (test/read/claims.test.ts). */
export function claimTable(rows: readonly SittingRow[]): ClaimCell[] {
  const cells = new Map<string, ClaimCell>();
  for (const r of rows) {
    if (r.kind !== "agent") continue;
    const evidence = evidenceOf(r.status, r.qualifier);
    const key = JSON.stringify([r.group, r.claim, evidence]);
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { group: r.group, claim: r.claim, evidence, ...none() }));
    add(cell, r);
  }
  // Groups, then claims (the no-claim row last), then the evidence in EVIDENCE's order.
  const claimKey = (c: string | null) => (c === null ? "\uffff" : c);
  return [...cells.values()].sort(
    (a, b) =>
      byText(a.group, b.group) ||
      byText(claimKey(a.claim), claimKey(b.claim)) ||
      EVIDENCE.indexOf(a.evidence) - EVIDENCE.indexOf(b.evidence),
  );
}

/** Per group and cause: the attempts that were retries of that cause, what they spent, and how
 *  many of them ended in a verified pass. Scripts' retries count too (their cost is a known 0). */
export function retryTable(rows: readonly SittingRow[]): RetryCell[] {
  const cells = new Map<string, RetryCell>();
  for (const r of rows) {
    if (r.retry_of === null) continue;
    const key = JSON.stringify([r.group, r.retry_of]);
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { group: r.group, cause: r.retry_of, verified: 0, ...none() }));
    add(cell, r);
    if (evidenceOf(r.status, r.qualifier) === "verified") cell.verified++;
  }
  return [...cells.values()].sort((a, b) => byText(a.group, b.group) || byText(a.cause, b.cause));
}

/** The claim as tables print it. */
export function claimText(claim: string | null): string {
  return claim === null ? "(no claim)" : claim;
}
