// followRun (ADR 0063): the run's events read by seq in bounded batches, none read
// twice, until the run's last word — a run.finished with nothing after it, or the
// lock free with no run.finished. A fake ledger counts what each read returns.
import { describe, expect, test } from "vitest";
import type { StoredEvent } from "../../src/ledger/index.ts";
import { followRun } from "../../src/cli/remote/follow.ts";
import { RunScript } from "../ledger/events-fixture.ts";

function fakeLedger(events: StoredEvent["event"][]) {
  const reads: { afterSeq: number; limit: number; got: number }[] = [];
  return {
    reads,
    /** How many events the "run" has committed so far. */
    visible: events.length,
    eventsAfter(_run: string, afterSeq: number, limit: number): StoredEvent[] {
      const got = events.filter((e) => e.seq > afterSeq && e.seq < this.visible).slice(0, limit);
      reads.push({ afterSeq, limit, got: got.length });
      return got.map((event) => ({ event, text: JSON.stringify(event) }));
    },
  };
}

const noSleep = async () => {};

function manyEvents(n: number, finished = true) {
  const s = new RunScript("r1");
  s.started();
  for (let i = 0; i < n; i++) s.ev("node.progress", { node: "a", attempt: 1, turns: i }, 1);
  if (finished) s.runFinished("passed");
  return s.events;
}

describe("followRun", () => {
  test("2,502 events arrive in reads of at most 1,000, each starting after the last seq seen: nothing is read twice", async () => {
    const events = manyEvents(2500);
    const ledger = fakeLedger(events);
    const seen: number[] = [];
    const end = await followRun(ledger, "r1", (b) => seen.push(...b.map((s) => s.event.seq)), { lockState: () => "held", sleep: noSleep });
    expect(end).toMatchObject({ kind: "finished", event: { type: "run.finished", status: "passed" } });
    expect(seen).toEqual(events.map((e) => e.seq));
    expect(ledger.reads.map((r) => r.got)).toEqual([1000, 1000, 502]);
    expect(ledger.reads.map((r) => r.afterSeq)).toEqual([-1, 999, 1999]);
    expect(ledger.reads.reduce((n, r) => n + r.got, 0)).toBe(events.length);
  });

  test("a run still going: empty reads sleep between them and re-read nothing; its later events arrive, then its end", async () => {
    const events = manyEvents(10);
    const ledger = fakeLedger(events);
    ledger.visible = 5;
    let sleeps = 0;
    const got: number[] = [];
    const end = await followRun(ledger, "r1", (b) => got.push(...b.map((s) => s.event.seq)), {
      lockState: () => "held",
      sleep: async () => {
        sleeps++;
        if (sleeps === 20) ledger.visible = events.length;
      },
    });
    expect(end.kind).toBe("finished");
    expect(got).toEqual(events.map((e) => e.seq));
    expect(ledger.reads.filter((r) => r.got === 0)).toHaveLength(19); // the first sleep follows the read that found 5
    expect(ledger.reads.filter((r) => r.got === 0).every((r) => r.afterSeq === 4)).toBe(true);
  });

  test("the lock free and no run.finished: abandoned, after one more read that finds nothing", async () => {
    const ledger = fakeLedger(manyEvents(3, false));
    const end = await followRun(ledger, "r1", () => {}, { lockState: () => "free", sleep: noSleep });
    expect(end).toEqual({ kind: "abandoned" });
  });

  test("events committed just before the lock was let go are read before the end is decided", async () => {
    const events = manyEvents(3);
    const ledger = fakeLedger(events);
    ledger.visible = 3; // run.finished not yet visible
    const end = await followRun(ledger, "r1", () => {}, {
      lockState: () => {
        ledger.visible = events.length; // committed, then the lock was let go
        return "free";
      },
      sleep: noSleep,
    });
    expect(end).toMatchObject({ kind: "finished" });
  });

  test("a lock nobody can probe (unknown) never ends the follow by itself; the signal does", async () => {
    const ledger = fakeLedger(manyEvents(3, false));
    const leave = new AbortController();
    let sleeps = 0;
    const end = await followRun(ledger, "r1", () => {}, {
      lockState: () => "unknown",
      signal: leave.signal,
      sleep: async () => {
        if (++sleeps === 50) leave.abort();
      },
    });
    expect(end).toEqual({ kind: "left" });
  });

  test("stop() ends at the first event it holds for; afterSeq starts later", async () => {
    const events = manyEvents(10);
    const ledger = fakeLedger(events);
    const end = await followRun(ledger, "r1", () => {}, {
      afterSeq: 3,
      lockState: () => "held",
      sleep: noSleep,
      stop: (e) => e.type === "node.progress" && e.turns === 6,
    });
    expect(end).toMatchObject({ kind: "matched", event: { seq: 7 } });
    expect(ledger.reads[0]!.afterSeq).toBe(3);
  });

  test("a resumed run: the first session's run.finished followed by more events does not end the follow", async () => {
    const s = new RunScript("r1");
    s.started();
    s.runFinished("paused");
    s.started({ resumed: true });
    s.runFinished("passed");
    const ledger = fakeLedger(s.events);
    const end = await followRun(ledger, "r1", () => {}, { lockState: () => "held", sleep: noSleep });
    expect(end).toMatchObject({ kind: "finished", event: { status: "passed" } });
  });
});
