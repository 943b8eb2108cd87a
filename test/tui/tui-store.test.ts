// The store between events and frames: a live run ticks (spinner, clocks), a finished one does not.
import { expect, test } from "vitest";
import { createTuiStore, TICK_MS } from "../../src/tui/tui-store.ts";
import { loadFixture, ManualScheduler } from "./helpers/fake-terminal.ts";

test("a live run gets a frame every tick without events; after run.finished the ticks stop", () => {
  const scheduler = new ManualScheduler();
  const store = createTuiStore({ scheduler, tick: true });
  const events = loadFixture("failed-check");
  for (const e of events.slice(0, 3)) store.push(e);
  scheduler.advance(0);
  const before = store.frames;
  scheduler.advance(TICK_MS * 4);
  expect(store.frames - before).toBe(4);
  expect(store.getSnapshot().now).toBe(scheduler.now());
  for (const e of events.slice(3)) store.push(e);
  scheduler.advance(TICK_MS);
  const ended = store.frames;
  scheduler.advance(TICK_MS * 20);
  expect(store.frames).toBe(ended);
  expect(scheduler.pending).toBe(0);
});

test("a replay store never ticks; stop() drops what is pending", () => {
  const scheduler = new ManualScheduler();
  const store = createTuiStore({ scheduler });
  store.push(loadFixture("approval")[0]!);
  store.stop();
  scheduler.advance(10_000);
  expect(store.frames).toBe(0);
  expect(scheduler.pending).toBe(0);
});

test("subscribers hear about a frame, and each snapshot carries the waiting approvals", async () => {
  const scheduler = new ManualScheduler();
  const store = createTuiStore({ scheduler });
  let heard = 0;
  store.subscribe(() => heard++);
  void store.approvals.decide({ node: "ship", prompt: "ok?" }, new AbortController().signal);
  scheduler.advance(0);
  expect(heard).toBe(1);
  expect(store.getSnapshot().approvals).toEqual([{ id: 1, node: "ship", prompt: "ok?" }]);
});
