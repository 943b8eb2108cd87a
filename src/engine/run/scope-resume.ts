// What a resumed scope keeps from the run's earlier sessions (ADR 0002 "Resume"):
// the passed results, less those that were consequences of work that runs again,
// as the states the scope starts from (ADR 0036). Pure: the scope passes how its
// nodes are keyed in the resume state.
import type { Qualifier, RunCounts } from "../events.ts";
import type { Finished } from "../scheduler/dag-scheduler.ts";
import type { ScopeIndex } from "../scheduler/scope-index.ts";
import type { FinishedSession } from "./contract.ts";
import type { NodeView } from "./node-view.ts";
import type { KeptNode, ResumeState } from "./types.ts";

/** A node a resumed scope starts as kept: its view, what the scheduler is told it finished as,
 *  and, for an agent, the session a later node may continue (ADR 0023). */
export interface KeptStart {
  qualifier: Qualifier | null;
  view: NodeView;
  finished: Finished;
  session?: FinishedSession;
}

/** The kept nodes of a scope, by id, in declaration order. */
export function keptStarts(index: ScopeIndex, resume: ResumeState | undefined, keyOf: (id: string) => string): Map<string, KeptStart> {
  const out = new Map<string, KeptStart>();
  for (const id of keptIds(index, resume, keyOf)) {
    const k = resume!.nodes[keyOf(id)]!;
    const start: KeptStart = { qualifier: k.qualifier, ...keptResult(index, id, k) };
    if (index.nodes.get(id)!.kind === "agent")
      start.session = {
        status: "passed",
        sessionId: k.sessionId ?? null,
        ...(k.sessionCostUsd !== undefined ? { sessionCostUsd: k.sessionCostUsd } : {}),
      };
    out.set(id, start);
  }
  return out;
}

/** A map branch an earlier session passed is kept whole: its nodes (a sub-graph's in the
 *  branch too: every key under the branch's) still count in this run's totals. */
export function keptBranchCounts(resume: ResumeState | undefined, branchKey: string, counts: RunCounts): void {
  if (resume === undefined) return;
  const under = keptUnder(resume).get(branchKey);
  if (under === undefined) return;
  counts.passed += under.passed;
  if (under.selfReported > 0) counts.self_reported = (counts.self_reported ?? 0) + under.selfReported;
}

interface KeptTally {
  passed: number;
  selfReported: number;
}

/** Per key prefix ("map#3", "map#3/sub/inner#1"): the kept nodes under it. One pass over
 *  the kept nodes per resume, made on the first kept branch: a pass per kept branch made
 *  resuming N branches N² (11.7 s at 8,000, no output for 13 minutes at 94,000; issue 29). */
const tallies = new WeakMap<ResumeState, Map<string, KeptTally>>();

function keptUnder(resume: ResumeState): Map<string, KeptTally> {
  let out = tallies.get(resume);
  if (out !== undefined) return out;
  out = new Map();
  for (const key in resume.nodes) {
    const self = resume.nodes[key]!.qualifier === "self-reported" ? 1 : 0;
    // Every prefix that ends where a "/" starts: each enclosing branch counts the node.
    for (let at = key.indexOf("/"); at > 0; at = key.indexOf("/", at + 1)) {
      const prefix = key.slice(0, at);
      const t = out.get(prefix);
      if (t === undefined) out.set(prefix, { passed: 1, selfReported: self });
      else {
        t.passed++;
        t.selfReported += self;
      }
    }
  }
  tallies.set(resume, out);
  return out;
}

/** The ids of `index` whose earlier pass is kept; `keyOf` maps an id to its resume key. */
function keptIds(index: ScopeIndex, resume: ResumeState | undefined, keyOf: (id: string) => string): Set<string> {
  const keep = new Set(index.ids.filter((id) => resume?.nodes[keyOf(id)] !== undefined));
  if (keep.size === 0) return keep;
  const dropped = new Set<string>();
  const drop = (id: string) => {
    if (keep.delete(id)) dropped.add(id);
  };
  // A node `exhausted:` recovered runs again: its dependents ran on the exhausted output.
  const recovered = new Set(resume?.recovered ?? []);
  for (const id of index.ids) if (recovered.has(keyOf(id))) dropped.add(id);
  // A feedback chain is kept whole or not at all: a round of it that did not finish
  // leaves earlier rounds' results behind that the loop was replacing.
  for (const chain of index.feedbackChains.values()) if (!chain.every((id) => keep.has(id))) chain.forEach(drop);
  for (let changed = true; changed; ) {
    const before = dropped.size;
    // A fallback ran because its owner did not pass; the owner runs again, so the fallback is decided again.
    for (const [target, owners] of index.fallbackOwners) if (keep.has(target) && owners.some((o) => !keep.has(o))) drop(target);
    // What was computed from a dropped result is dropped too (router targets need their router).
    for (const id of index.order) if (keep.has(id) && index.needs.get(id)!.some((n) => dropped.has(n))) drop(id);
    changed = dropped.size > before;
  }
  return keep;
}

/** How a kept node looks again: its view, and what the scheduler is told it finished as. */
function keptResult(index: ScopeIndex, id: string, k: KeptNode): { view: NodeView; finished: Finished } {
  const kind = index.nodes.get(id)!.kind;
  const view: NodeView = { status: "passed" };
  if (k.qualifier !== null) view.qualifier = k.qualifier;
  if (k.output !== undefined) view.output = k.output;
  const results = (k.output as { results?: unknown })?.results;
  if (kind === "map" && Array.isArray(results)) view.results = results;
  const finished: Finished = { status: "passed", recovered: false };
  // A kept router keeps its choice (its output `to`): what it did not choose stays skipped.
  const to = (k.output as { to?: unknown } | undefined)?.to;
  if (kind === "router" && Array.isArray(to)) finished.chosen = to.filter((t): t is string => typeof t === "string");
  return { view, finished };
}
