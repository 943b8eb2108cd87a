// The worktrees an earlier session of a resumed run recorded for nodes that
// passed (they do not run again): `from` continues from them, and the run's end
// applies their node's `keep` to them as to this session's. A node's keep is
// read in its own graph file (a sub-graph's defaults, ADR 0024). Pure: the run
// driver hands in the walked nodes and what the resume kept (ADR 0036).
import type { WorkspaceRecord } from "../events.ts";
import type { WalkedNode } from "../graph/graph-walk.ts";
import { DEFAULT_KEEP, workspaceOf } from "./spec.ts";
import type { PriorWorkspace } from "./workspaces.ts";

/** A resume key without its branch index: "id", or "map#/id" for every branch of the map. */
function shape(key: string): string {
  return key.replace(/#\d+\//, "#/");
}

/** @param walked every node of the run (walkNodes)
 *  @param kept the resume's kept nodes, by nodeKey (ResumeState.nodes); absent: a fresh run */
export function priorWorkspaces(
  walked: readonly WalkedNode[],
  kept: Readonly<Record<string, { workspace?: WorkspaceRecord }>> | undefined,
): Map<string, PriorWorkspace> {
  const out = new Map<string, PriorWorkspace>();
  const recorded = Object.entries(kept ?? {}).filter(([, k]) => k.workspace !== undefined);
  if (recorded.length === 0) return out;
  const keeps = new Map<string, PriorWorkspace["keep"]>();
  for (const w of walked) {
    const keep = workspaceOf(w.file, w.node)?.keep;
    if (keep !== undefined) keeps.set(w.map !== undefined ? `${w.map}#/${w.id}` : w.id, keep);
  }
  for (const [key, k] of recorded) out.set(key, { record: k.workspace!, keep: keeps.get(shape(key)) ?? DEFAULT_KEEP });
  return out;
}
