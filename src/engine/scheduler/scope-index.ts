// The run-time shape of one scope (the top-level graph, or a map's branch),
// computed once: who waits for whom, router edges, fallback owners, feedback
// chains and sinks. The scheduler and the run loop only look things up here,
// so nothing scans every node when one finishes.
// Who depends on whom (needs, routes, fallbacks) comes from the one graph model,
// GraphIndex in src/engine/graph/graph-index.ts, which the validator and
// `vouch graph` read too; this adds what only a run needs (feedback holds,
// the waits that drive the pending counters, topological order, sinks).
import { ancestorsOf } from "../graph/dag.ts";
import { GraphIndex } from "../graph/graph-index.ts";
import type { BranchNode, GraphNode } from "../graph/schema.ts";

export type ScopeNode = GraphNode | BranchNode;

export interface ScopeIndex {
  /** Declaration order. */
  ids: string[];
  nodes: Map<string, ScopeNode>;
  /** Declared needs plus the implicit need of a router target on its router(s). */
  needs: Map<string, string[]>;
  /** What a node waits for: its needs plus feedback holds (see `holds`). */
  waitsFor: Map<string, string[]>;
  /** Reverse of waitsFor. */
  dependents: Map<string, string[]>;
  /** Routers that name a node as a target. */
  routersOf: Map<string, string[]>;
  /** Nodes named by some node's `fallback`: started only when triggered. */
  fallbackOwners: Map<string, string[]>;
  /** For a node X with `feedback`, every node on a path from `feedback.to` to X (inclusive), in topological order. */
  feedbackChains: Map<string, string[]>;
  /** Nodes nothing else in the scope waits for, fallback targets excluded. */
  sinks: string[];
  /** Topological order of ids (declaration order breaks ties). */
  order: string[];
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/** Kahn's algorithm; the validator refuses cycles, so a leftover is a bug worth naming. */
function topoOrder(ids: string[], waitsFor: Map<string, string[]>, dependents: Map<string, string[]>): string[] {
  const pending = new Map(ids.map((id) => [id, waitsFor.get(id)!.length]));
  const queue = ids.filter((id) => pending.get(id) === 0);
  const out: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    out.push(id);
    for (const d of dependents.get(id) ?? []) {
      const n = pending.get(d)! - 1;
      pending.set(d, n);
      if (n === 0) queue.push(d);
    }
  }
  if (out.length !== ids.length) {
    const stuck = ids.filter((id) => !out.includes(id));
    throw new Error(`cycle among nodes ${stuck.join(", ")} (the validator should have refused it)`);
  }
  return out;
}

/** Declared needs (in order), then the implicit need of a router target on its
 *  router(s); the routers of each target; the owners of each fallback target. */
function scopeEdges(ids: string[], nodes: Record<string, ScopeNode>) {
  const graph = new GraphIndex(
    null,
    ids.map((id) => ({ id, scope: null, node: nodes[id]!, kind: nodes[id]!.kind, needs: nodes[id]!.needs ?? [], path: [] })),
  );
  const edges = graph.edges(null);
  const needs = new Map<string, string[]>(ids.map((id) => [id, []]));
  const routersOf = new Map<string, string[]>();
  const fallbackOwners = new Map<string, string[]>();
  for (const e of edges) if (e.via === "needs") needs.get(e.from)!.push(e.to);
  for (const e of edges) {
    if (e.via === "route") {
      push(routersOf, e.from, e.to);
      push(needs, e.from, e.to);
    } else if (e.via === "fallback") push(fallbackOwners, e.from, e.to);
  }
  return { needs, routersOf, fallbackOwners };
}

export function buildScopeIndex(nodes: Record<string, ScopeNode>): ScopeIndex {
  const ids = Object.keys(nodes);
  const nodeMap = new Map(Object.entries(nodes));
  const { needs, routersOf, fallbackOwners } = scopeEdges(ids, nodes);

  // Feedback chains: the nodes on a path from `to` to X are the ancestors of X
  // (and X) that descend from `to` (and `to`).
  const feedbackChains = new Map<string, string[]>();
  const holds = new Map<string, string[]>();
  for (const id of ids) {
    const node = nodes[id]!;
    if (!("feedback" in node) || !node.feedback || !nodeMap.has(node.feedback.to)) continue;
    const to = node.feedback.to;
    const upX = ancestorsOf(id, needs);
    if (!upX.has(to)) continue;
    const chain = new Set([id, to]);
    for (const a of upX) if (ancestorsOf(a, needs).has(to)) chain.add(a);
    feedbackChains.set(id, [...chain]);
    // A node outside the chain that needs a chain node would otherwise start on
    // a result the loop may still replace: it also waits for X to settle.
    for (const other of ids) {
      if (chain.has(other)) continue;
      if (needs.get(other)!.some((n) => chain.has(n) && n !== id)) push(holds, other, id);
    }
  }

  const waitsFor = new Map<string, string[]>();
  const dependents = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const id of ids) {
    const all = [...new Set([...needs.get(id)!, ...(holds.get(id) ?? [])])];
    waitsFor.set(id, all);
    for (const n of all) dependents.get(n)!.push(id);
  }
  const order = topoOrder(ids, waitsFor, dependents);
  for (const [x, chain] of feedbackChains)
    feedbackChains.set(
      x,
      order.filter((id) => chain.includes(id)),
    );
  const sinks = ids.filter((id) => dependents.get(id)!.length === 0 && !fallbackOwners.has(id));
  return { ids, nodes: nodeMap, needs, waitsFor, dependents, routersOf, fallbackOwners, feedbackChains, sinks, order };
}

const memo = new WeakMap<Record<string, ScopeNode>, ScopeIndex>();

/** The index of a scope's nodes (a graph file's `nodes`, or a map's `branch`), built once per
 *  nodes object however many scopes run it: 10,000 branches of one map share one index. The
 *  one memo of the run: the top scope, every branch and every sub-graph ask here. */
export function scopeIndexOf(nodes: Record<string, ScopeNode>): ScopeIndex {
  let index = memo.get(nodes);
  if (!index) memo.set(nodes, (index = buildScopeIndex(nodes)));
  return index;
}

/** Every node whose result flows into one of `ids`: through needs (router targets
 *  included) and from a fallback's owners. What an end node that ran accounts for.
 *  `through`, when given, limits the walk to nodes it accepts (a run passes the nodes
 *  that ran: a skipped node passed nothing on, so what made it skip is not spoken for). */
export function upstreamOf(index: ScopeIndex, ids: readonly string[], through: (id: string) => boolean = () => true): Set<string> {
  const seen = new Set<string>();
  const stack: string[] = [];
  const into = (id: string) => {
    for (const n of index.needs.get(id) ?? []) stack.push(n);
    for (const o of index.fallbackOwners.get(id) ?? []) stack.push(o);
  };
  ids.forEach(into);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n) || !through(n)) continue;
    seen.add(n);
    into(n);
  }
  return seen;
}
