// The worktrees an earlier session of a resumed run recorded for nodes that
// passed (they do not run again): `from` continues from them, and the run's end
// applies their node's `keep` to them as to this session's.
import type { GraphFile } from "../graph/schema.ts";
import type { AnyNode } from "../graph/graph-index.ts";
import type { ResumeState } from "../run/types.ts";
import { DEFAULT_KEEP, workspaceOf } from "./spec.ts";
import type { PriorWorkspace } from "./workspaces.ts";

/** The node a resume key names: "id", or "map#index/id". */
function nodeOfKey(graph: GraphFile, key: string): AnyNode | undefined {
  const slash = key.indexOf("/");
  if (slash === -1) return Object.hasOwn(graph.nodes, key) ? graph.nodes[key] : undefined;
  const map = key.slice(0, key.indexOf("#"));
  const id = key.slice(slash + 1);
  const m = Object.hasOwn(graph.nodes, map) ? graph.nodes[map] : undefined;
  return m?.kind === "map" && Object.hasOwn(m.branch, id) ? m.branch[id] : undefined;
}

export function priorWorkspaces(graph: GraphFile, resume: ResumeState | undefined): Map<string, PriorWorkspace> {
  const out = new Map<string, PriorWorkspace>();
  for (const [key, kept] of Object.entries(resume?.nodes ?? {})) {
    if (kept.workspace === undefined) continue;
    const node = nodeOfKey(graph, key);
    out.set(key, { record: kept.workspace, keep: (node && workspaceOf(graph, node)?.keep) ?? DEFAULT_KEEP });
  }
  return out;
}

