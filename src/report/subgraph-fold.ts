// A sub-graph's nodes folded under the graph node that ran them (ADR 0024: a
// node inside sub-graph `review` is `review/lint`, one level deeper
// `review/check/lint`), so the page shows a sub-graph as one node that opens
// onto its own. Pure; the order of the list is kept at every level.

export interface Folded<T> {
  item: T;
  /** The nodes of its sub-graph, when it is a graph node. */
  inside: Folded<T>[];
}

/** Each item under the nearest item whose id is a `/`-prefix of its own; the rest at the top. */
export function foldSubgraphs<T>(items: readonly T[], idOf: (t: T) => string): Folded<T>[] {
  const byId = new Map<string, Folded<T>>();
  const folded = items.map((item) => ({ item, inside: [] as Folded<T>[] }));
  for (const f of folded) if (!byId.has(idOf(f.item))) byId.set(idOf(f.item), f);
  const top: Folded<T>[] = [];
  for (const f of folded) {
    const id = idOf(f.item);
    let parent: Folded<T> | undefined;
    for (let cut = id.lastIndexOf("/"); cut > 0 && parent === undefined; cut = id.lastIndexOf("/", cut - 1))
      parent = byId.get(id.slice(0, cut));
    (parent && parent !== f ? parent.inside : top).push(f);
  }
  return top;
}
