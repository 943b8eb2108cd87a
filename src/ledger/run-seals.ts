// Each node's seal for `vouch show` (ADR 0040): read from the run's node.finished
// events, the last one of each node that recorded `sealed` deciding. Kept in the
// event JSON, as the worktree record is (run-workspaces.ts): no projection column.
import type { Database } from "bun:sqlite";
import type { SealFacts } from "../read/seal.ts";
import { attachByNode, lastFinishedWith } from "./finished-records.ts";
import type { BranchView, NodeView } from "./types.ts";

export function sealsOf(db: Database, runId: string): Map<string, SealFacts> {
  return lastFinishedWith<SealFacts>(db, runId, "sealed", (e) => {
    if (typeof e.sealed !== "boolean") return undefined;
    return e.sealed ? { sealed: true } : { sealed: false, unsealed_reason: String(e.unsealed_reason ?? "") };
  });
}

/** Puts each node's seal on its view. */
export function attachSeals(nodes: NodeView[], branches: BranchView[], seals: ReadonlyMap<string, SealFacts>): void {
  attachByNode(nodes, branches, seals, (n, s) => Object.assign(n, s));
}
