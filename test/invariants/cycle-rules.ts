// Import cycles in src/ (docs/architecture.md §2 invariant 11), as strongly
// connected components of the parsed import graph (ts-facts.ts). A value cycle
// (modules that load each other) is refused; a cycle that only types close is
// reported and kept to the short list below, which fails when an entry is stale.
import { sourceEdges } from "./folder-rules.ts";
import type { Facts } from "./layer-rules.ts";

/**
 * Value cycles allowed: none (the engine's untie, issue 25 and ADR 0036, removed the last,
 * branch-job.ts <-> branch-launch.ts). Each entry would be the cycle's files, sorted.
 */
export const VALUE_CYCLES_ALLOWED: readonly (readonly string[])[] = [];

/**
 * Cycles only type imports close. They load nothing at run time, but each is a knot a
 * reader must untie in their head; keep the list short. The run loop's knot (22 files,
 * through RunContext) went with the engine's untie (issue 25, ADR 0036).
 */
export const TYPE_CYCLES_ALLOWED: readonly (readonly string[])[] = [];

/** Strongly connected components with a cycle (two files or more, or a file that imports itself), each sorted. */
export function cycles(facts: Facts, valuesOnly: boolean): string[][] {
  const next = new Map<string, Set<string>>([...facts.keys()].map((f) => [f, new Set<string>()]));
  for (const e of sourceEdges(facts)) if (facts.has(e.to) && !(valuesOnly && e.typeOnly)) next.get(e.from)!.add(e.to);
  // Tarjan's algorithm, iterative: the import graph of a large tree must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; rest: string[] }[] = [];
    const open = (node: string) => {
      index.set(node, index.size);
      low.set(node, index.get(node)!);
      stack.push(node);
      onStack.add(node);
      work.push({ node, rest: [...next.get(node)!].sort() });
    };
    open(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const child = top.rest.shift();
      if (child !== undefined) {
        if (!index.has(child)) open(child);
        else if (onStack.has(child)) low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || next.get(top.node)!.has(top.node)) out.push(component.sort());
    }
  }
  return out.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** Cycles of modules that load each other at run time. */
export function valueCycles(facts: Facts): string[][] {
  return cycles(facts, true);
}

/** Cycles a type import closes: components of the whole graph that no value cycle accounts for. */
export function typeOnlyCycles(facts: Facts): string[][] {
  const values = new Set(valueCycles(facts).map((c) => c.join(" ")));
  return cycles(facts, false).filter((c) => !values.has(c.join(" ")));
}

/** Found cycles not on the list, and listed cycles no longer found (each as its files joined by " "). */
export function againstAllowed(found: string[][], allowed: readonly (readonly string[])[]): { unlisted: string[]; stale: string[] } {
  const f = found.map((c) => c.join(" "));
  const a = allowed.map((c) => [...c].sort().join(" "));
  return { unlisted: f.filter((c) => !a.includes(c)), stale: a.filter((c) => !f.includes(c)) };
}
