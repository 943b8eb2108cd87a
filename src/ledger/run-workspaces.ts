// Each node's git worktree for `vouch show` (ADR 0020): read from the run's
// node.finished events, the last one of each node with a workspace deciding.
// Kept in the event JSON, so no projection column is needed.
import type { Database } from "bun:sqlite";
import type { WorkspaceRecord } from "../engine/events.ts";
import { attachByNode, lastFinishedWith } from "./finished-records.ts";
import type { BranchView, NodeView } from "./types.ts";

/** A node's worktree record and, when its checks were witnessed, which went fail→pass (ADR 0044). */
export interface Recorded {
  workspace: WorkspaceRecord;
  witnessed?: string[];
}

export function workspacesOf(db: Database, runId: string): Map<string, Recorded> {
  return lastFinishedWith<Recorded>(db, runId, "workspace", (e) =>
    e.workspace === undefined ? undefined : { workspace: e.workspace, ...(e.witnessed !== undefined ? { witnessed: e.witnessed } : {}) },
  );
}

/** Puts each node's worktree record on its view. */
export function attachWorkspaces(nodes: NodeView[], branches: BranchView[], records: ReadonlyMap<string, Recorded>): void {
  attachByNode(nodes, branches, records, (n, r) => {
    n.workspace = r.workspace;
    if (r.witnessed !== undefined) n.witnessed = r.witnessed;
  });
}
