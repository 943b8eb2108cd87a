// `vouch resume` reads its run's events once (ADR 0094). Before: the first open after a run
// scanned every event of it (ADR 0088's check), then resume read them all again (runEvents),
// each through zod's parse: two passes and a zod parse per event, ~45 % of its CPU at 8,000
// items (bench/resume-growth.ts). Now the open leaves a run that is read whole to that read,
// and the read knows the common events without zod. The counts are bounded here, not the time.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { eventSchema } from "../../src/engine/events.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { integrityCounters, LedgerCorruptError } from "../../src/ledger/integrity.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
beforeEach(() => (t = tempHome()));
afterEach(() => {
  vi.restoreAllMocks();
  t.cleanup();
});

/** A run of `n` passed map branches, each as a run of `true` items writes it. */
function mapRun(run: string, n: number): RunScript {
  const s = new RunScript(run);
  s.started();
  s.nodeStarted({ node: "each" }, "map");
  for (let index = 0; index < n; index++) {
    const branch = { map: "each", index };
    s.ev("branch.started", { branch, item: `item-${index}`, label: `item-${index}` });
    s.nodeStarted({ node: "work", branch }, "script");
    s.judged({ node: "work", branch }, "script", 1, { status: "passed", cause: null, cost_usd: 0 });
    s.finished({ node: "work", branch }, "passed");
    s.ev("branch.finished", { branch, status: "passed", verdict: null, output: "" });
  }
  return s;
}

function write(...runs: RunScript[]): number {
  const ledger = openLedger({ home: t.home });
  for (const r of runs) ledger.write(r.events);
  ledger.close();
  return runs.reduce((n, r) => n + r.events.length, 0);
}

const parsedSince = (before: number) => integrityCounters.parsed - before;
const marks = () =>
  new Database(ledgerFile(t.home)).query("SELECT key, value FROM meta WHERE key LIKE 'checked:%' ORDER BY key").all() as {
    key: string;
    value: string;
  }[];

test("resume's open leaves its run to the read: each of its events is parsed by one pass, none by zod", () => {
  const other = fullRun("r-other");
  const resumed = mapRun("r-map", 200);
  write(other, resumed);
  const safeParse = vi.spyOn(eventSchema, "safeParse");
  const before = integrityCounters.parsed;
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  // The open scans the other run only (on main: both, 1,000 more bodies parsed).
  expect(parsedSince(before)).toBe(other.events.length);
  // Nothing is written before the run is read: its marks are held back.
  expect(marks()).toEqual([]);
  const events = ledger.runEvents("r-map");
  expect(events.length).toBe(resumed.events.length);
  expect(events).toEqual(resumed.events);
  // run.started's inputs (a record) is zod's to read; every other event is read without it (on main: 1,002 calls).
  expect(safeParse.mock.calls.length).toBeLessThanOrEqual(1);
  ledger.close();
  expect(marks()).toEqual([
    { key: "checked:r-map", value: String(resumed.events.length - 1) },
    { key: "checked:r-other", value: String(other.events.length - 1) },
  ]);
  // The next open (show after the resume) has nothing left to check.
  const again = integrityCounters.parsed;
  openLedger({ home: t.home }).close();
  expect(parsedSince(again)).toBe(0);
});

test("a run the read finds damaged is refused by it, and the open's marks are never written", () => {
  write(fullRun("r-other"), mapRun("r-map", 20));
  const db = new Database(ledgerFile(t.home));
  const trigger = (db.query("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").get() as { sql: string }).sql;
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = 'r-map' AND seq = 7");
  db.run("UPDATE events SET body = x'7b7d' WHERE run_id = 'r-map' AND seq = 9");
  db.run(trigger);
  db.close();
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  let thrown: unknown;
  try {
    ledger.runEvents("r-map");
  } catch (e) {
    thrown = e;
  }
  ledger.close();
  expect(thrown).toBeInstanceOf(LedgerCorruptError);
  expect((thrown as Error).message).toMatch(/event 7 of run r-map is not the JSON vouch wrote/);
  expect(marks()).toEqual([]);
  // Any other open still finds it when it opens, as before.
  expect(() => openLedger({ home: t.home })).toThrow(/event (7|9) of run r-map is not the JSON vouch wrote/);
});

test("a body that is no text is the same damage to the read as to the open", () => {
  write(mapRun("r-map", 5));
  const db = new Database(ledgerFile(t.home));
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = x'7b7d' WHERE run_id = 'r-map' AND seq = 3");
  db.close();
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  expect(() => ledger.runEvents("r-map")).toThrow(LedgerCorruptError);
  expect(() => openLedger({ home: t.home })).toThrow(/event 3 of run r-map is not the JSON vouch wrote/);
  ledger.close();
});

test("damage in another run is still said by the open; an unknown ref defers nothing", () => {
  write(fullRun("r-other"), mapRun("r-map", 5));
  const before = integrityCounters.parsed;
  openLedger({ home: t.home, readsWhole: "no-such-run" }).close();
  expect(parsedSince(before)).toBeGreaterThan(0);
  expect(marks().map((m) => m.key)).toEqual(["checked:r-map", "checked:r-other"]);
});

test("a prefix or `last` names the run read whole", () => {
  write(fullRun("r-other"), mapRun("r-map", 5));
  const before = integrityCounters.parsed;
  const ledger = openLedger({ home: t.home, readsWhole: "last" });
  expect(parsedSince(before)).toBe(fullRun("r-other").events.length);
  ledger.runEvents("r-map");
  ledger.close();
  expect(marks().map((m) => m.key)).toEqual(["checked:r-map", "checked:r-other"]);
});

test("a command that ends before it reads the run (a refusal) has the open's check of it made then", () => {
  write(fullRun("r-other"), mapRun("r-map", 5));
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  expect(marks()).toEqual([]);
  ledger.settleDeferredCheck();
  ledger.settleDeferredCheck(); // once
  ledger.close();
  expect(marks().map((m) => m.key)).toEqual(["checked:r-map", "checked:r-other"]);
  expect(marks()[0]!.value).toBe(String(mapRun("r-map", 5).events.length - 1));
});

test("damage in a run the command did not read is said when it ends, and nothing is written", () => {
  write(fullRun("r-other"), mapRun("r-map", 5));
  const db = new Database(ledgerFile(t.home));
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = 'r-map' AND seq = 4");
  db.close();
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  expect(() => ledger.settleDeferredCheck()).toThrow(LedgerCorruptError);
  ledger.close();
  expect(marks()).toEqual([]);
});

test("no write goes before the skipped run was checked: a write checks it first", () => {
  write(fullRun("r-other"), mapRun("r-map", 5));
  const db = new Database(ledgerFile(t.home));
  db.run("DROP TRIGGER events_no_update");
  db.run("UPDATE events SET body = substr(body, 1, length(body) - 1) WHERE run_id = 'r-map' AND seq = 4");
  db.close();
  const ledger = openLedger({ home: t.home, readsWhole: "r-map" });
  // `last` resolved again later may name a run started meantime: reading that one checks r-map first too.
  expect(() => ledger.runEvents("r-other")).toThrow(LedgerCorruptError);
  expect(() => ledger.write(mapRun("r-new", 1).events)).toThrow(LedgerCorruptError);
  ledger.close();
  const count = new Database(ledgerFile(t.home)).query("SELECT count(*) AS n FROM events WHERE run_id = 'r-new'").get() as { n: number };
  expect(count.n).toBe(0);
  expect(marks()).toEqual([]);
});
