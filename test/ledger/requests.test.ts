// The ledger's requests table (ADR 0062): cancels and approvals' decisions other
// processes record, read back by id; the first decision of an instance stands,
// also when several processes record one at the same moment; the rows are
// append-only; a ledger of the previous schema version (3) is migrated, its runs kept.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ledgerFile, openLedger, SCHEMA_VERSION, type RunLedger } from "../../src/ledger/index.ts";
import { MIGRATIONS, migrate } from "../../src/ledger/migrations.ts";
import { fullRun } from "./events-fixture.ts";
import { tempHome, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home });
});
afterEach(() => {
  ledger.close();
  t.cleanup();
});

const by = { user: "alice", host: "box", pid: 7 };
const ask = (decision: "approve" | "reject", over: object = {}) => ({
  node: "gate",
  round: 1,
  decision,
  via: "command" as const,
  by,
  at: "2026-12-01T10:00:00.000Z",
  ...over,
});

describe("requests", () => {
  test("cancels and decisions are read back by id, oldest first, per run", () => {
    const c = ledger.requests.cancel("r1", "command", by, "2026-12-01T10:00:00.000Z");
    ledger.requests.cancel("r2", "mcp", by, "2026-12-01T10:00:01.000Z");
    const d = ledger.requests.decide("r1", ask("approve", { note: "ship it", branch: { map: "each", index: 3 } })).request;
    expect(ledger.requests.after("r1", 0)).toEqual([{ id: c.id, kind: "cancel", via: "command", by, at: "2026-12-01T10:00:00.000Z" }, d]);
    expect(d).toMatchObject({ kind: "decision", node: "gate", branch: { map: "each", index: 3 }, round: 1, note: "ship it" });
    expect(ledger.requests.after("r1", c.id)).toEqual([d]);
    expect(ledger.requests.lastId("r1")).toBe(d.id);
    expect(ledger.requests.lastId("nothing")).toBe(0);
  });

  test("the first decision of an instance stands; another branch or round is another instance", () => {
    expect(ledger.requests.decide("r1", ask("approve")).won).toBe(true);
    const again = ledger.requests.decide("r1", ask("reject", { by: { ...by, user: "bob" } }));
    expect(again.won).toBe(false);
    expect(again.request).toMatchObject({ decision: "approve", by: { user: "alice" } });
    expect(ledger.requests.decide("r1", ask("reject", { round: 2 })).won).toBe(true);
    expect(ledger.requests.decide("r1", ask("reject", { branch: { map: "each", index: 0 } })).won).toBe(true);
    expect(ledger.requests.decide("r2", ask("reject")).won).toBe(true);
    expect(ledger.requests.decisionFor("r1", "gate", undefined, 1)?.decision).toBe("approve");
    expect(ledger.requests.decisionFor("r1", "gate", undefined, 3)).toBeUndefined();
  });

  test("a note is kept to NOTE_MAX characters; hostile names are data", () => {
    const r = ledger.requests.decide("r1", ask("approve", { node: "__proto__", note: "x".repeat(5000) })).request;
    expect(r.node).toBe("__proto__");
    expect(r.note).toHaveLength(2000);
  });

  test("rows are append-only: an update or a delete is refused by the ledger itself", () => {
    ledger.requests.cancel("r1", "command", by, "2026-12-01T10:00:00.000Z");
    const db = new Database(ledgerFile(t.home));
    expect(() => db.run("UPDATE requests SET user = 'mallory'")).toThrow(/append-only/);
    expect(() => db.run("DELETE FROM requests")).toThrow(/append-only/);
    db.close();
  });

  test("a row this vouch does not know (a newer kind) is skipped, not a crash", () => {
    const db = new Database(ledgerFile(t.home));
    db.run("INSERT INTO requests (run_id, kind, via, user, host, pid, at) VALUES ('r1', 'cancel', 'pager', 'u', 'h', 1, 't')");
    db.close();
    expect(ledger.requests.after("r1", 0)).toEqual([]);
  });

  test("eight processes deciding one approval at the same moment: exactly one wins, all agree on it", async () => {
    ledger.close();
    const child = join(import.meta.dirname, "child-decider.ts");
    const procs = Array.from({ length: 8 }, (_, i) =>
      Bun.spawn([process.execPath, child, t.home, "r1", i % 2 ? "approve" : "reject"], { stdin: "pipe", stdout: "pipe", stderr: "pipe" }),
    );
    const readers = procs.map((p) => p.stdout.getReader());
    const dec = new TextDecoder();
    // Every child has opened the ledger before any is told to go.
    await Promise.all(readers.map(async (r) => expect(dec.decode((await r.read()).value)).toBe("ready\n")));
    for (const p of procs) {
      p.stdin.write("go\n");
      p.stdin.end();
    }
    const lines = await Promise.all(
      readers.map(async (r) => {
        let s = "";
        for (;;) {
          const { value, done } = await r.read();
          if (done) return s.trim();
          s += dec.decode(value);
        }
      }),
    );
    await Promise.all(procs.map((p) => p.exited));
    expect(lines.filter((l) => l.startsWith("won"))).toHaveLength(1);
    const standing = new Set(lines.map((l) => l.split(" ").slice(1).join(" ")));
    expect(standing.size).toBe(1); // every loser was told the winner's id and decision
    ledger = openLedger({ home: t.home });
    expect(ledger.requests.after("r1", 0)).toHaveLength(1);
  });
});

describe("migration 4 → 5", () => {
  test("a ledger of schema 4 with runs gains the requests table; its runs read back unchanged", () => {
    ledger.close();
    const home = join(t.home, "old");
    mkdirSync(dirname(ledgerFile(home)), { recursive: true });
    const raw = new Database(ledgerFile(home), { create: true });
    raw.run("PRAGMA journal_mode = WAL");
    migrate(raw, MIGRATIONS.slice(0, 4));
    raw.close();
    // Version 4 written by the vouch before this one (its migrations only).
    const v3 = openLedger({ home, migrations: MIGRATIONS.slice(0, 4) });
    const run = fullRun();
    v3.write(run.events);
    v3.close();
    const db0 = new Database(ledgerFile(home), { readonly: true });
    expect(db0.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'requests'").get()).toEqual({ n: 0 });
    db0.close();

    ledger = openLedger({ home });
    expect(SCHEMA_VERSION).toBe(7);
    expect(ledger.runEvents("r-full-0001")).toEqual(run.events);
    expect(ledger.requests.after("r-full-0001", 0)).toEqual([]);
    ledger.requests.cancel("r-full-0001", "command", by, "2026-12-01T10:00:00.000Z");
    expect(ledger.runSummary("r-full-0001").requests).toHaveLength(1);
    const db = new Database(ledgerFile(home), { readonly: true });
    expect(db.query("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: "7" });
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
  });
});
