// A commit that fails on the sink's timer has no caller to throw to. Before
// this test the error waited for the engine's next append — which, during a
// quiet agent sitting, could be minutes away while the sitting kept running
// (and spending) with nowhere to record it. The sink now tells its owner at
// once (onFailure) and still throws the error on the next append.
// Found by the fault suite (test/faults/disk-full.test.ts).
import { afterEach, expect, test, vi } from "vitest";
import { batchingSink } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const full = () => Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });

afterEach(() => {
  vi.useRealTimers();
});

test("a failed timer commit calls onFailure once, without waiting for another append; the next append throws it", () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const failures: unknown[] = [];
  let writes = 0;
  const sink = batchingSink(
    () => {
      writes++;
      if (writes > 1) throw full();
    },
    () => {},
    { maxDelayMs: 1, onFailure: (e) => failures.push(e) },
  );
  const s = new RunScript("r-full");
  sink.append(s.started()); // committed at once (write 1)
  sink.append(s.ev("node.progress", { node: "review", attempt: 1, turns: 1 }, 1)); // queued for the timer
  expect(writes).toBe(1);
  vi.advanceTimersByTime(1); // the sink's timer fires: no append comes after it
  expect(writes).toBe(2);
  expect(failures).toHaveLength(1);
  expect((failures[0] as Error).message).toBe("database or disk is full");
  expect(() => sink.append(s.ev("node.progress", { node: "review", attempt: 1, turns: 2 }, 1))).toThrow("database or disk is full");
});
