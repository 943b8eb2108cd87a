// Reading a ledger vouch may not write (runs, show on a read-only folder or
// file). SQLite reads a WAL database read-only when its -wal and -shm exist
// (a live or crashed writer left them); after a clean close they are gone,
// every commit is in ledger.sqlite, and a read-only open that cannot create
// the -shm fails: then the file is read as it is (SQLite's immutable mode).
import { Database, constants } from "bun:sqlite";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { LedgerError } from "../engine/errors.ts";
import { inspect, refuseForeign } from "./migrations.ts";
import { ledgerErrorFrom } from "./sqlite-errors.ts";
import { quickCheck } from "./integrity.ts";
import { waitWhenBusy } from "./busy-wait.ts";

const NO_WRITE_ACCESS = "check the folder's permissions (reading needs read access to the folder and its files)";

function cannotCreateShm(e: unknown): boolean {
  const code = (e as { code?: string })?.code ?? "";
  return code === "SQLITE_READONLY_DIRECTORY" || code.startsWith("SQLITE_CANTOPEN");
}

/** Opens `file` and reads its state; the caller closes what it gets. */
function probe(open: () => Database, file: string, newest: number): Database {
  const db = open();
  try {
    waitWhenBusy(db);
    const state = inspect(db);
    refuseForeign(file, state, newest);
    quickCheck(db, file);
    if (state.kind !== "vouch" || state.version < newest) {
      throw new LedgerError(
        `${file} was written by an older vouch (ledger schema ${state.kind === "vouch" ? state.version : 0}; this vouch reads ${newest}): upgrading it needs write access`,
        "run vouch once where it may write the ledger folder (vouch runs upgrades it), or use the vouch that wrote it",
      );
    }
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

export function openReadOnly(file: string, newest: number): Database {
  const doing = "reading the ledger without write access";
  try {
    return probe(() => new Database(file, { readonly: true, strict: true }), file, newest);
  } catch (e) {
    if (!cannotCreateShm(e)) throw ledgerErrorFrom(e, file, doing);
    if (existsSync(`${file}-wal`)) {
      // Commits may sit in the -wal: reading the file alone would miss them.
      throw new LedgerError(
        `cannot read ${file} without write access while its write-ahead log (${file}-wal) has no -shm beside it`,
        NO_WRITE_ACCESS,
      );
    }
  }
  try {
    const uri = `${pathToFileURL(file).href}?immutable=1`;
    return probe(() => new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI), file, newest);
  } catch (e) {
    throw ledgerErrorFrom(e, file, doing);
  }
}
