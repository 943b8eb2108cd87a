// A NODE argument of a command (`vouch show --diff NODE`, `--transcript NODE`): the
// label every reader prints (`each[3].verify`, src/read/node-path.ts) or any spelling
// vouch printed before, matched against a recorded run.
import { UsageError } from "../engine/errors.ts";
import type { NodeView, RunSummary } from "../ledger/types.ts";
import { namesNode, nodePath, parseNodePath } from "../read/node-path.ts";

export interface NamedNode {
  /** The node's label, as printed. */
  path: string;
  view: NodeView;
}

/** Every node of the run, top-level and in branches, with its label. */
export function allNodes(summary: RunSummary): NamedNode[] {
  const out = summary.nodes.map((view) => ({ path: view.node, view }));
  for (const b of summary.branches) for (const view of b.nodes) out.push({ path: nodePath(view.node, b), view });
  return out;
}

/** The nodes `arg` names: one, or for a bare branch node id that node in every branch. */
export function nodesNamed(summary: RunSummary, arg: string, among: NamedNode[] = allNodes(summary)): NamedNode[] {
  const ref = parseNodePath(arg);
  if (ref === null) {
    throw new UsageError(
      `"${arg}" is not a node label`,
      "give a node id (verify), or one in a map branch as vouch show prints it: each[3].verify",
    );
  }
  return among.filter((n) => namesNode(ref, n.view.node, n.view.branch));
}
