// Damage is said before anything is written (docs/ledger.md), for every command's open: a
// review of ADR 0094 proved its deferred check broke both (a blob spliced into a valid event
// passed resume's read and was then hidden by a mark; the open set the journal mode and the
// application id of a damaged file first). The deferral was taken back; these guard it.
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { LedgerCorruptError } from "../../src/ledger/integrity.ts";
import { fullRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

function tamper(sql: (db: Database) => void): void {
  const w = openLedger({ home: t.home });
  w.write(fullRun("r").events);
  w.close();
  const db = new Database(ledgerFile(t.home));
  const trigger = (db.query("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").get() as { sql: string }).sql;
  db.run("DROP TRIGGER events_no_update");
  sql(db);
  db.run(trigger);
  db.close();
}

test("a blob that is no JSON on its own, spliced into a valid event, is refused by the open, and stays refused", () => {
  const blob = '1,"b":2';
  const digest = createHash("sha256").update(blob).digest("hex");
  tamper((db) => {
    db.run("INSERT INTO blobs (digest, body) VALUES (?, ?)", [digest, blob]);
    db.run(
      `UPDATE events SET body = replace(body, '"inputs":{', '"inputs":{"a":' || char(1) || ? || char(2) || ',') WHERE run_id = 'r' AND type = 'run.started'`,
      [digest],
    );
  });
  // The open's scan: damage (blob ${digest} does not parse alone).
  expect(() => openLedger({ home: t.home })).toThrow(/event 0 of run r is not the JSON vouch wrote/);
  // …and no mark that would hide event 0 from every later open.
  expect(() => openLedger({ home: t.home })).toThrow(LedgerCorruptError);
});

test("the open writes nothing to a file whose run is damaged (journal mode, application id)", () => {
  tamper((db) => {
    db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = 'r' AND seq = 2");
    db.run("PRAGMA application_id = 0");
  });
  const db = new Database(ledgerFile(t.home));
  db.run("PRAGMA journal_mode = DELETE");
  db.close();
  const before = readFileSync(ledgerFile(t.home));
  expect(() => openLedger({ home: t.home })).toThrow(LedgerCorruptError);
  expect(readFileSync(ledgerFile(t.home)).equals(before)).toBe(true);
});
