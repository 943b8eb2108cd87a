// The sink between the engine and its consumers: an event is forwarded only
// after the transaction holding it committed; bursts are batched.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { LedgerError } from "../../src/engine/errors.ts";
import { batchingSink, directSink, ledgerFile, type RunLedger } from "../../src/ledger/index.ts";
import { DEFAULT_MAX_DELAY_MS } from "../../src/ledger/sink.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { eachFreshLedger, type TempHome } from "./temp-home.ts";

let t: TempHome;
let ledger: RunLedger;
eachFreshLedger((home, opened) => ((t = home), (ledger = opened)));

// The sink's batching timer runs on vitest's fake clock: a test moves time
// itself instead of sleeping and hoping the timer has fired.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});
/** Moves the fake clock to the moment the sink's default timer fires. */
const timerFires = () => vi.advanceTimersByTime(DEFAULT_MAX_DELAY_MS);

function progressBurst(s: RunScript, n: number): VouchEvent[] {
  return Array.from({ length: n }, (_, i) => s.ev("node.progress", { node: "review", attempt: 1, turns: i, cost_usd: i / 1000 }, 1));
}

describe("ledger.sink", () => {
  test("every event is readable by another connection at the moment a consumer sees it", () => {
    const reader = new Database(ledgerFile(t.home), { readonly: true });
    const stored = reader.query("SELECT count(*) AS n FROM events WHERE run_id = ? AND seq = ?");
    const seenStored: boolean[] = [];
    const sink = ledger.sink((e) => seenStored.push((stored.get(e.run, e.seq) as { n: number }).n === 1));
    const run = fullRun();
    for (const e of run.events) {
      sink.append(e);
      if (e.seq % 4 === 0) timerFires();
    }
    sink.close();
    reader.close();
    expect(seenStored).toHaveLength(run.events.length);
    expect(seenStored.every(Boolean)).toBe(true);
  });

  test("a synchronous burst is committed in one transaction, then forwarded in order", () => {
    const batches: number[] = [];
    const forwarded: number[] = [];
    const sink = batchingSink(
      (events) => (batches.push(events.length), ledger.write(events)),
      (e) => forwarded.push(e.seq),
    );
    const s = new RunScript("r-burst");
    sink.append(s.started()); // commits at once
    for (const e of progressBurst(s, 100)) sink.append(e);
    expect(forwarded).toEqual([0]);
    expect(sink.pending).toBe(100);
    vi.advanceTimersByTime(DEFAULT_MAX_DELAY_MS - 1);
    expect(forwarded).toEqual([0]); // not before the delay
    vi.advanceTimersByTime(1); // exactly at it
    expect(batches).toEqual([1, 100]);
    expect(forwarded).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(ledger.runEvents("r-burst")).toHaveLength(101);
  });

  test("run.started, run.paused and run.finished are committed and forwarded before append returns", () => {
    const forwarded: string[] = [];
    const sink = ledger.sink((e) => forwarded.push(e.type));
    const s = new RunScript("r-now");
    sink.append(s.started());
    expect(forwarded).toEqual(["run.started"]);
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
    expect(forwarded).toEqual(["run.started"]);
    sink.append(s.ev("run.paused", { approvals: [{ node: "gate" }] }));
    expect(forwarded).toEqual(["run.started", "node.progress", "run.paused"]);
    sink.append(s.runFinished("paused"));
    expect(forwarded).toEqual(["run.started", "node.progress", "run.paused", "run.finished"]);
    expect(ledger.listRuns()[0]!.status).toBe("paused");
  });

  test("node.started and node.finished commit at the end of the turn, with everything else of that turn, before the timer", async () => {
    const batches: string[][] = [];
    const sink = batchingSink(
      (events) => (batches.push(events.map((e) => e.type)), ledger.write(events)),
      () => {},
    );
    const s = new RunScript("r-turn");
    sink.append(s.started());
    sink.append(
      s.ev("node.finished", {
        node: "a",
        attempt: 1,
        status: "passed",
        qualifier: "exit-only",
        stop_reason: null,
        cause: null,
        cost_usd: 0,
        turns: null,
        wall_ms: 1,
        tokens: null,
        evidence: [],
      }),
    );
    sink.append(s.ev("node.progress", { node: "b", attempt: 1, turns: 1 }));
    sink.append(s.ev("node.started", { node: "b", kind: "script", attempt: 1 }));
    expect(batches).toEqual([["run.started"]]);
    expect(sink.pending).toBe(3);
    await new Promise((resolve) => setImmediate(resolve)); // the fake clock has not moved
    expect(batches).toEqual([["run.started"], ["node.finished", "node.progress", "node.started"]]);
    expect(vi.getTimerCount()).toBe(0); // the batching timer was replaced, not left to fire
    sink.close();
  });

  test("run.finished is committed after what came before: a consumer throwing on that keeps run.finished out of the ledger", () => {
    const sink = ledger.sink((e) => {
      if (e.type === "node.progress") throw new Error("broken consumer");
    });
    const s = new RunScript("r-order");
    sink.append(s.started());
    sink.append(s.ev("node.progress", { node: "a", attempt: 1, turns: 1 }));
    sink.append(
      s.ev("node.finished", {
        node: "a",
        attempt: 1,
        status: "passed",
        qualifier: "exit-only",
        stop_reason: null,
        cause: null,
        cost_usd: 0,
        turns: null,
        wall_ms: 1,
        tokens: null,
        evidence: [],
      }),
    );
    expect(() => sink.append(s.runFinished("passed"))).toThrow("broken consumer");
    expect(ledger.runEvents("r-order").map((e) => e.type)).toEqual(["run.started", "node.progress", "node.finished"]);
  });

  test("flush() (the spawn seam's barrier) commits a queued node.started at once", () => {
    const sink = ledger.sink(() => {});
    const s = new RunScript("r-barrier");
    sink.append(s.started());
    sink.append(s.ev("node.started", { node: "b", kind: "script", attempt: 1 }));
    expect(ledger.runEvents("r-barrier")).toHaveLength(1);
    sink.flush();
    expect(ledger.runEvents("r-barrier").map((e) => e.type)).toEqual(["run.started", "node.started"]);
    sink.close();
  });

  test("a full queue commits at once: maxBatch bounds what can be pending", () => {
    const batches: number[] = [];
    const sink = batchingSink(
      (events) => (batches.push(events.length), ledger.write(events)),
      () => {},
      { maxBatch: 10, maxDelayMs: 1000 },
    );
    const s = new RunScript("r-max");
    s.started();
    ledger.write(s.events.splice(0));
    for (const e of progressBurst(s, 25)) sink.append(e);
    expect(batches).toEqual([10, 10]);
    expect(sink.pending).toBe(5);
    sink.flush();
    expect(batches).toEqual([10, 10, 5]);
  });

  test("maxDelayMs 0 commits on the next microtask", async () => {
    const forwarded: number[] = [];
    const sink = ledger.sink((e) => forwarded.push(e.seq), { maxDelayMs: 0 });
    const s = new RunScript("r-micro");
    ledger.write([s.started()]);
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
    expect(forwarded).toEqual([]);
    await Promise.resolve();
    expect(forwarded).toEqual([1]);
  });

  test("a batch that fails to commit is never forwarded, and the error reaches the next append", () => {
    const forwarded: number[] = [];
    let fail = true;
    const sink = batchingSink(
      (events) => {
        if (fail) throw new LedgerError("disk full (simulated)");
        ledger.write(events);
      },
      (e) => forwarded.push(e.seq),
    );
    const s = new RunScript("r-fail");
    ledger.write([s.started()]);
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
    timerFires();
    expect(vi.getTimerCount()).toBe(0); // the timer did fire (and its commit failed)
    expect(forwarded).toEqual([]);
    fail = false;
    expect(() => sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 2 }))).toThrow("disk full (simulated)");
    expect(forwarded).toEqual([]);
  });

  test("a consumer that throws does not keep later events from the others; its error surfaces", () => {
    const seen: number[] = [];
    const sink = ledger.sink((e) => {
      seen.push(e.seq);
      if (e.seq === 1) throw new Error("consumer bug");
    });
    const s = new RunScript("r-consumer");
    ledger.write([s.started()]);
    s.seq = 1;
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 2 }));
    expect(() => sink.flush()).toThrow("consumer bug");
    expect(seen).toEqual([1, 2]);
    expect(ledger.runEvents("r-consumer")).toHaveLength(3);
  });

  test("forwardBatch gets each committed batch once, whole and in order, and nothing before its commit", () => {
    const reader = new Database(ledgerFile(t.home), { readonly: true });
    const stored = reader.query("SELECT count(*) AS n FROM events WHERE run_id = ? AND seq = ?");
    const batches: number[][] = [];
    const perEvent: number[] = [];
    const sink = ledger.sink((e) => perEvent.push(e.seq), {
      forwardBatch: (events) => {
        expect(events.every((e) => (stored.get(e.run, e.seq) as { n: number }).n === 1)).toBe(true);
        batches.push(events.map((e) => e.seq));
      },
    });
    const s = new RunScript("r-batch");
    sink.append(s.started());
    for (const e of progressBurst(s, 10)) sink.append(e);
    expect(batches).toEqual([[0]]);
    timerFires();
    sink.close();
    reader.close();
    expect(batches).toEqual([[0], Array.from({ length: 10 }, (_, i) => i + 1)]);
    expect(perEvent).toEqual([]);
  });

  test("close() commits what is pending; append after close is refused", () => {
    const forwarded: number[] = [];
    const sink = ledger.sink((e) => forwarded.push(e.seq), { maxDelayMs: 10_000 });
    const s = new RunScript("r-close");
    ledger.write([s.started()]);
    sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
    expect(forwarded).toEqual([]);
    sink.close();
    expect(forwarded).toEqual([1]);
    expect(() => sink.append(s.nodeStarted({ node: "review" }, "agent"))).toThrow(/closed/);
  });
});

describe("directSink (no ledger: the baseline for measuring the ledger's cost)", () => {
  test("forwards at once and stores nothing", () => {
    const forwarded: number[] = [];
    const sink = directSink((e) => forwarded.push(e.seq));
    const s = new RunScript("r-direct");
    sink.append(s.started());
    sink.append(s.nodeStarted({ node: "build" }, "script"));
    expect(forwarded).toEqual([0, 1]);
    expect(ledger.listRuns()).toEqual([]);
    sink.close();
    expect(() => sink.append(s.nodeStarted({ node: "review" }, "agent"))).toThrow(/closed/);
  });
});
