// 5,000 events into the reducer and the Ink renderer: the number of frames is
// bounded by the throttle (counted on a fake clock, never timed), and the final
// frame shows the final state.
import { describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { startTui } from "../../src/tui/app.tsx";
import { createThrottle, FRAME_INTERVAL_MS } from "../../src/tui/throttle.ts";
import { RunRecorder } from "./helpers/event-builder.ts";
import { FakeStdin, FakeStdout, ManualScheduler, settle } from "./helpers/fake-terminal.ts";

const BRANCHES = 400;

/** A run of exactly 5,000 events: a 400-branch map, mostly live progress. */
function flood(): VouchEvent[] {
  const r = new RunRecorder();
  r.emit({
    type: "run.started",
    graph: "flood",
    graph_path: "flood.yaml",
    graph_digest: "d",
    inputs: {},
    caps: { budget_usd: 100, wall_ms: null },
    concurrency: 8,
    nodes: [
      { id: "fan", kind: "map", needs: [] },
      { id: "work", kind: "agent", needs: [], map: "fan" },
    ],
    pass_env: [],
    harness: null,
    resumed: false,
    version: "0",
  });
  r.emit({ type: "node.started", node: "fan", kind: "map", attempt: 1, items: BRANCHES });
  const progress = Math.floor((5000 - 4 - BRANCHES * 4) / BRANCHES); // events left for progress, per branch
  for (let i = 0; i < BRANCHES; i++) {
    const branch = { map: "fan", index: i };
    r.emit({ type: "branch.started", branch, item: i, label: `item ${i}` });
    r.emit({ type: "node.started", node: "work", branch, kind: "agent", attempt: 1 });
    for (let p = 1; p <= progress; p++)
      r.emit({ type: "node.progress", node: "work", branch, attempt: 1, turns: p, cost_usd: p * 0.001, activity: `step ${p}` });
    r.emit({
      type: "node.finished",
      node: "work",
      branch,
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0.01,
      turns: progress,
      wall_ms: 100,
    });
    r.emit({ type: "branch.finished", branch, status: "passed", verdict: i % 10 === 0 ? "FALSE" : "VERIFIED" });
  }
  while (r.events.length < 4998) r.emit({ type: "node.progress", node: "fan", attempt: 1, activity: "filler" });
  r.emit({
    type: "node.finished",
    node: "fan",
    attempt: 1,
    status: "passed",
    qualifier: null,
    stop_reason: null,
    cause: null,
    cost_usd: null,
    turns: null,
    wall_ms: 60000,
  });
  r.emit({
    type: "run.finished",
    status: "passed",
    exit_code: 0,
    cost_usd: 4,
    cost_unknown: 0,
    wall_ms: 61000,
    counts: { passed: BRANCHES + 1, failed: 0, error: 0, skipped: 0, cancelled: 0 },
  });
  return r.events;
}

describe("throughput", () => {
  const events = flood();

  test("the flood is 5,000 events", () => {
    expect(events).toHaveLength(5000);
  });

  test("a burst of 5,000 events costs one frame, and the final frame is right", async () => {
    const scheduler = new ManualScheduler();
    const stdout = new FakeStdout(100, 30);
    const tui = startTui({
      stdout: stdout as never,
      stdin: new FakeStdin() as never,
      color: false,
      onCancel() {},
      onExitNow() {},
      scheduler,
      debug: true,
    });
    await settle();
    const frameWrites = () => stdout.writes.filter((w) => w.includes("vouch ")).length;
    const writesBefore = frameWrites();
    for (const e of events) tui.push(e);
    scheduler.advance(FRAME_INTERVAL_MS);
    await settle();
    expect(tui.frames).toBe(1);
    await tui.close();
    expect(tui.frames).toBe(1); // close() had nothing new to publish
    // Ink wrote the frame React rendered, plus at most the final re-render at unmount.
    expect(frameWrites() - writesBefore).toBeLessThanOrEqual(2);
    const last = stdout.writes.filter((w) => w.includes("vouch flood")).pop()!;
    expect(last).toContain("PASSED · exit 0");
    expect(last).toContain("✓ fan   map      passed  400/400");
    expect(last).toContain("40 FALSE · 360 VERIFIED");
    expect(last).toContain("+ 400 passed branches folded");
  });

  test("5,000 events spread over 2 s of (fake) time: at most one frame per 50 ms", async () => {
    const scheduler = new ManualScheduler();
    const stdout = new FakeStdout(100, 30);
    const tui = startTui({
      stdout: stdout as never,
      stdin: new FakeStdin() as never,
      color: false,
      onCancel() {},
      onExitNow() {},
      scheduler,
      debug: true,
    });
    // 2,500 events a second: 5 events every 2 ms.
    for (let i = 0; i < events.length; i++) {
      tui.push(events[i]!);
      if (i % 5 === 4) scheduler.advance(2);
    }
    const spanMs = (events.length / 5) * 2;
    const bound = Math.ceil(spanMs / FRAME_INTERVAL_MS) + 1;
    expect(tui.frames).toBeGreaterThanOrEqual(bound - 2); // it did keep drawing while events came
    expect(tui.frames).toBeLessThanOrEqual(bound);
    await tui.close();
    expect(tui.frames).toBeLessThanOrEqual(bound + 1);
    await settle();
    const last = stdout.writes.filter((w) => w.includes("vouch flood")).pop()!;
    expect(last).toContain("PASSED · exit 0");
    expect(last).toContain("400/400");
  });

  test("the throttle alone: requests coalesce, flush always draws what is pending", () => {
    const scheduler = new ManualScheduler();
    let renders = 0;
    const t = createThrottle(() => renders++, { scheduler });
    for (let i = 0; i < 1000; i++) t.request();
    expect(renders).toBe(0); // nothing drawn synchronously in the middle of a burst
    scheduler.advance(0);
    expect(renders).toBe(1);
    t.request();
    scheduler.advance(10);
    expect(renders).toBe(1); // too soon after the last frame
    scheduler.advance(40);
    expect(renders).toBe(2);
    t.request();
    t.flush();
    expect(renders).toBe(3);
    t.flush();
    expect(renders).toBe(3); // nothing changed since
    t.stop();
    t.request();
    scheduler.advance(1000);
    expect(renders).toBe(3);
  });
});
