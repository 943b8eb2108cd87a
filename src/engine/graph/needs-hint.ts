// The hint "add X to the needs of Y" only where it helps (issue 27 item 18): when X
// already runs after Y (it needs Y, directly or through others), adding it would
// make a cycle, so the hint says to read X's result in a node after X instead.
import type { GraphIndex, IndexedNode } from "./graph-index.ts";

/** @param needer the node whose needs would change (a branch node's map, when that is where the need goes)
 *  @param shown how the needer is named in the hint ("a", or map "m") */
export function addNeedHint(index: GraphIndex, needer: IndexedNode, id: string, shown: string): string {
  const target = index.find(id, needer.scope);
  if (target !== undefined && target !== needer && index.isUpstream(target, needer.id))
    return `"${id}" runs after ${shown} (it needs it, directly or through other nodes), so adding it to the needs would make a cycle: move this to a node that runs after "${id}"`;
  return `add ${id} to the needs of ${shown}`;
}
