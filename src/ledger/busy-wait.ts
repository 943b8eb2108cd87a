// How long any ledger connection waits for a lock another process holds: a
// writer's commit, or the last writer's close (it checkpoints under an exclusive
// lock). Writers and readers alike: a reader that failed at once would end
// `vouch watch` with an error on a run that is going well.
import type { Database } from "bun:sqlite";

export const BUSY_TIMEOUT_MS = 5000;

/** Sets the wait on `db`; call first, before anything reads. */
export function waitWhenBusy(db: Database): void {
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
}
