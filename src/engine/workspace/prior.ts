// The worktrees an earlier session of a resumed run recorded for nodes that
// passed (they do not run again): `from` continues from them, and the run's end
// applies their node's `keep` to them as to this session's. A node's keep is
// read in its own graph file (a sub-graph's defaults, ADR 0024).
import type { GraphFile } from "../graph/schema.ts";
import { walkNodes } from "../run/graph-walk.ts";
import type { ResumeState, RunOptions } from "../run/types.ts";
import { DEFAULT_KEEP, workspaceOf } from "./spec.ts";
import type { PriorWorkspace } from "./workspaces.ts";

/** A resume key without its branch index: "id", or "map#/id" for every branch of the map. */
function shape(key: string): string {
  return key.replace(/#\d+\//, "#/");
}

export function priorWorkspaces(
  graph: GraphFile,
  resume: ResumeState | undefined,
  files: Pick<RunOptions, "graphPath" | "subgraphs">,
): Map<string, PriorWorkspace> {
  const out = new Map<string, PriorWorkspace>();
  const kept = Object.entries(resume?.nodes ?? {}).filter(([, k]) => k.workspace !== undefined);
  if (kept.length === 0) return out;
  const keeps = new Map<string, PriorWorkspace["keep"]>();
  for (const w of walkNodes(graph, files.graphPath, files.subgraphs)) {
    const keep = workspaceOf(w.file, w.node)?.keep;
    if (keep !== undefined) keeps.set(w.map !== undefined ? `${w.map}#/${w.id}` : w.id, keep);
  }
  for (const [key, k] of kept) out.set(key, { record: k.workspace!, keep: keeps.get(shape(key)) ?? DEFAULT_KEEP });
  return out;
}
