// Graph algorithms over "X depends on Y" edges: cycles (printed for the user)
// and ancestors. Iterative, so a long chain of nodes cannot overflow the stack.

/** deps.get(x) = the ids x waits for. Ids missing from the map have no deps. */
export type Deps = ReadonlyMap<string, readonly string[]>;

/** Strongly connected components that contain a cycle (size > 1, or a self-edge), in `order`. */
export function cyclicComponents(order: readonly string[], deps: Deps): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const known = new Set(order);
  const edgesOf = (id: string) => (deps.get(id) ?? []).filter((d) => known.has(d));
  for (const root of order) {
    if (index.has(root)) continue;
    const work: { id: string; next: number; edges: string[] }[] = [{ id: root, next: 0, edges: edgesOf(root) }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, next: 0, edges: edgesOf(to) });
        } else if (onStack.has(to)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.id);
        const selfLoop = component.length === 1 && (deps.get(frame.id) ?? []).includes(frame.id);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  const rank = new Map(order.map((id, i) => [id, i]));
  return components
    .map((c) => c.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0)))
    .sort((a, b) => (rank.get(a[0]!) ?? 0) - (rank.get(b[0]!) ?? 0));
}

/** One shortest cycle through the first member of a cyclic component: [a, b, c, a]. */
export function cycleThrough(component: readonly string[], deps: Deps): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const next of deps.get(id) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let cur: string | undefined = id; cur !== undefined && cur !== start; cur = previous.get(cur)) path.splice(1, 0, cur);
        path.push(start);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, id);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** Every id `id` transitively depends on (never `id` itself unless it is on a cycle). */
export function ancestorsOf(id: string, deps: Deps): Set<string> {
  const seen = new Set<string>();
  const queue = [...(deps.get(id) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(deps.get(next) ?? []));
  }
  return seen;
}
