// Opening the ledger: <home>/ledger.sqlite, WAL, migrated to this vouch's
// schema. A foreign, corrupt or newer file is refused with a LedgerError that
// names it; nothing is written to a file before it is known to be a ledger.
// Writers (run, resume) make the files private first (permissions.ts); readers
// (runs, show) need no write access (open-readonly.ts).
import { Database } from "bun:sqlite";
import { accessSync, constants, existsSync } from "node:fs";
import { ledgerFile } from "./home.ts";
import { APPLICATION_ID, inspect, migrate, MIGRATIONS, refuseForeign, type Migration } from "./migrations.ts";
import { openReadOnly } from "./open-readonly.ts";
import { waitWhenBusy } from "./busy-wait.ts";
import { createPrivateLedger, tightenLedger } from "./permissions.ts";
import { guarded } from "./sqlite-errors.ts";
import { quickCheck, writeCheckedMarks } from "./integrity.ts";
import { SqliteRunLedger, type RunLedger } from "./ledger.ts";

export interface OpenOptions {
  /** VOUCH_HOME, or <cwd>/.vouch: see ledgerHome(). */
  home: string;
  /** Clock for the wall time of live runs (tests). */
  now?: () => number;
  /** The migration list (tests of upgrades); default: this vouch's. */
  migrations?: readonly Migration[];
  /** Told (one line) when an older, looser ledger's permissions were tightened. */
  onNotice?: (line: string) => void;
}

export function ledgerExists(home: string): boolean {
  return existsSync(ledgerFile(home));
}

/** The ledger for writing (run, resume): created private when missing, migrated. */
export function openLedger(opts: OpenOptions): RunLedger {
  const file = ledgerFile(opts.home);
  guarded(file, "opening the ledger", () => createPrivateLedger(opts.home, file));
  const ledger = openExisting(opts, true);
  let tightened: string[];
  try {
    // After the open: a file it refused (another program's) keeps its permissions.
    tightened = guarded(file, "opening the ledger", () => tightenLedger(opts.home, file));
  } catch (e) {
    ledger.close();
    throw e;
  }
  if (tightened.length > 0) {
    opts.onNotice?.(`vouch: tightened the ledger's permissions (it holds inputs, outputs and model answers): ${tightened.join(", ")}\n`);
  }
  return ledger;
}

function openExisting(opts: OpenOptions, create: boolean): RunLedger {
  const file = ledgerFile(opts.home);
  const migrations = opts.migrations ?? MIGRATIONS;
  const newest = migrations[migrations.length - 1]!.version;
  const db = guarded(file, "opening the ledger", () => new Database(file, { create, readwrite: true, strict: true }));
  try {
    guarded(file, "opening the ledger", () => {
      waitWhenBusy(db);
      refuseForeign(file, inspect(db), newest);
      // Before anything is written: a damaged file is said to be one, and left as it is (ADR 0048).
      const checked = quickCheck(db, file);
      // WAL: readers never block the writer, and a kill -9 loses no committed
      // transaction. synchronous=NORMAL: commits survive a crash of the process
      // (not a power cut), without an fsync per commit (ADR 0008).
      db.run("PRAGMA journal_mode = WAL");
      db.run("PRAGMA synchronous = NORMAL");
      migrate(db, migrations);
      // The next open checks only what comes after (ADR 0088).
      writeCheckedMarks(db, checked);
      if ((db.query("PRAGMA application_id").get() as { application_id: number }).application_id !== APPLICATION_ID) {
        db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
      }
    });
    return new SqliteRunLedger(db, opts.home, file, opts.now ?? Date.now);
  } catch (e) {
    db.close();
    throw e;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The ledger for reading (runs, show), which must exist. Where vouch may write
 *  the folder and the file it opens as a writer would (no permission is changed;
 *  its last close folds the -wal in), else read-only: reading needs no write access. */
export function openLedgerForReading(opts: OpenOptions): RunLedger {
  const file = ledgerFile(opts.home);
  if (writable(opts.home) && writable(file)) return openExisting(opts, false);
  const migrations = opts.migrations ?? MIGRATIONS;
  const db = openReadOnly(file, migrations[migrations.length - 1]!.version);
  return new SqliteRunLedger(db, opts.home, file, opts.now ?? Date.now);
}

/** The ledger strictly read-only (`vouch watch`, ADR 0063): whatever the folder's permissions,
 *  nothing is written — no migration, no checkpoint at close — and no write lock is taken, so
 *  following a run never slows the process recording it. */
export function openLedgerReadOnly(opts: OpenOptions): RunLedger {
  const file = ledgerFile(opts.home);
  const migrations = opts.migrations ?? MIGRATIONS;
  const db = openReadOnly(file, migrations[migrations.length - 1]!.version);
  return new SqliteRunLedger(db, opts.home, file, opts.now ?? Date.now);
}
