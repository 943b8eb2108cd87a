// `vouch validate`'s warning (not an error: exit 0) for an end node that can
// run before other work of its scope ends (issue 12 item 1). Such an end no
// longer decides alone — work it does not depend on still counts (ADR 0002
// "Aggregating a run") — but a graph that means "done when X is done" should
// say so with needs. Pure; run only on a graph that validated.
//
// Work W is *ordered* before end E when W is upstream of E (needs, routes,
// fallbacks: it has finished when E runs) or W cannot run at all when E runs:
//  - E runs only if each of its dominators ran: a dominator that is a fallback
//    target means its one owner did not pass, so what needs that owner is skipped;
//  - a dominator that is a router's target means the router chose it, so the
//    router's targets that share no route with it are skipped;
//  - a fallback whose owners all passed (they dominate E below any router: a router runs
//    over needs that failed) is never triggered;
//  - what needs only skipped nodes is skipped, and what needs a node that did not pass,
//    unless it is a router (a router runs over needs that failed).
// Anything else is reported. `when:` conditions are not reasoned about.
import { buildScopeIndex, upstreamOf, type ScopeIndex, type ScopeNode } from "../scheduler/scope-index.ts";
import type { Path, PathProblem } from "./problem.ts";
import type { GraphFile } from "./schema.ts";

/** Above this many steps (dominator walks, and nodes × ends) a scope is not analysed:
 *  the warning is advice, never worth a slow validate. */
export const END_ORDER_BUDGET = 250_000;

class OutOfBudget extends Error {}

/** Counts the analysis' steps; throws OutOfBudget past the limit. */
class Budget {
  constructor(private left: number) {}
  spend(n: number): void {
    this.left -= n;
    if (this.left < 0) throw new OutOfBudget();
  }
}
const NAMED = 3;

export function endOrderWarnings(graph: GraphFile): PathProblem[] {
  const out: PathProblem[] = [];
  out.push(...scopeWarnings(graph.nodes, ["nodes"]));
  for (const [id, node] of Object.entries(graph.nodes)) {
    if (node.kind === "map") out.push(...scopeWarnings(node.branch, ["nodes", id, "branch"]));
  }
  return out;
}

function scopeWarnings(nodes: Record<string, ScopeNode>, prefix: Path): PathProblem[] {
  const budget = new Budget(END_ORDER_BUDGET);
  try {
    const index = buildScopeIndex(nodes);
    const ends = index.ids.filter((id) => index.nodes.get(id)!.kind === "end");
    if (ends.length === 0) return [];
    budget.spend(ends.length * index.ids.length);
    const idom = immediateDominators(index, budget);
    return ends.flatMap((end) => warningFor(index, idom, end, prefix));
  } catch (e) {
    if (e instanceof OutOfBudget) return [];
    throw e;
  }
}

function warningFor(index: ScopeIndex, idom: Map<string, string | null>, end: string, prefix: Path): PathProblem[] {
  const unordered = unorderedWork(index, idom, end);
  if (unordered.length === 0) return [];
  const one = unordered.length === 1;
  const names =
    unordered
      .slice(0, NAMED)
      .map((n) => `"${n}"`)
      .join(", ") + (unordered.length > NAMED ? ` and ${unordered.length - NAMED} more` : "");
  return [
    {
      path: [...prefix, end],
      at: "key",
      message: `warning: end node "${end}" can run before ${names} ${one ? "ends" : "end"}: ${one ? "it is" : "they are"} not upstream of "${end}" (through needs, routes or fallbacks)`,
      hint: `if "${end}" means the work is done, add needs: [${unordered.slice(0, NAMED).join(", ")}] to it; as written, the run still waits for that work, and a failure there overrules "${end}"`,
    },
  ];
}

/** Immediate dominators over needs (router targets need their router); a node without
 *  needs is dominated by nothing but itself (null). Topological order makes one pass enough. */
function immediateDominators(index: ScopeIndex, budget: Budget): Map<string, string | null> {
  const idom = new Map<string, string | null>();
  const rank = new Map(index.order.map((id, i) => [id, i]));
  const intersect = (a: string | null, b: string | null): string | null => {
    while (a !== null && b !== null && a !== b) {
      budget.spend(1);
      if (rank.get(a)! > rank.get(b)!) a = idom.get(a)!;
      else b = idom.get(b)!;
    }
    return a === b ? a : null;
  };
  for (const id of index.order) {
    const needs = index.needs.get(id)!;
    if (needs.length === 0) {
      idom.set(id, null);
      continue;
    }
    let d: string | null = needs[0]!;
    for (const n of needs.slice(1)) d = intersect(d, n);
    idom.set(id, d);
  }
  return idom;
}

function dominatorsOf(idom: Map<string, string | null>, id: string): string[] {
  const out: string[] = [];
  for (let d = idom.get(id) ?? null; d !== null; d = idom.get(d) ?? null) out.push(d);
  return out;
}

/** Work (not an end, not a router) that may still be running when `end` runs. */
function unorderedWork(index: ScopeIndex, idom: Map<string, string | null>, end: string): string[] {
  const chainList = [end, ...dominatorsOf(idom, end)];
  const chain = new Set(chainList);
  // A router runs over needs that failed or erred (issue 27 item 15): only the dominators from
  // the end up to the first router must have passed for the end to run; those above it need not.
  const router = chainList.findIndex((d, i) => i > 0 && index.nodes.get(d)!.kind === "router");
  const passed = new Set(router === -1 ? chainList.slice(1) : chainList.slice(1, router + 1));
  const notPassed = new Set<string>();
  const skipped = new Set<string>();
  for (const d of chain) {
    const owners = index.fallbackOwners.get(d);
    if (owners?.length === 1) notPassed.add(owners[0]!);
    for (const r of index.routersOf.get(d) ?? []) for (const t of unchosenWith(index, r, d)) skipped.add(t);
  }
  // Nothing excluded yet and no fallback to exclude: the closure adds nothing (the common,
  // cheap case). With fallbacks, a second pass settles one whose owners come later in needs order.
  const hasFallbacks = index.fallbackOwners.size > 0;
  const passes = hasFallbacks ? 2 : notPassed.size > 0 || skipped.size > 0 ? 1 : 0;
  for (let pass = 0; pass < passes; pass++) {
    for (const id of index.order) {
      if (skipped.has(id) || chain.has(id)) continue;
      const needs = index.needs.get(id)!;
      const owners = index.fallbackOwners.get(id);
      // A router runs over needs that failed (readiness.ts): only all-skipped needs keep it from running.
      const sinksOnFailure = index.nodes.get(id)!.kind !== "router";
      if (
        (sinksOnFailure && needs.some((n) => notPassed.has(n))) ||
        (needs.length > 0 && needs.every((n) => skipped.has(n))) ||
        (owners !== undefined && owners.every((o) => passed.has(o) || skipped.has(o)))
      ) {
        skipped.add(id);
      }
    }
  }
  const upstream = upstreamOf(index, [end]);
  return index.ids.filter((id) => {
    const kind = index.nodes.get(id)!.kind;
    return kind !== "end" && kind !== "router" && !upstream.has(id) && !skipped.has(id) && !notPassed.has(id);
  });
}

/** The targets of router `r` that are never chosen together with `target`. */
function unchosenWith(index: ScopeIndex, r: string, target: string): string[] {
  const node = index.nodes.get(r)!;
  if (node.kind !== "router") return [];
  const groups = [...node.routes.map((x) => x.to), ...(node.default ? [node.default] : [])];
  const together = new Set(groups.filter((g) => g.includes(target)).flat());
  return [...new Set(groups.flat())].filter((t) => !together.has(t));
}
