// What `vouch show` reads straight from a run's node.finished events, one field at a
// time (the worktree record, ADR 0020; the seal, ADR 0040): kept in the event JSON, so no
// projection column is needed. The last event of each node that recorded the field decides.
import type { Database } from "bun:sqlite";
import { nodeKey, type EventOf } from "../engine/events.ts";
import { parseStored } from "./stored-json.ts";
import type { BranchView, NodeView } from "./types.ts";
import { BlobStore, type StoredEventRow } from "./blob-store.ts";
import { tokensHolding } from "./event-fragments.ts";

/** Each node's record of `field`, by nodeKey; `read` gives undefined where an event holds none. */
export function lastFinishedWith<T>(
  db: Database,
  runId: string,
  field: "workspace" | "sealed",
  read: (e: EventOf<"node.finished">) => T | undefined,
): Map<string, T> {
  const out = new Map<string, T>();
  // The LIKE only skips events that cannot hold one (a long record is a reference after its
  // key, so the key is still in the stored body; a packed body may hold it as a token, ADR 0082);
  // each body is still parsed and checked.
  const tokens = tokensHolding(`"${field}":`);
  const rows = db
    .query(
      `SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND type = 'node.finished' AND (body LIKE ?${" OR instr(body, ?) > 0".repeat(tokens.length)}) ORDER BY seq`,
    )
    .all(runId, `%"${field}":%`, ...tokens) as StoredEventRow[];
  const blobs = new BlobStore(db);
  for (const row of rows) {
    const e = parseStored(blobs.eventText(row)) as EventOf<"node.finished">;
    const r = read(e);
    if (r !== undefined) out.set(nodeKey(e.node, e.branch), r);
  }
  return out;
}

/** Puts each node's record on its view, the top graph's and every branch's. */
export function attachByNode<T>(
  nodes: NodeView[],
  branches: BranchView[],
  records: ReadonlyMap<string, T>,
  put: (n: NodeView, r: T) => void,
): void {
  if (records.size === 0) return;
  const attach = (n: NodeView, r: T | undefined) => {
    if (r !== undefined) put(n, r);
  };
  for (const n of nodes) attach(n, records.get(nodeKey(n.node)));
  for (const b of branches) for (const n of b.nodes) attach(n, records.get(nodeKey(n.node, { map: b.map, index: b.index })));
}
