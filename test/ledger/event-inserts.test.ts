// Statements per map item (issue 29 item 2, ADR 0075): a map item's four events — its
// branch's start and end, its node's — committed in one batch are one INSERT into the
// events table, not four. Counted on a real migrated ledger; the rows read back verbatim.
import { Database, type Statement } from "bun:sqlite";
import { afterEach, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { EventWriter } from "../../src/ledger/event-writer.ts";
import { ledgerFile, openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

const homes: ReturnType<typeof tempHome>[] = [];
afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

/** A real, migrated ledger's database, seen through a proxy that counts the runs of INSERTs into events. */
function countedDatabase(): { db: Database; real: Database; eventInserts: () => number } {
  const home = tempHome();
  homes.push(home);
  openLedger({ home: home.home }).close();
  const real = new Database(ledgerFile(home.home));
  let runs = 0;
  const wrap = (statement: Statement, sql: string): Statement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === "run" && /^\s*INSERT INTO events\b/.test(sql))
          return (...args: unknown[]) => {
            runs++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const db = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === "query" || prop === "prepare") return (sql: string) => wrap(target.query(sql), sql);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, real, eventInserts: () => runs };
}

/** One map item's four events, as one turn of a map of `true` scripts emits them. */
function item(s: RunScript, index: number): VouchEvent[] {
  const from = s.events.length;
  const branch = { map: "each", index };
  s.ev("branch.started", { branch, item: `item-${index}`, label: `item-${index}` });
  s.nodeStarted({ node: "verify", branch }, "script");
  s.finished({ node: "verify", branch }, "passed", { stop_reason: null, output: { exit: 0 } });
  s.ev("branch.finished", { branch, status: "passed", verdict: null, output: { exit: 0 } });
  return s.events.slice(from);
}

test("a map item's four events in one batch are one INSERT into events (before: four); a batch of 40 is three", () => {
  const { db, real, eventInserts } = countedDatabase();
  const writer = new EventWriter(db);
  const s = new RunScript("r-inserts-0001");
  writer.write([s.started()]);
  const before = eventInserts();
  const items = 50;
  for (let i = 0; i < items; i++) writer.write(item(s, i));
  expect(eventInserts() - before).toBe(items);
  const batch: VouchEvent[] = [];
  for (let i = items; i < items + 10; i++) batch.push(...item(s, i));
  const beforeBatch = eventInserts();
  writer.write(batch);
  expect(eventInserts() - beforeBatch).toBe(Math.ceil(40 / 16));
  // Every event stored once, verbatim, in order.
  const rows = real.query("SELECT seq, type, body FROM events WHERE run_id = ? ORDER BY seq").all(s.run) as {
    seq: number;
    type: string;
    body: string;
  }[];
  expect(rows.map((r) => r.seq)).toEqual(s.events.map((e) => e.seq));
  expect(rows.map((r) => JSON.parse(r.body))).toEqual(s.events.map((e) => JSON.parse(JSON.stringify(e))));
  const branches = real.query("SELECT count(*) AS n FROM branches WHERE run_id = ? AND status = 'passed'").get(s.run) as { n: number };
  expect(branches.n).toBe(items + 10);
  real.close();
});
