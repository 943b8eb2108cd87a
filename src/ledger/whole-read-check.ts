// The open-time content check (ADR 0048, 0088) left to the one read that reads a run whole
// before anything is written (ADR 0094). `vouch resume` reads every event of its run back
// (runEvents: each body unpacked, every blob it names fetched and hashed, the whole parsed
// and read as an event), which finds all the open's scan finds in that run, and more. The
// first open after a run scanned that run too: two passes over its events per resume, ~20 %
// of its CPU at 8,000 items. So the open skips that run, holds its marks back, and the read
// leaves them, its run's too, once it found the run sound: nothing is written to a file
// before every event in it was checked once, as before.
import type { Database } from "bun:sqlite";
import { UsageError } from "../engine/errors.ts";
import type { VouchEvent } from "../engine/events.ts";
import { type CheckedMarks, checkRun, writeCheckedMarks } from "./event-check.ts";
import { corruptLedger } from "./integrity.ts";
import { resolveRun } from "./resolve-run.ts";

/** A run the open did not scan, and the marks it held back until that run is read. */
export interface DeferredCheck {
  runId: string;
  marks: CheckedMarks;
}

/** The run `ref` names, when one does; else undefined, and the open scans everything. */
export function runReadWhole(db: Database, ref: string, file: string): string | undefined {
  try {
    return resolveRun(db, ref, file);
  } catch (e) {
    if (e instanceof UsageError) return undefined; // no such run: the command says so after the open
    throw e;
  }
}

/** After the read of the deferred run found it sound: the marks the open held back, and the run's
 *  own (its last seq read: one statement, one snapshot, as the open's check reads). */
export function leaveDeferredMarks(db: Database, deferred: DeferredCheck, events: readonly VouchEvent[]): void {
  const last = events[events.length - 1]?.seq;
  const own: CheckedMarks = last !== undefined && Number.isSafeInteger(last) ? [[deferred.runId, last]] : [];
  writeCheckedMarks(db, [...deferred.marks, ...own]);
}

/** The command ends before it read the run (a refusal, a graph file gone): the open's check of
 *  that run is made now, so damage is said first, as the open said it; sound, the marks are left. */
export function settleDeferredCheck(db: Database, deferred: DeferredCheck, file: string): void {
  db.run("BEGIN");
  let found: ReturnType<typeof checkRun>;
  try {
    found = checkRun(db, deferred.runId);
  } finally {
    if (db.inTransaction) db.run("COMMIT");
  }
  const { bad, last } = found;
  if (bad !== null) throw corruptLedger(file, `event ${String(bad.seq)} of run ${String(bad.run_id)} is not the JSON vouch wrote`);
  const own: CheckedMarks = typeof last === "number" && Number.isSafeInteger(last) ? [[deferred.runId, last]] : [];
  writeCheckedMarks(db, [...deferred.marks, ...own]);
}
