// The pure wait decision (src/engine/run/limit-wait.ts) and the limit book.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { decideLimits, unknownResetBackoff, UNKNOWN_RESET_MAX_WAIT_MS } from "../../src/engine/run/limit-wait.ts";
import { LimitBook } from "../../src/engine/run/limits.ts";

const NOW = 1_000_000_000_000;
const H = 3_600_000;
const wait = { wait: true, maxWaitMs: 6 * H };

describe("decideLimits", () => {
  test("nothing limited: no decision", () => {
    expect(decideLimits([], NOW, 0, wait)).toBeNull();
  });

  test("waits for the soonest reset; pauses without --wait-limits, naming the soonest known reset", () => {
    const states = [
      { harness: "claude", resetsAt: NOW + 3 * H, unknownStreak: 0 },
      { harness: "codex", resetsAt: NOW + H, unknownStreak: 0 },
    ];
    expect(decideLimits(states, NOW, 0, wait)).toEqual({ kind: "wait", harness: "codex", resetsAt: NOW + H, waitMs: H });
    expect(decideLimits(states, NOW, 0, { wait: false, maxWaitMs: 6 * H })).toEqual({ kind: "pause", harness: "codex", resetsAt: NOW + H });
  });

  test("an unknown reset waits the backoff; a pause still names a known reset when there is one", () => {
    const states = [
      { harness: "gemini", resetsAt: null, unknownStreak: 2 },
      { harness: "claude", resetsAt: NOW + 5 * H, unknownStreak: 0 },
    ];
    expect(decideLimits(states, NOW, 0, wait)).toEqual({ kind: "wait", harness: "gemini", resetsAt: null, waitMs: 120_000 });
    expect(decideLimits(states, NOW, 0, { wait: false, maxWaitMs: 0 })).toEqual({
      kind: "pause",
      harness: "claude",
      resetsAt: NOW + 5 * H,
    });
  });

  test("--max-wait bounds the total: what was waited counts", () => {
    const states = [{ harness: "claude", resetsAt: NOW + 2 * H, unknownStreak: 0 }];
    expect(decideLimits(states, NOW, 4 * H, wait)?.kind).toBe("wait");
    expect(decideLimits(states, NOW, 4 * H + 1, wait)?.kind).toBe("pause");
  });

  test("a reset already past waits 0", () => {
    expect(decideLimits([{ harness: "claude", resetsAt: NOW - 5000, unknownStreak: 0 }], NOW, 0, wait)).toMatchObject({
      kind: "wait",
      waitMs: 0,
    });
  });

  test("the backoff: 1 min doubling, never more than 30 min, whatever the streak", () => {
    expect([1, 2, 3, 4, 5, 6].map(unknownResetBackoff)).toEqual([60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000]);
    fc.assert(
      fc.property(
        fc.integer({ min: -10, max: 1e9 }),
        (n) => unknownResetBackoff(n) >= 60_000 && unknownResetBackoff(n) <= UNKNOWN_RESET_MAX_WAIT_MS,
      ),
    );
  });
});

describe("LimitBook", () => {
  test("a later reset wins; lifting wakes only that harness's parked attempts; a stop wakes them with stop", async () => {
    let parks = 0;
    const book = new LimitBook(() => parks++);
    book.note("claude", NOW + H);
    book.note("claude", NOW + 2 * H);
    book.note("claude", NOW + H / 2);
    expect(book.states()).toEqual([{ harness: "claude", resetsAt: NOW + 2 * H, unknownStreak: 0 }]);
    book.note("codex", null);
    const ctl = new AbortController();
    const a = book.park({ node: "a", harness: "claude" }, ctl.signal);
    const b = book.park({ node: "b", harness: "codex" }, ctl.signal);
    expect([parks, book.parkedCount]).toEqual([2, 2]);
    book.lift("claude");
    expect(await a).toBe("go");
    expect(book.isLimited("claude")).toBe(false);
    ctl.abort();
    expect(await b).toBe("stop");
    expect(book.parkedCount).toBe(0);
  });

  test("the unknown streak survives a lift (a limit again right after doubles) and clears on a clean sitting", () => {
    const book = new LimitBook(() => {});
    book.note("codex", null);
    book.lift("codex");
    book.note("codex", null);
    expect(book.states()[0]!.unknownStreak).toBe(2);
    book.lift("codex");
    book.clearStreak("codex");
    book.note("codex", null);
    expect(book.states()[0]!.unknownStreak).toBe(1);
  });
});
