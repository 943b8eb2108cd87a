// Review r49 of ADR 0088: a `checked:<run>` mark above what its run holds hides events that
// are written after it, not only the run's older ones (docs/LIMITATIONS.md said "older").
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { LedgerCorruptError } from "../../src/ledger/integrity.ts";
import { fullRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

function breakEvent(run: string, seq: number): void {
  const db = new Database(ledgerFile(t.home));
  const trigger = (db.query("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").get() as { sql: string }).sql;
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = ? AND seq = ?", [run, seq]);
  db.run(trigger);
  db.close();
}

test("a mark planted above a run's last seq does not hide the events written after it", () => {
  openLedger({ home: t.home }).close();
  const db = new Database(ledgerFile(t.home));
  db.run("INSERT INTO meta (key, value) VALUES ('checked:r-later', '9000000000000000000')");
  db.close();
  const ledger = openLedger({ home: t.home });
  ledger.write(fullRun("r-later").events);
  ledger.close();
  breakEvent("r-later", 2);
  expect(() => openLedger({ home: t.home }).close()).toThrow(LedgerCorruptError);
});

test("a meta table without a key to conflict on (a crafted file) still opens: the marks are only saved work", () => {
  const ledger = openLedger({ home: t.home });
  ledger.write(fullRun("r-0").events);
  ledger.close();
  const db = new Database(ledgerFile(t.home));
  db.run("CREATE TABLE meta2 (key TEXT NOT NULL, value TEXT NOT NULL)");
  db.run("INSERT INTO meta2 SELECT key, value FROM meta");
  db.run("DROP TABLE meta");
  db.run("ALTER TABLE meta2 RENAME TO meta");
  db.close();
  // Before ADR 0088 this open wrote nothing to meta and succeeded; the marks' upsert must not break it.
  expect(() => openLedger({ home: t.home }).close()).not.toThrow();
});

// KNOWN GAP (review r49, not fixed): an event a crafted file puts *below* a run's mark (a negative
// seq, or into a gap) is not scanned at open; integrity-marks.test.ts's "a negative seq is found"
// holds for a run without a mark only. Readers still refuse it when they read it. `test.fails`:
// this passes while the gap exists and fails (to be turned into a plain test) once it is closed.
test.fails("a broken event inserted below a marked run's mark is found at open", () => {
  const ledger = openLedger({ home: t.home });
  ledger.write(fullRun("r-0").events);
  ledger.close();
  openLedger({ home: t.home }).close(); // r-0 marked
  const db = new Database(ledgerFile(t.home));
  db.run("INSERT INTO events (run_id, seq, session, type, t, body) VALUES ('r-0', -5, 0, 'x', 't', '{not json')");
  db.close();
  expect(() => openLedger({ home: t.home }).close()).toThrow(LedgerCorruptError);
});
