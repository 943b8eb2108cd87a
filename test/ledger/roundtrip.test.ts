// Every event type goes in and comes back verbatim, in seq order; the events
// table refuses updates and deletes; a batch is stored whole or not at all.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "vitest";
import { EVENT_TYPES, type VouchEvent } from "../../src/engine/events.ts";
import { LedgerError } from "../../src/engine/errors.ts";
import { ledgerFile, type RunLedger } from "../../src/ledger/index.ts";
import { withHeader } from "../../src/ledger/stored-text.ts";
import { FRAGMENT_TOKENS, PACKED } from "../../src/ledger/event-fragments.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { eachFreshLedger, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
eachFreshLedger((home, opened) => ((t = home), (ledger = opened)));

describe("append and read back", () => {
  test("the fixture run uses every event type of the union", () => {
    expect(new Set(fullRun().events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
  });

  test("every event type round-trips verbatim, as the same JSON text", () => {
    const run = fullRun();
    ledger.write(run.events);
    const back = ledger.runEvents(run.run);
    expect(back.map((e) => JSON.stringify(e))).toEqual(run.events.map((e) => JSON.stringify(e)));
    const db = new Database(ledgerFile(t.home), { readonly: true });
    const rows = db.query("SELECT seq, type, t, body FROM events WHERE run_id = ? ORDER BY seq").all(run.run) as {
      seq: number;
      type: string;
      t: string;
      body: string;
    }[];
    // Stored without the header its columns hold (schema 6, ADR 0077) and packed (schema 7, ADR
    // 0082): header + unpacked body is the JSON, and every body is shorter than its event's text.
    expect(rows.map((r) => withHeader(r.body, { run: run.run, seq: r.seq, t: r.t, type: r.type }))).toEqual(
      run.events.map((e) => JSON.stringify(e)),
    );
    expect(rows.every((r) => r.body.startsWith(PACKED))).toBe(true);
    expect(rows.every((r, i) => r.body.length < JSON.stringify(run.events[i]).length)).toBe(true);
    expect(ledger.eventsAfter(run.run, -1, 1000).map((s) => s.text)).toEqual(run.events.map((e) => JSON.stringify(e)));
    expect(rows.map((r) => r.type)).toEqual(run.events.map((e) => e.type));
    expect(rows.map((r) => r.t)).toEqual(run.events.map((e) => e.t));
    db.close();
  });

  test("events written in several batches and interleaved with another run come back per run, ordered by seq", () => {
    const a = fullRun("r-a");
    const b = fullRun("r-b");
    const mixed: VouchEvent[] = [];
    for (let i = 0; i < Math.max(a.events.length, b.events.length); i++) {
      if (a.events[i]) mixed.push(a.events[i]!);
      if (b.events[i]) mixed.push(b.events[i]!);
    }
    for (let i = 0; i < mixed.length; i += 5) ledger.write(mixed.slice(i, i + 5));
    expect(ledger.runEvents("r-a")).toEqual(a.events);
    expect(ledger.runEvents("r-b")).toEqual(b.events);
    expect(ledger.lastSeq("r-a")).toBe(a.events.length - 1);
    expect(ledger.lastSeq("r-none")).toBeNull();
  });

  test("a batch with a duplicate seq is refused whole: none of its events is stored", () => {
    const run = fullRun();
    ledger.write(run.events.slice(0, 3));
    const bad = [run.events[3]!, run.events[4]!, run.events[2]!];
    expect(() => ledger.write(bad)).toThrow(LedgerError);
    expect(ledger.runEvents(run.run).map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  test("the events table is append-only: UPDATE and DELETE are refused by the schema", () => {
    ledger.write(fullRun().events);
    const db = new Database(ledgerFile(t.home));
    expect(() => db.run("UPDATE events SET body = '{}' WHERE seq = 0")).toThrow(/append-only/);
    expect(() => db.run("DELETE FROM events")).toThrow(/append-only/);
    db.close();
    expect(ledger.runEvents("r-full-0001")).toHaveLength(fullRun().events.length);
  });

  test("a row altered outside vouch is reported with the run and seq, not returned half-understood", () => {
    ledger.write(fullRun().events);
    const db = new Database(ledgerFile(t.home));
    db.run("DROP TRIGGER events_no_update");
    // `,"status":"passed"` is one token of a packed body (ADR 0082).
    const token = FRAGMENT_TOKENS.find((f) => f.fragment === ',"status":"passed"')!.token;
    db.run(`UPDATE events SET body = replace(body, ?, ',"status":"great"') WHERE seq = 9`, [token]);
    db.close();
    expect(() => ledger.runEvents("r-full-0001")).toThrow(/event 9 of run r-full-0001 is not an event this vouch understands at status/);
  });
});

describe("the projection tables", () => {
  test("env names are recorded from run.started.pass_env (names only, per session)", () => {
    const run = fullRun();
    ledger.write(run.events);
    expect(ledger.runSummary(run.run).pass_env).toEqual(["ANTHROPIC_API_KEY", "GH_TOKEN"]);
    const db = new Database(ledgerFile(t.home), { readonly: true });
    expect(db.query("SELECT name FROM env_names ORDER BY name").all()).toEqual([{ name: "ANTHROPIC_API_KEY" }, { name: "GH_TOKEN" }]);
    db.close();
  });

  test("node_results has one row per node, branch and attempt with the finished facts", () => {
    ledger.write(fullRun().events);
    const db = new Database(ledgerFile(t.home), { readonly: true });
    const rows = db
      .query(
        "SELECT node, map, branch_index, attempt, status, qualifier, cause, cost_usd, turns, json_array_length(checks) AS checks, json_array_length(overruns) AS overruns FROM node_results ORDER BY first_seq",
      )
      .all();
    db.close();
    expect(rows).toEqual([
      {
        node: "build",
        map: "",
        branch_index: -1,
        attempt: 1,
        status: "failed",
        qualifier: null,
        cause: "check_failed",
        cost_usd: null,
        turns: null,
        checks: 1,
        overruns: 0,
      },
      {
        node: "build",
        map: "",
        branch_index: -1,
        attempt: 2,
        status: "passed",
        qualifier: "verified",
        cause: null,
        cost_usd: null,
        turns: null,
        checks: 2,
        overruns: 0,
      },
      {
        node: "review",
        map: "",
        branch_index: -1,
        attempt: 1,
        status: "passed",
        qualifier: "self-reported",
        cause: null,
        cost_usd: 0.05,
        turns: 5,
        checks: 0,
        overruns: 1,
      },
      {
        node: "each",
        map: "",
        branch_index: -1,
        attempt: 1,
        status: "failed",
        qualifier: null,
        cause: "map_failed",
        cost_usd: null,
        turns: null,
        checks: 0,
        overruns: 0,
      },
      {
        node: "verify",
        map: "each",
        branch_index: 0,
        attempt: 1,
        status: "passed",
        qualifier: "verified",
        cause: null,
        cost_usd: 0.01,
        turns: 2,
        checks: 0,
        overruns: 0,
      },
      {
        node: "verify",
        map: "each",
        branch_index: 1,
        attempt: 1,
        status: "failed",
        qualifier: null,
        cause: "check_failed",
        cost_usd: 0.01,
        turns: 2,
        checks: 1,
        overruns: 0,
      },
    ]);
  });

  test("a check that arrives for a node with no node.started still gets a row (nothing the events carried is dropped)", () => {
    const s = new RunScript("r-orphan-check");
    s.started();
    s.check({ node: "build" }, "tests", false);
    ledger.write(s.events);
    const node = ledger.runSummary("r-orphan-check").nodes.find((n) => n.node === "build")!;
    expect(node.attempts[0]!.checks.map((c) => c.name)).toEqual(["tests"]);
  });
});
