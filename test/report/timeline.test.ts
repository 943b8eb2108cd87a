// The timeline folded from a run's events: a bar per sitting (start to finish
// or retry) and per check, times from the first event, and the most sittings
// open at once. From the demo's real event stream, and from made-up ones.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DEMO_ARGS, ensureBinary, parseNdjson, tempDir, vouch } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { axisTicks, timelineOf } from "../../src/report/timeline.ts";
import { workModel } from "./work-fixtures.ts";

const T0 = Date.parse("2026-12-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const started = (node: string, ms: number, attempt = 1) =>
  ({ v: 1, type: "node.started", run: "r", seq: 0, t: at(ms), node, kind: "script", attempt }) as VouchEvent;
const finished = (node: string, ms: number, attempt = 1) =>
  ({
    v: 1,
    type: "node.finished",
    run: "r",
    seq: 0,
    t: at(ms),
    node,
    attempt,
    status: "passed",
    qualifier: null,
    stop_reason: null,
    cause: null,
    cost_usd: null,
    turns: null,
    wall_ms: 0,
  }) as VouchEvent;

describe("timelineOf", () => {
  test("overlapping sittings count as concurrent; back-to-back ones do not", () => {
    expect(timelineOf([started("a", 0), started("b", 10), finished("a", 50), finished("b", 60)]).peak).toBe(2);
    expect(timelineOf([started("a", 0), finished("a", 50), started("b", 50), finished("b", 60)]).peak).toBe(1);
    const t = timelineOf([started("a", 0), finished("a", 50), started("b", 50), finished("b", 60)]);
    expect(t.bars.map((b) => [b.path, b.start, b.end, b.status])).toEqual([
      ["a", 0, 50, "passed"],
      ["b", 50, 60, "passed"],
    ]);
    expect(t.span).toBe(60);
  });

  test("a sitting with no end closes at the last event, unfinished", () => {
    const t = timelineOf([started("a", 0), started("b", 5), finished("b", 30)]);
    expect(t.bars.find((b) => b.path === "a")).toMatchObject({ start: 0, end: 30, status: "unfinished" });
  });

  test("the demo's events: a bar per node.started, a check bar per check.finished, the retried attempt marked", async () => {
    ensureBinary();
    const home = tempDir("timeline");
    try {
      const r = await vouch(["run", ...DEMO_ARGS, "--json"], { home: home.path });
      expect(r.code).toBe(0);
      const events = parseNdjson(r.stdout);
      const t = timelineOf(events);
      const sittings = t.bars.filter((b) => b.kind === "sitting");
      expect(sittings).toHaveLength(events.filter((e) => e.type === "node.started").length);
      expect(t.bars.filter((b) => b.kind === "check")).toHaveLength(events.filter((e) => e.type === "check.finished").length);
      expect(sittings.find((b) => b.path === "verify_each[3].verify_one" && b.attempt === 1)!.status).toBe("retried");
      expect(sittings.find((b) => b.path === "verify_each[4].verify_one")!.status).toBe("failed");
      // The map holds 4 branches at once (max_concurrency: 4), and is itself open: 5.
      expect(t.peak).toBeGreaterThanOrEqual(2);
      expect(t.peak).toBeLessThanOrEqual(5);
      for (const b of t.bars) expect(b.end).toBeGreaterThanOrEqual(b.start);
    } finally {
      home.cleanup();
    }
  }, 60_000);

  test("marks: a retry and a usage limit where the attempt ended (each closes its bar), an approval asked, the pause, the resumed session", () => {
    const t = workModel().timeline;
    expect(t.marks.map((m) => [m.kind, m.path, m.session, m.attempt, m.at])).toEqual([
      ["retry", "implement_each[1].implement", 1, 1, 300],
      ["limit", "implement_each[0].implement", 1, 1, 400],
      ["approval", "ask", 1, 1, 960],
      ["paused", null, 1, 0, 970],
      ["session", null, 2, 0, 60_000],
      ["approval", "ask", 2, 1, 60_000],
    ]);
    expect(t.marks[0]!.note).toBe("check_failed: tests failed");
    expect(t.marks[2]!.note).toBe("Ship it?");
    const bar = (path: string, attempt: number) => t.bars.find((b) => b.kind === "sitting" && b.path === path && b.attempt === attempt);
    expect(bar("implement_each[0].implement", 1)).toMatchObject({ start: 10, end: 400, status: "limited" });
    expect(bar("implement_each[1].implement", 1)).toMatchObject({ start: 20, end: 300, status: "retried" });
    // The approval asked in session 1 never finished there: it closes unfinished when session 2 starts.
    expect(t.bars.find((b) => b.path === "ask" && b.session === 1)).toMatchObject({ status: "unfinished", end: 970 });
  });
});

describe("axisTicks", () => {
  test("a step a person reads (200ms, 10s, 15s, 1h, 5 days): from 0, at most 6 steps, none past the span", () => {
    expect(axisTicks(0)).toEqual([0]);
    expect(axisTicks(1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(axisTicks(950)).toEqual([0, 200, 400, 600, 800]);
    expect(axisTicks(60_030)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    expect(axisTicks(59_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    expect(axisTicks(5 * 3_600_000).at(1)).toBe(3_600_000);
    expect(axisTicks(30 * 86_400_000).at(1)).toBe(5 * 86_400_000);
  });

  test("for any span: starts at 0, evenly spaced, within the span, at most 7 ticks", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 * 86_400_000 }), (span) => {
        const ticks = axisTicks(span);
        expect(ticks[0]).toBe(0);
        expect(ticks.length).toBeGreaterThanOrEqual(1);
        expect(ticks.length).toBeLessThanOrEqual(7);
        expect(ticks.at(-1)!).toBeLessThanOrEqual(span);
        const step = ticks[1]! - ticks[0]!;
        if (ticks.length > 1) for (let i = 1; i < ticks.length; i++) expect(ticks[i]! - ticks[i - 1]!).toBe(step);
      }),
    );
  });
});
