// The human decisions a run's ledger already holds (issue 12 item 3): an
// approval node's node.finished that passed `approved` or failed `rejected` is
// a decision, and a decision is final — a later resume neither asks again nor
// takes another answer for it. Pure, over the run's own events.
import { nodeKey, type BranchRef, type VouchEvent } from "../events.ts";

export type Decision = "approve" | "reject";

export interface RecordedDecision {
  node: string;
  branch?: BranchRef;
  decision: Decision;
  /** When the ledger recorded it (the event's `t`). */
  at: string;
}

export interface PriorDecisions {
  /** By nodeKey(): the last decision of each approval instance. */
  decided: Map<string, RecordedDecision>;
  /** Approval nodes (by id) with an instance started and not finished: still waiting. */
  waiting: Set<string>;
}

function decisionOf(e: Extract<VouchEvent, { type: "node.finished" }>): Decision | null {
  if (e.status === "passed" && e.qualifier === "approved") return "approve";
  if (e.status === "failed" && e.cause === "rejected") return "reject";
  return null;
}

export function priorDecisions(events: readonly VouchEvent[]): PriorDecisions {
  const decided = new Map<string, RecordedDecision>();
  const open = new Map<string, string>();
  for (const e of events) {
    if (e.type === "node.started") open.set(nodeKey(e.node, e.branch), e.node);
    if (e.type !== "node.finished") continue;
    const key = nodeKey(e.node, e.branch);
    open.delete(key);
    const d = decisionOf(e);
    if (d === null) continue;
    const r: RecordedDecision = { node: e.node, decision: d, at: e.t };
    if (e.branch) r.branch = e.branch;
    decided.set(key, r);
  }
  const waiting = new Set(open.values());
  return { decided, waiting };
}

/** The rejections a resumed run answers by itself: a rejected gate stays rejected. */
export function standingRejections(prior: PriorDecisions): Map<string, Decision> {
  const out = new Map<string, Decision>();
  for (const [key, r] of prior.decided) if (r.decision === "reject") out.set(key, "reject");
  return out;
}

/** A --approve/--reject that would decide again what the ledger already decided, with
 *  nothing of that node still waiting; undefined when every flag is fine. */
export function redecided(flags: ReadonlyMap<string, Decision>, prior: PriorDecisions): RecordedDecision | undefined {
  for (const node of flags.keys()) {
    if (prior.waiting.has(node)) continue;
    for (const r of prior.decided.values()) if (r.node === node) return r;
  }
  return undefined;
}
