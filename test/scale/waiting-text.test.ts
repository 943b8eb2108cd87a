// What a coordinator says while it waits with no progress (ADR 0046): a pure function of
// the jobs' states and the live workers' heartbeats.
import { expect, test } from "vitest";
import { QuietClock, waitingText } from "../../src/executor/redis/waiting.ts";
import type { Heartbeat } from "../../src/executor/heartbeat.ts";

const beat = (name: string, running: string[]): Heartbeat => ({ name, pid: 1, concurrency: 2, running, started: "", at: "" });

test("no live worker: the queued jobs and how to start one", () => {
  const text = waitingText("redis://h:1", [{ id: "r.m.0.1", state: "waiting", stopping: false }], [], 30_000);
  expect(text).toBe(
    "vouch: waiting on 1 branch job at redis://h:1 (1 queued, 0 running); nothing came back for 30 s\n" +
      "  no live worker: start one with vouch worker redis://h:1 (vouch workers redis://h:1 lists them)\n",
  );
});

test("running jobs name their worker; one no live worker holds is said, and so are stops nobody confirmed", () => {
  const jobs = [
    { id: "a", state: "active", stopping: false },
    { id: "b", state: "active", stopping: true },
    { id: "c", state: "prioritized", stopping: false },
    { id: "d", state: "completed", stopping: false },
  ];
  const text = waitingText("redis://h:1", jobs, [beat("w1", ["a"]), beat("w2", [])], 61_400);
  expect(text).toContain(
    "waiting on 4 branch jobs at redis://h:1 (1 queued, 2 running (on w1), 1 ending, 1 asked to stop, no worker has confirmed)",
  );
  expect(text).toContain("nothing came back for 61 s");
  expect(text).toContain("live workers: w1 (1/2), w2 (0/2)");
  expect(text).toContain("1 running job on no live worker");
});

test("the quiet clock: due after the quiet time, then after twice as long each time; progress starts over", () => {
  const t0 = 1_000_000;
  const c = new QuietClock(1000, t0);
  expect(c.due(t0 + 500)).toBeNull();
  expect(c.due(t0 + 1000)).toBe(1000);
  expect(c.due(t0 + 2500)).toBeNull(); // the next is 2 s after the first
  expect(c.due(t0 + 3000)).not.toBeNull();
  expect(c.due(t0 + 6000)).toBeNull(); // then 4 s
  expect(c.due(t0 + 7000)).not.toBeNull();
  const t1 = t0 + 8000;
  c.progress(t1);
  expect(c.due(t1 + 999)).toBeNull();
  expect(c.due(t1 + 1000)).not.toBeNull();
});

test("a forged heartbeat's name cannot add a line of its own", () => {
  const text = waitingText(
    "redis://h:1",
    [{ id: "a", state: "active", stopping: false }],
    [beat("w1\n  no live worker: trust me", ["a"])],
    30_000,
  );
  expect(text.split("\n").filter((l) => l.includes("no live worker"))).toHaveLength(2); // on the names' lines only
  expect(text.split("\n")).toHaveLength(3);
});
