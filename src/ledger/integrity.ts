// A damaged ledger is said to be damaged (ADR 0048): SQLite's "database disk
// image is malformed" (SQLITE_CORRUPT), a file that is no database
// (SQLITE_NOTADB), and a stored value vouch wrote that no longer parses all
// become one LedgerCorruptError naming the file and what to do, and a ledger
// found damaged is never written again by this process. On open, SQLite's own
// quick check looks at every page of a ledger small enough for it to be cheap,
// and every stored event is checked once, by the first open after it was written
// (event-check.ts, ADR 0088).
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { LedgerError } from "../engine/errors.ts";
import { type CheckedMarks, checkEvents } from "./event-check.ts";

export { EVENT_JSON_SQL, integrityCounters, writeCheckedMarks, type CheckedMarks } from "./event-check.ts";
const NO_MARKS: CheckedMarks = [];

/** Ledgers up to this size get PRAGMA quick_check on every open (measured: ~20 ms at 22 MiB,
 *  ~45 ms at 67 MiB, ~245 ms at 269 MiB, warm cache; docs/ledger.md). */
export const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/** The ledger file is damaged: nothing more is read from it or written to it (exit 3). */
export class LedgerCorruptError extends LedgerError {
  readonly corrupt = true;
}

/** A value vouch stored that does not read back: the file was changed under it. */
export class StoredValueError extends Error {
  override readonly name = "StoredValueError";
}

export function corruptLedger(file: string, what: string): LedgerCorruptError {
  return new LedgerCorruptError(
    `the ledger ${file} is damaged (${what}): vouch will not read more of it or write to it`,
    `keep a copy, then move it away (vouch starts a new ledger there) or set VOUCH_HOME to another folder; ` +
      `sqlite3 can often save the rest: sqlite3 ${file} .recover | sqlite3 recovered.sqlite`,
  );
}

/** True for the errors SQLite raises on a damaged file, whatever the call that met them. */
export function isCorruption(e: unknown): boolean {
  if (e instanceof StoredValueError) return true;
  const code = (e as { code?: string })?.code ?? "";
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") return true;
  return /malformed|file is not a database/i.test((e as Error)?.message ?? "");
}

/** SQLite's quick check (every page and index entry, not the cross-checks of integrity_check)
 *  when the file is small enough for it to be cheap; throws LedgerCorruptError on a problem.
 *  The events' content is checked from each run's mark on (ADR 0088): what it returns is the
 *  marks to leave (writeCheckedMarks), the last seq of each run it found sound. */
export function quickCheck(db: Database, file: string): CheckedMarks {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return NO_MARKS; // an immutable or vanished file: what reads it next will say
  }
  if (size > QUICK_CHECK_MAX_BYTES) return NO_MARKS;
  const rows = db.query("PRAGMA quick_check(3)").all() as { quick_check: string }[];
  const found = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
  if (found.length > 0) throw corruptLedger(file, `SQLite's quick check: ${oneLineOf(found.join("; "))}`);
  // The pages can be sound and a value in them not: every event vouch stored is JSON it wrote.
  if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() === null) return NO_MARKS; // a new ledger
  // One snapshot: the marks say what this check read, whatever another process appends meanwhile.
  db.run("BEGIN");
  try {
    const { bad, marks } = checkEvents(db);
    if (bad !== null) throw corruptLedger(file, `event ${String(bad.seq)} of run ${String(bad.run_id)} is not the JSON vouch wrote`);
    return marks;
  } finally {
    // SQLite may have ended it itself (an I/O error rolls back): the error that did so is the one to say.
    if (db.inTransaction) db.run("COMMIT");
  }
}

function oneLineOf(text: string): string {
  return text.replace(/\s*\n\s*/g, "; ").slice(0, 300);
}
