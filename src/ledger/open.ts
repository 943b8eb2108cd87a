// Opening the ledger: <home>/ledger.sqlite, WAL, migrated to this vouch's
// schema. A foreign, corrupt or newer file is refused with a LedgerError that
// names it; nothing is written to a file before it is known to be a ledger.
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { LedgerError } from "../engine/errors.ts";
import { ledgerFile } from "./home.ts";
import { APPLICATION_ID, inspect, migrate, MIGRATIONS, type Migration } from "./migrations.ts";
import { guarded } from "./sqlite-errors.ts";
import { SqliteRunLedger, type RunLedger } from "./ledger.ts";

export interface OpenOptions {
  /** VOUCH_HOME, or <cwd>/.vouch: see ledgerHome(). */
  home: string;
  /** Clock for the wall time of live runs (tests). */
  now?: () => number;
  /** The migration list (tests of upgrades); default: this vouch's. */
  migrations?: readonly Migration[];
}

/** How long a writer waits for another process's write transaction. */
export const BUSY_TIMEOUT_MS = 5000;

export function ledgerExists(home: string): boolean {
  return existsSync(ledgerFile(home));
}

export function openLedger(opts: OpenOptions): RunLedger {
  const file = ledgerFile(opts.home);
  const migrations = opts.migrations ?? MIGRATIONS;
  const newest = migrations[migrations.length - 1]!.version;
  const db = guarded(file, "opening the ledger", () => {
    mkdirSync(opts.home, { recursive: true });
    return new Database(file, { create: true, readwrite: true, strict: true });
  });
  try {
    guarded(file, "opening the ledger", () => {
      db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      const state = inspect(db);
      if (state.kind === "foreign") {
        throw new LedgerError(
          `${file} is not a vouch ledger: it is a SQLite database without vouch's marker`,
          "move the file away or set VOUCH_HOME to another folder; vouch will not write into it",
        );
      }
      if (state.kind === "vouch" && state.version > newest) {
        throw new LedgerError(
          `${file} has ledger schema version ${state.version}, newer than this vouch reads (version ${newest})`,
          "use the newer vouch that wrote it, or set VOUCH_HOME to another folder",
        );
      }
      // WAL: readers never block the writer, and a kill -9 loses no committed
      // transaction. synchronous=NORMAL: commits survive a crash of the process
      // (not a power cut), without an fsync per commit (ADR 0008).
      db.run("PRAGMA journal_mode = WAL");
      db.run("PRAGMA synchronous = NORMAL");
      migrate(db, migrations);
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
