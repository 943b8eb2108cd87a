// The nodes of a graph with their scopes and dependency edges, built once and
// read by the validator rules, `vouch graph`, and (through graphOrder and
// ancestors) the engine and the TUI.
//
// "X depends on Y" when X needs Y, when Y is a router that routes to X, or when
// X is the fallback of Y (it starts after Y finally fails). Feedback edges are
// loops by design and are not dependencies.
import type { BranchNode, GraphFile, GraphNode } from "./schema.ts";
import { ancestorsOf, type Deps } from "./dag.ts";
import type { Path } from "./problem.ts";
import { Suggester } from "./did-you-mean.ts";

export type AnyNode = GraphNode | BranchNode;

export interface IndexedNode {
  id: string;
  /** null for an outer node; the map's id for a node of that map's branch. */
  scope: string | null;
  /** Absent when the node did not pass the schema (the loader still knows its id, kind and needs). */
  node?: AnyNode;
  kind?: string;
  needs: string[];
  path: Path;
  /** For a node without `node`: the targets of its routes and its fallback, as far as they could be read. */
  rawEdges?: { routesTo: string[]; fallback?: string };
}

export interface Edge {
  /** `from` depends on `to`. */
  from: string;
  to: string;
  via: "needs" | "route" | "fallback";
  /** Where the edge is written. */
  path: Path;
}

type ScopeKey = string; // "" = the outer graph, else the map id
const key = (scope: string | null): ScopeKey => scope ?? "";

export class GraphIndex {
  readonly nodes: IndexedNode[] = [];
  private readonly scopes = new Map<ScopeKey, Map<string, IndexedNode>>();
  private readonly edgeLists = new Map<ScopeKey, Edge[]>();
  private readonly depMaps = new Map<ScopeKey, Map<string, string[]>>();
  private readonly ancestorCache = new Map<IndexedNode, Set<string>>();
  private readonly byId = new Map<string, IndexedNode[]>();
  private readonly suggesters = new Map<string, Suggester>();

  constructor(graph: GraphFile | null, opaque: readonly IndexedNode[] = []) {
    for (const [id, node] of Object.entries(graph?.nodes ?? {})) {
      this.add({ id, scope: null, node, kind: node.kind, needs: node.needs ?? [], path: ["nodes", id] });
      if (node.kind === "map") {
        for (const [bid, bnode] of Object.entries(node.branch)) {
          this.add({ id: bid, scope: id, node: bnode, kind: bnode.kind, needs: bnode.needs ?? [], path: ["nodes", id, "branch", bid] });
        }
      }
    }
    for (const o of opaque) this.add(o);
    for (const n of this.nodes) this.addEdges(n);
  }

  private add(n: IndexedNode): void {
    this.nodes.push(n);
    const same = this.byId.get(n.id);
    if (same) same.push(n);
    else this.byId.set(n.id, [n]);
    const scope = this.scopes.get(key(n.scope)) ?? new Map<string, IndexedNode>();
    if (!scope.has(n.id)) scope.set(n.id, n);
    this.scopes.set(key(n.scope), scope);
  }

  private addEdges(n: IndexedNode): void {
    const scope = this.scope(n.scope);
    const list = this.edgeLists.get(key(n.scope)) ?? [];
    this.edgeLists.set(key(n.scope), list);
    const push = (e: Edge) => {
      if (scope.has(e.from) && scope.has(e.to)) list.push(e);
    };
    n.needs.forEach((need, i) => push({ from: n.id, to: need, via: "needs", path: [...n.path, "needs", i] }));
    const node = n.node;
    if (node?.kind === "router") {
      node.routes.forEach((r, i) =>
        r.to.forEach((t, j) => push({ from: t, to: n.id, via: "route", path: [...n.path, "routes", i, "to", j] })),
      );
      (node.default ?? []).forEach((t, j) => push({ from: t, to: n.id, via: "route", path: [...n.path, "default", j] }));
    }
    // A node as its own fallback is reported as such, not again as a cycle.
    if ((node?.kind === "agent" || node?.kind === "script") && node.fallback !== undefined && node.fallback !== n.id) {
      push({ from: node.fallback, to: n.id, via: "fallback", path: [...n.path, "fallback"] });
    }
    // A node the schema refused still orders the nodes it routes to or falls back to.
    for (const t of n.rawEdges?.routesTo ?? []) push({ from: t, to: n.id, via: "route", path: n.path });
    if (n.rawEdges?.fallback !== undefined) push({ from: n.rawEdges.fallback, to: n.id, via: "fallback", path: n.path });
  }

  /** The nodes of one scope by id (outer graph: null). */
  scope(scope: string | null): ReadonlyMap<string, IndexedNode> {
    return this.scopes.get(key(scope)) ?? new Map();
  }

  edges(scope: string | null): readonly Edge[] {
    return this.edgeLists.get(key(scope)) ?? [];
  }

  deps(scope: string | null): Deps {
    const cached = this.depMaps.get(key(scope));
    if (cached) return cached;
    const deps = new Map<string, string[]>();
    for (const id of this.scope(scope).keys()) deps.set(id, []);
    for (const e of this.edges(scope)) deps.get(e.from)!.push(e.to);
    this.depMaps.set(key(scope), deps);
    return deps;
  }

  /** Ids whose results are settled before `n` starts: its ancestors in its own scope and,
   *  for a branch node, the ancestors of its map (the map starts after them). */
  ancestors(n: IndexedNode): ReadonlySet<string> {
    const cached = this.ancestorCache.get(n);
    if (cached) return cached;
    const own = ancestorsOf(n.id, this.deps(n.scope));
    const map = n.scope === null ? undefined : this.scope(null).get(n.scope);
    if (map) for (const a of this.ancestors(map)) own.add(a);
    this.ancestorCache.set(n, own);
    return own;
  }

  /** Whether `id` is among `n`'s ancestors: a search that stops when it finds it,
   *  cheaper than building the whole set when the answer is a direct need. */
  isUpstream(n: IndexedNode, id: string): boolean {
    if (reaches(n.id, id, this.deps(n.scope))) return true;
    const map = n.scope === null ? undefined : this.scope(null).get(n.scope);
    return map !== undefined && this.isUpstream(map, id);
  }

  /** Every node of that id, in graph order, in any scope: a lookup, not a scan. */
  withId(id: string): readonly IndexedNode[] {
    return this.byId.get(id) ?? [];
  }

  /** "Did you mean" against the ids of one scope (with `outerToo`, the outer ids
   *  first, then the branch's), built once per scope however many names are unknown. */
  suggester(scope: string | null, outerToo = false): Suggester {
    const k = `${outerToo ? "+" : "-"}${key(scope)}`;
    let s = this.suggesters.get(k);
    if (s === undefined) {
      const ids = outerToo && scope !== null ? [...this.scope(null).keys(), ...this.scope(scope).keys()] : this.scope(scope).keys();
      s = new Suggester(ids);
      this.suggesters.set(k, s);
    }
    return s;
  }

  /** Outer node by id, or a node of the given branch. */
  find(id: string, scope: string | null = null): IndexedNode | undefined {
    return this.scope(scope).get(id) ?? (scope !== null ? this.scope(null).get(id) : undefined);
  }
}

function reaches(from: string, target: string, deps: Deps): boolean {
  const seen = new Set<string>();
  const stack = [...(deps.get(from) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === target) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const d of deps.get(next) ?? []) stack.push(d);
  }
  return false;
}

export interface OrderedNode {
  id: string;
  node: AnyNode;
  /** The map whose branch holds this node; absent for outer nodes. */
  map?: string;
}

/** Nodes in graph order: outer nodes in file order, each map followed by its branch nodes. */
export function graphOrder(graph: GraphFile): OrderedNode[] {
  return new GraphIndex(graph).nodes.map((n) => ({ id: n.id, node: n.node!, ...(n.scope !== null ? { map: n.scope } : {}) }));
}

/** Ids of every node whose result is settled before node `id` starts (through needs,
 *  router routes and fallbacks; for a branch node also its map's ancestors).
 *  Empty for an unknown id. */
export function ancestors(graph: GraphFile, id: string): Set<string> {
  const index = new GraphIndex(graph);
  const n = index.nodes.find((x) => x.id === id);
  return new Set(n ? index.ancestors(n) : []);
}
