// A new run's id, made unique by the ledger rather than by luck (ADR 0019):
// the random part of an id makes a clash rare, and this makes it impossible.
// Taking an id's lock first, then finding no row for it, is enough: every
// process that writes a run's events holds that run's lock while it does, and
// a run that has ended wrote its run.started before letting the lock go.
import type { Database } from "bun:sqlite";
import { LedgerError, ResumeRefusedError } from "../engine/errors.ts";
import type { RunLock } from "./run-lock.ts";

/** Draws before giving up: with 24 random bits, even a thousand starts in one
 *  second clash on a draw about once in 30,000; 16 clashes in a row do not happen. */
export const CLAIM_ATTEMPTS = 16;

export function runIdUsed(db: Database, runId: string): boolean {
  const row = db.query("SELECT 1 AS x FROM runs WHERE id = ?1 UNION ALL SELECT 1 AS x FROM events WHERE run_id = ?1 LIMIT 1").get(runId);
  return row !== null;
}

export function claimRunId(db: Database, file: string, makeId: () => string, lock: (runId: string) => RunLock): RunLock {
  let last = "";
  for (let i = 0; i < CLAIM_ATTEMPTS; i++) {
    const id = makeId();
    last = id;
    if (runIdUsed(db, id)) continue;
    let held: RunLock;
    try {
      held = lock(id);
    } catch (e) {
      if (e instanceof ResumeRefusedError) continue; // another start holds this id right now
      throw e;
    }
    if (!runIdUsed(db, id)) return held;
    held.release();
  }
  throw new LedgerError(
    `could not find an unused run id in ${file} after ${CLAIM_ATTEMPTS} tries (last: ${last})`,
    "this should not happen; check that nothing else writes to the ledger",
  );
}
