// Review r49 of ADR 0088: a `checked:<run>` mark above what its run holds hides events that
// are written after it, not only the run's older ones (docs/LIMITATIONS.md said "older").
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { LedgerCorruptError, writeCheckedMarks } from "../../src/ledger/integrity.ts";
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

// Review r49: a reader's open waited the whole busy timeout (5 s, measured 5,040-5,072 ms against
// 15-21 ms at 2973dc8^, scratch script /tmp/r49-busy.ts) behind another connection's write
// transaction, for marks that only save work. The wait itself is time and not asserted here; this
// holds what the fix must keep: no mark while the lock is held, the timeout back after, and the
// mark written once the lock is free.
test("marks are not written while another connection holds the write lock, and the wait is restored after", () => {
  const ledger = openLedger({ home: t.home });
  ledger.write(fullRun("r-0").events);
  ledger.close();
  const holder = new Database(ledgerFile(t.home));
  const db = new Database(ledgerFile(t.home));
  try {
    db.run("PRAGMA busy_timeout = 5000");
    holder.run("BEGIN IMMEDIATE");
    writeCheckedMarks(db, [["r-0", 3]]);
    holder.run("COMMIT");
    const mark = () => db.query("SELECT value FROM meta WHERE key = 'checked:r-0'").get() as { value: string } | null;
    expect(mark()).toBeNull();
    expect((db.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBe(5000);
    writeCheckedMarks(db, [["r-0", 3]]);
    expect(mark()?.value).toBe("3");
  } finally {
    holder.close();
    db.close();
  }
});
