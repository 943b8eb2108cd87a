// Each node's seal for `vouch show` (ADR 0040): read from the run's node.finished
// events, the last one of each node that recorded `sealed` deciding. Kept in the
// event JSON, as the worktree record is (run-workspaces.ts): no projection column.
import type { Database } from "bun:sqlite";
import { nodeKey, type EventOf } from "../engine/events.ts";
import type { SealFacts } from "../read/seal.ts";
import { parseStored } from "./stored-json.ts";
import type { BranchView, NodeView } from "./types.ts";

export function sealsOf(db: Database, runId: string): Map<string, SealFacts> {
  const out = new Map<string, SealFacts>();
  const rows = db
    .query(`SELECT body FROM events WHERE run_id = ? AND type = 'node.finished' AND body LIKE '%"sealed":%' ORDER BY seq`)
    .all(runId) as { body: string }[];
  for (const { body } of rows) {
    const e = parseStored(body) as EventOf<"node.finished">;
    if (typeof e.sealed !== "boolean") continue;
    out.set(nodeKey(e.node, e.branch), e.sealed ? { sealed: true } : { sealed: false, unsealed_reason: String(e.unsealed_reason ?? "") });
  }
  return out;
}

/** Puts each node's seal on its view. */
export function attachSeals(nodes: NodeView[], branches: BranchView[], seals: ReadonlyMap<string, SealFacts>): void {
  if (seals.size === 0) return;
  const put = (n: NodeView, key: string) => {
    const s = seals.get(key);
    if (s !== undefined) Object.assign(n, s);
  };
  for (const n of nodes) put(n, nodeKey(n.node));
  for (const b of branches) for (const n of b.nodes) put(n, nodeKey(n.node, { map: b.map, index: b.index }));
}
