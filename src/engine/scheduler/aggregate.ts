// How a run, a branch and a map get their status from their parts
// (ADR 0002 "Aggregating a run", "Maps"). Pure.
import { ZERO_COUNTS, type Cause, type NodeStatus, type RunCounts } from "../events.ts";
import type { MapNode } from "../graph/schema.ts";

export interface AggregateEntry {
  id: string;
  kind: string;
  status: NodeStatus;
  recovered: boolean;
  /** Its fallback ran: the fallback speaks for it. */
  handled: boolean;
  /** Upstream (through needs, routes and fallbacks) of an end node that ran: that end speaks for it. */
  upstreamOfEnd: boolean;
}

export type Aggregate = "passed" | "failed" | "error" | "cancelled";

/** Worst first: failed outranks error (the evidence said no; error is no verdict). */
const RANK: Record<Aggregate, number> = { cancelled: 3, failed: 2, error: 1, passed: 0 };

function asAggregate(status: NodeStatus): Aggregate {
  return status === "skipped" ? "passed" : status;
}

export interface AggregateResult {
  status: Aggregate;
  /** The end node that decided, when one ran and nothing it does not account for overrules it. */
  decidedBy?: string;
}

/** The worst of: the end nodes that ran, and every node that ran and that nothing accounts
 *  for — neither recovered, nor handled by a fallback that ran, nor upstream of an end that
 *  ran (issue 12: an end node never speaks for work it does not depend on). A cancelled
 *  node outranks everything (the run was stopped). Nothing ran: passed. */
export function aggregate(entries: Iterable<AggregateEntry>): AggregateResult {
  let endWorst: AggregateResult | undefined;
  let worst: Aggregate = "passed";
  for (const e of entries) {
    if (e.status === "skipped") continue;
    const s = asAggregate(e.status);
    if (e.kind === "end") {
      if (!endWorst || RANK[s] > RANK[endWorst.status]) endWorst = { status: s, decidedBy: e.id };
      continue;
    }
    if (e.recovered || e.handled) continue;
    // What an end accounts for is its to judge, unless it was cancelled: a stop outranks the ends.
    if (e.upstreamOfEnd && s !== "cancelled") continue;
    if (RANK[s] > RANK[worst]) worst = s;
  }
  if (endWorst && RANK[endWorst.status] >= RANK[worst]) return endWorst;
  return { status: worst };
}

export interface BranchSummary {
  status: NodeStatus;
  recovered?: boolean;
}

/** Branches by status, and how many of the unpassed ones `exhausted:` recovered. */
export interface MapCounts extends RunCounts {
  recovered: number;
}

export function countBranches(results: Iterable<BranchSummary>): MapCounts {
  const c: MapCounts = { ...ZERO_COUNTS, recovered: 0 };
  for (const r of results) {
    c[r.status]++;
    if (r.recovered) c.recovered++;
  }
  return c;
}

export interface MapDecision {
  status: NodeStatus;
  cause: Cause | null;
}

/** The map's own status from its branch counts and `passes` (default all). */
export function decideMap(counts: MapCounts, total: number, passes: MapNode["passes"], interrupted: boolean): MapDecision {
  if (interrupted) return { status: "cancelled", cause: "cancelled" };
  const rule = passes ?? "all";
  let ok: boolean;
  if (rule === "all") ok = counts.passed + counts.recovered === total;
  else if (rule === "any") ok = counts.passed >= 1;
  else ok = counts.passed >= rule.min;
  if (ok) return { status: "passed", cause: null };
  return counts.failed > 0 ? { status: "failed", cause: "map_failed" } : { status: "error", cause: "map_error" };
}
