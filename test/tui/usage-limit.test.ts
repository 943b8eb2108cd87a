// What a person sees of a usage limit (issue 16): the TUI's live countdown
// while --wait-limits waits, "paused: claude usage limit, resets 15:00 UTC"
// when the run pauses, and the plain lines saying the same.
import { describe, expect, test } from "vitest";
import { lineText } from "../../src/tui/lines.ts";
import { createPlainOutput } from "../../src/tui/plain-output.ts";
import { reduceAll, selectFrame } from "../../src/tui/view-model.ts";
import { limitPhrase, resetClock } from "../../src/engine/limit-phrase.ts";
import { RunRecorder } from "./helpers/event-builder.ts";
import { nodeAt } from "../../src/tui/view-node-rows.ts";

const RESET = "2026-11-29T15:00:00.000Z";

function limitedRun(): RunRecorder {
  const r = new RunRecorder();
  r.started([{ id: "write", kind: "agent", needs: [] }]);
  r.emit({ type: "node.started", node: "write", kind: "agent", attempt: 1, harness: "claude" });
  r.emit({
    type: "node.limited",
    node: "write",
    attempt: 1,
    harness: "claude",
    resets_at: RESET,
    error: "claude hit a usage or rate limit: You've hit your 5-hour limit",
    cost_usd: 0,
    turns: 0,
  });
  return r;
}

const frame = (r: RunRecorder, now: number) =>
  selectFrame(reduceAll(r.events), { width: 120, height: 20, now }).lines.map(lineText).join("\n");

describe("the phrase", () => {
  test("UTC clock, the date only when it is not today", () => {
    const now = Date.parse("2026-11-29T10:00:00Z");
    expect(limitPhrase("claude", RESET, now)).toBe("claude usage limit, resets 15:00 UTC");
    expect(resetClock("2026-12-04T09:30:00Z", now)).toBe("Dec 4 09:30 UTC");
    expect(limitPhrase("codex", null, now)).toBe("codex usage limit, reset time unknown");
    expect(resetClock("not a date", now)).toBe("at an unknown time");
  });
});

describe("the TUI", () => {
  test("while --wait-limits waits: a live countdown to the reset; the held node says so", () => {
    const r = limitedRun().emit({
      type: "run.waiting",
      reason: "rate_limited",
      harness: "claude",
      resets_at: RESET,
      wait_ms: 5 * 3_600_000,
      until: RESET,
    });
    const early = frame(r, Date.parse("2026-11-29T10:00:00Z"));
    expect(early).toContain("waiting for the claude usage limit, resets 15:00 UTC · 5h left");
    expect(early).toMatch(/write.*held by a usage limit/);
    expect(early).toContain("1 held by a usage limit");
    expect(early).not.toContain("awaiting approval");
    const later = frame(r, Date.parse("2026-11-29T14:30:00Z"));
    expect(later).toContain("· 30m left");
  });

  test("the wait is over once a sitting of that harness starts again", () => {
    const r = limitedRun()
      .emit({ type: "run.waiting", reason: "rate_limited", harness: "claude", resets_at: RESET, wait_ms: 1000, until: RESET })
      .emit({ type: "node.started", node: "write", kind: "agent", attempt: 2, harness: "claude" });
    expect(frame(r, Date.parse(RESET))).not.toContain("waiting for the claude usage limit");
  });

  test("paused at the limit: 'paused: claude usage limit, resets 15:00 UTC' and how to go on", () => {
    const r = limitedRun()
      .emit({
        type: "run.paused",
        reason: "rate_limited",
        harness: "claude",
        resets_at: RESET,
        approvals: [],
        limited: [{ node: "write", harness: "claude", resets_at: RESET }],
      })
      .emit({
        type: "run.finished",
        status: "paused",
        exit_code: 4,
        reason: "rate_limited",
        cost_usd: 0,
        cost_unknown: 0,
        wall_ms: 1,
        counts: { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 },
      });
    const text = frame(r, Date.parse("2026-11-29T10:00:00Z"));
    expect(text).toContain("paused: claude usage limit, resets 15:00 UTC");
    expect(text).toContain(`  vouch resume ${r.run}  (add --wait-limits to wait for the reset)`);
  });
});

test("plain lines: the held attempt, the wait and the pause, each in one line", async () => {
  let text = "";
  const out = createPlainOutput((t) => (text += t), { color: false, width: 200 });
  const r = limitedRun()
    .emit({
      type: "run.waiting",
      reason: "rate_limited",
      harness: "claude",
      resets_at: null,
      wait_ms: 60_000,
      until: "2026-11-29T10:01:00.300Z",
    })
    .emit({ type: "run.paused", reason: "rate_limited", harness: "claude", resets_at: RESET, approvals: [], limited: [] });
  for (const e of r.events) out.push(e);
  await out.close();
  expect(text).toContain("write attempt 1 held by the claude usage limit, resets 15:00 UTC");
  expect(text).toMatch(/waiting for the claude usage limit, reset time unknown, trying again 10:01 UTC · 1m left/);
  expect(text).toContain("paused: claude usage limit, resets 15:00 UTC");
  expect(text).toContain(`    vouch resume ${r.run}  (add --wait-limits to wait for the reset)`);
});

test("a held or paused node is named by its path, as every reader names it: each[3].write", () => {
  expect(nodeAt({ node: "write" })).toBe("write");
  expect(nodeAt({ node: "write", branch: { map: "each", index: 3 } })).toBe("each[3].write");
});
