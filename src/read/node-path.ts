// One label for a node of a run, printed by every reader (the TUI, the plain lines,
// `vouch show`, the reports) and accepted by every command that takes a node
// (`vouch show --diff NODE`, `--transcript NODE`): `verify` at the top level,
// `each[3].verify` in branch 3 of map `each` (a sub-graph's node: `review/lint`,
// `each[3].review/lint`). Node ids match ^[A-Za-z_][A-Za-z0-9_-]*$, so none holds
// `[`, `]`, `.`, `#` or a space and every spelling below reads back unambiguously.
import type { BranchRef } from "../engine/events.ts";

/** `each[3]`: a map branch as the labels name it. */
export function branchPath(map: string, index: number): string {
  return `${map}[${index}]`;
}

/** `verify`, or `each[3].verify` inside branch 3 of map `each`. */
export function nodePath(node: string, branch?: BranchRef): string {
  return branch ? `${branchPath(branch.map, branch.index)}.${node}` : node;
}

export interface NodeRef {
  node: string;
  branch?: BranchRef;
}

// A map id never holds `[`, `#`, `/` or a space; a node id may hold `/` (a sub-graph's node).
const NAME = "[A-Za-z_][A-Za-z0-9_-]*";
const NODE = `${NAME}(?:/${NAME})*`;
const SPELLINGS: RegExp[] = [
  new RegExp(`^(?<map>${NAME})\\[(?<index>\\d+)\\]\\.(?<node>${NODE})$`), // each[3].verify (the one printed)
  new RegExp(`^(?<map>${NAME})#(?<index>\\d+)/(?<node>${NODE})$`), // each#3/verify (the engine's key)
  new RegExp(`^(?<node>${NODE}) \\[(?<map>${NAME}) #(?<index>\\d+)\\]$`), // verify [each #3] (show, before)
  new RegExp(`^(?<node>${NODE}) \\((?<map>${NAME}) #(?<index>\\d+)\\)$`), // verify (each #3) (the TUI, before)
  new RegExp(`^(?<map>${NAME}) #(?<index>\\d+) (?<node>${NODE})$`), // each #3 verify (the plain lines, before)
];

/** A node label in any spelling vouch has printed; null when `text` is none of them. A bare
 *  id has no branch: it names a top-level node, or a branch node in every branch. */
export function parseNodePath(text: string): NodeRef | null {
  const t = text.trim();
  if (new RegExp(`^${NODE}$`).test(t)) return { node: t };
  for (const re of SPELLINGS) {
    const g = re.exec(t)?.groups;
    if (g) return { node: g.node!, branch: { map: g.map!, index: Number(g.index) } };
  }
  return null;
}

/** Does `ref` (a parsed label) name the node `node` (of `branch`)? A bare id names it in any branch. */
export function namesNode(ref: NodeRef, node: string, branch?: BranchRef): boolean {
  if (ref.node !== node) return false;
  if (!ref.branch) return true;
  return branch !== undefined && ref.branch.map === branch.map && ref.branch.index === branch.index;
}
