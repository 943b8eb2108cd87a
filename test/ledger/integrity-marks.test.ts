// The open-time content check (ADR 0048) reads each event once, not once per command (ADR 0088):
// an open that found a run's events sound leaves a mark (meta `checked:<run>` = the last seq it
// checked), and later opens check only what came after. Found by measuring: `vouch runs` on a
// ledger holding one 10,000-item map (50,004 events, 10 MB) took 0.5 s against 0.04 s on an
// empty one, ~320 ms of it this check, paid again by every command until the file passed 64 MiB.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ledgerFile, openLedger, openLedgerForReading } from "../../src/ledger/index.ts";
import { integrityCounters, LedgerCorruptError } from "../../src/ledger/integrity.ts";
import { fullRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => t.cleanup());

/** Event bodies the check parsed while `fn` ran. */
function parsedDuring(fn: () => void): number {
  const before = integrityCounters.parsed;
  fn();
  return integrityCounters.parsed - before;
}

const reopen = () => openLedger({ home: t.home }).close();

function writeRuns(ids: string[]): number {
  const ledger = openLedger({ home: t.home });
  let n = 0;
  for (const id of ids) {
    const events = fullRun(id).events;
    n += events.length;
    ledger.write(events);
  }
  ledger.close();
  return n;
}

test("each event is checked by one open: a second open parses none, a later one only the new run's", () => {
  const first = writeRuns(["r-0", "r-1", "r-2"]);
  expect(first).toBeGreaterThan(20);
  expect(parsedDuring(reopen)).toBeGreaterThanOrEqual(first);
  // On main every open parsed every event again.
  expect(parsedDuring(reopen)).toBe(0);
  expect(parsedDuring(() => openLedgerForReading({ home: t.home }).close())).toBe(0);
  // writeRuns' own open checks nothing new; the open after it checks r-3's events only.
  const more = parsedDuring(() => writeRuns(["r-3"]));
  expect(more).toBe(0);
  const added = fullRun("r-3").events.length;
  expect(parsedDuring(reopen)).toBe(added);
  expect(parsedDuring(reopen)).toBe(0);
});

test("a run that grows after its mark (a resume) has only its new events checked", () => {
  writeRuns(["r-0"]);
  reopen();
  const ledger = openLedger({ home: t.home });
  const tail = fullRun("r-0").events.slice(0, 3);
  const last = (new Database(ledgerFile(t.home)).query("SELECT max(seq) AS m FROM events").get() as { m: number }).m;
  ledger.write(tail.map((e, i) => ({ ...e, seq: last + 1 + i })));
  ledger.close();
  expect(parsedDuring(reopen)).toBe(3);
});

test("an event written after the last open is checked: damage in it is found when the ledger opens", () => {
  writeRuns(["r-0", "r-1"]);
  reopen();
  writeRuns(["r-new"]);
  const db = new Database(ledgerFile(t.home));
  const trigger = (db.query("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").get() as { sql: string }).sql;
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = 'r-new' AND seq = 2");
  db.run(trigger);
  db.close();
  let thrown: unknown;
  try {
    reopen();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(LedgerCorruptError);
  expect((thrown as Error).message).toMatch(/event 2 of run r-new is not the JSON vouch wrote/);
});

test("a mark is a number a crafted ledger may fake, never more: a text, a negative or a huge mark breaks no open", () => {
  writeRuns(["r-0"]);
  const db = new Database(ledgerFile(t.home));
  db.run("INSERT INTO meta (key, value) VALUES ('checked:r-0', 'not a number'), ('checked:__proto__', '-5'), ('checked:', '1e999')");
  db.close();
  expect(parsedDuring(reopen)).toBeGreaterThan(0);
  expect(parsedDuring(reopen)).toBe(0);
});

test("crafted keys are still checked: a broken body under an integer run id, a text seq or a negative seq is found", () => {
  for (const [run, seq] of [
    [7, 1],
    ["r-text", "x"],
    ["r-neg", -5],
  ] as const) {
    const home = tempHome();
    try {
      const ledger = openLedger({ home: home.home });
      ledger.write(fullRun("r-0").events);
      ledger.close();
      openLedger({ home: home.home }).close(); // r-0 marked
      const db = new Database(ledgerFile(home.home));
      db.run("INSERT INTO events (run_id, seq, session, type, t, body) VALUES (?, ?, 0, 'x', 't', '{not json')", [run, seq]);
      db.close();
      expect(() => openLedger({ home: home.home }).close()).toThrow(LedgerCorruptError);
    } finally {
      home.cleanup();
    }
  }
});
