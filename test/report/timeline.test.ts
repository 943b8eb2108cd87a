// The timeline folded from a run's events: a bar per sitting (start to finish
// or retry) and per check, times from the first event, and the most sittings
// open at once. From the demo's real event stream, and from made-up ones.
import { describe, expect, test } from "vitest";
import { DEMO_ARGS, ensureBinary, parseNdjson, tempDir, vouch } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { timelineOf } from "../../src/report/timeline.ts";

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
});
