// Each node's git worktree for `vouch show` (ADR 0020): read from the run's
// node.finished events, the last one of each node with a workspace deciding.
// Kept in the event JSON, so no projection column is needed.
import type { Database } from "bun:sqlite";
import { nodeKey, type EventOf, type WorkspaceRecord } from "../engine/events.ts";
import { parseStored } from "./stored-json.ts";
import type { BranchView, NodeView } from "./types.ts";

/** A node's worktree record and, when its checks were witnessed, which went fail→pass (ADR 0044). */
export interface Recorded {
  workspace: WorkspaceRecord;
  witnessed?: string[];
}

export function workspacesOf(db: Database, runId: string): Map<string, Recorded> {
  const out = new Map<string, Recorded>();
  // The LIKE only skips events that cannot hold one; each body is still parsed and checked.
  const rows = db
    .query(`SELECT body FROM events WHERE run_id = ? AND type = 'node.finished' AND body LIKE '%"workspace":%' ORDER BY seq`)
    .all(runId) as { body: string }[];
  for (const { body } of rows) {
    const e = parseStored(body) as EventOf<"node.finished">;
    if (e.workspace !== undefined)
      out.set(nodeKey(e.node, e.branch), { workspace: e.workspace, ...(e.witnessed !== undefined ? { witnessed: e.witnessed } : {}) });
  }
  return out;
}

/** Puts each node's worktree record on its view. */
export function attachWorkspaces(nodes: NodeView[], branches: BranchView[], records: ReadonlyMap<string, Recorded>): void {
  if (records.size === 0) return;
  const attach = (n: NodeView, r: Recorded | undefined) => {
    if (r === undefined) return;
    n.workspace = r.workspace;
    if (r.witnessed !== undefined) n.witnessed = r.witnessed;
  };
  for (const n of nodes) attach(n, records.get(nodeKey(n.node)));
  for (const b of branches) for (const n of b.nodes) attach(n, records.get(nodeKey(n.node, { map: b.map, index: b.index })));
}
