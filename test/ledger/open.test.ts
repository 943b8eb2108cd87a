// Opening the ledger: creation and migrations, reopening, and every way a
// file can be wrong (newer, foreign, corrupt) giving a LedgerError that names it.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { LedgerError } from "../../src/engine/errors.ts";
import { ledgerFile, ledgerHome, openLedger, SCHEMA_VERSION } from "../../src/ledger/index.ts";
import { APPLICATION_ID, MIGRATIONS, migrate } from "../../src/ledger/migrations.ts";
import { fullRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("ledgerHome", () => {
  test("defaults to <cwd>/.vouch, VOUCH_HOME moves it, a relative VOUCH_HOME is taken from cwd", () => {
    expect(ledgerHome({}, "/work/p")).toBe("/work/p/.vouch");
    expect(ledgerHome({ VOUCH_HOME: "/var/v" }, "/work/p")).toBe("/var/v");
    expect(ledgerHome({ VOUCH_HOME: "state/v" }, "/work/p")).toBe("/work/p/state/v");
    expect(ledgerHome({ VOUCH_HOME: "  " }, "/work/p")).toBe("/work/p/.vouch");
  });
});

describe("a new ledger", () => {
  test("creates the folder and the file, in WAL mode, at the latest schema version with the marker", () => {
    const ledger = openLedger({ home: t.home });
    ledger.close();
    const file = ledgerFile(t.home);
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    expect(db.query("PRAGMA application_id").get()).toEqual({ application_id: APPLICATION_ID });
    const meta = Object.fromEntries(
      (db.query("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
    expect(meta).toEqual({ application: "vouch-ledger", schema_version: String(SCHEMA_VERSION) });
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(tables).toEqual([
      "blobs",
      "branches",
      "check_runs",
      "env_names",
      "events",
      "meta",
      "node_results",
      "requests",
      "runs",
      "sessions",
      "sittings",
    ]);
    db.close();
  });

  test("a zero-byte file (e.g. touched by hand) becomes a ledger", () => {
    const { mkdirSync } = require("node:fs") as typeof import("node:fs");
    mkdirSync(t.home, { recursive: true });
    writeFileSync(ledgerFile(t.home), "");
    const ledger = openLedger({ home: t.home });
    expect(ledger.listRuns()).toEqual([]);
    ledger.close();
  });

  test("reopening keeps what was written and does not migrate again", () => {
    const run = fullRun();
    const first = openLedger({ home: t.home });
    first.write(run.events);
    first.close();
    const second = openLedger({ home: t.home });
    expect(second.runEvents("r-full-0001")).toEqual(run.events);
    expect(second.listRuns().map((r) => r.id)).toEqual(["r-full-0001"]);
    second.close();
  });

  test("an older ledger is migrated forward, keeping its data", () => {
    const current = openLedger({ home: t.home });
    current.write(fullRun().events);
    current.close();
    const next = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, sql: "ALTER TABLE runs ADD COLUMN note TEXT" }];
    const upgraded = openLedger({ home: t.home, migrations: next });
    expect(upgraded.runEvents("r-full-0001")).toHaveLength(fullRun().events.length);
    upgraded.close();
    const db = new Database(ledgerFile(t.home), { readonly: true });
    expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION + 1) });
    expect(db.query("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = 'note'").get()).toEqual({ n: 1 });
    db.close();
  });

  test("version 1 → 2: node results gain a feedback round (1 for what was there), every row kept", () => {
    // A ledger as vouch 0.1 with schema 1 left it (this vouch's writer needs version 2 to open).
    mkdirSync(dirname(ledgerFile(t.home)), { recursive: true });
    const raw = new Database(ledgerFile(t.home), { create: true });
    migrate(raw, MIGRATIONS.slice(0, 1));
    raw.run(
      "INSERT INTO node_results (run_id, session, node, map, branch_index, attempt, status, cost_usd, first_seq) VALUES ('r1', 1, 'a', '', -1, 1, 'failed', 0.5, 3)",
    );
    raw.run(
      "INSERT INTO node_results (run_id, session, node, map, branch_index, attempt, status, cost_usd, first_seq) VALUES ('r1', 1, 'a', '', -1, 2, 'passed', 0.25, 9)",
    );
    raw.close();
    openLedger({ home: t.home }).close();
    const db = new Database(ledgerFile(t.home), { readonly: true });
    expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    expect(db.query("SELECT round, attempt, status, cost_usd FROM node_results ORDER BY attempt").all()).toEqual([
      { round: 1, attempt: 1, status: "failed", cost_usd: 0.5 },
      { round: 1, attempt: 2, status: "passed", cost_usd: 0.25 },
    ]);
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
  });
});

describe("a ledger this vouch must not use", () => {
  test("a newer schema version is refused, naming both versions and the file", () => {
    openLedger({ home: t.home }).close();
    const db = new Database(ledgerFile(t.home));
    db.run("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    db.close();
    const e = thrown(() => openLedger({ home: t.home }));
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toContain(ledgerFile(t.home));
    expect(e.message).toContain("version 99");
    expect(e.message).toContain(`version ${SCHEMA_VERSION})`);
  });

  test("a foreign SQLite database is recognised and left untouched", () => {
    const { mkdirSync } = require("node:fs") as typeof import("node:fs");
    mkdirSync(t.home, { recursive: true });
    const db = new Database(ledgerFile(t.home), { create: true });
    db.run("CREATE TABLE users (name TEXT)");
    db.close();
    const before = readFileSync(ledgerFile(t.home));
    const e = thrown(() => openLedger({ home: t.home }));
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toBe(`${ledgerFile(t.home)} is not a vouch ledger: it is a SQLite database without vouch's marker`);
    expect(readFileSync(ledgerFile(t.home)).equals(before)).toBe(true);
    expect(existsSync(`${ledgerFile(t.home)}-wal`)).toBe(false);
  });

  test("a file of garbage is a LedgerError naming the file, not a crash", () => {
    const { mkdirSync } = require("node:fs") as typeof import("node:fs");
    mkdirSync(t.home, { recursive: true });
    writeFileSync(ledgerFile(t.home), "this is not a database\n".repeat(500));
    const e = thrown(() => openLedger({ home: t.home }));
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toContain(`${ledgerFile(t.home)} is not a vouch ledger`);
    expect((e as LedgerError).hint).toMatch(/VOUCH_HOME/);
  });

  test("a ledger whose pages were overwritten with garbage is reported corrupt, naming the file", () => {
    const ledger = openLedger({ home: t.home });
    for (let i = 0; i < 20; i++) ledger.write(fullRun(`r-${i}`).events);
    ledger.close();
    const file = ledgerFile(t.home);
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(8192);
    // Keep page 1 (header and schema), garble everything after it.
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    const e = thrown(() => {
      const again = openLedger({ home: t.home });
      try {
        again.listRuns();
        again.runSummary("r-3");
      } finally {
        again.close();
      }
    });
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toContain(file);
    expect(e.message).toMatch(/damaged|not a vouch ledger/);
  });

  test("a home that cannot be a folder gives a LedgerError naming the path", () => {
    const parent = join(t.home, "..", "blocker");
    writeFileSync(parent, "a file, not a folder");
    const e = thrown(() => openLedger({ home: join(parent, ".vouch") }));
    expect(e).toBeInstanceOf(LedgerError);
    expect(e.message).toContain(join(parent, ".vouch", "ledger.sqlite"));
    expect(statSync(parent).isFile()).toBe(true);
  });
});
