// What a resumed scope keeps from the run's earlier sessions (ADR 0002 "Resume"):
// the passed results, less those that were consequences of work that runs again.
// Pure: the scope passes how its nodes are keyed in the resume state.
import type { Finished } from "../scheduler/dag-scheduler.ts";
import type { ScopeIndex } from "../scheduler/scope-index.ts";
import type { NodeView } from "./node-view.ts";
import type { KeptNode, ResumeState } from "./types.ts";

/** The ids of `index` whose earlier pass is kept; `keyOf` maps an id to its resume key. */
export function keptIds(index: ScopeIndex, resume: ResumeState | undefined, keyOf: (id: string) => string): Set<string> {
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
export function keptResult(index: ScopeIndex, id: string, k: KeptNode): { view: NodeView; finished: Finished } {
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
