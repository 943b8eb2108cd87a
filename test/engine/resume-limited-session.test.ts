// A sitting cut off by a usage limit may have added to a session that a later node
// continues: a resumed run counts that session's next sitting from the limited
// sitting's total, not from the older node.finished (the seams review of issue 16).
import { describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { priorFromEvents } from "../../src/engine/run/resume.ts";

const env = (seq: number) => ({ v: 1 as const, run: "r", t: "2026-12-01T10:00:00.000Z", seq });

describe("resume and a limited sitting's session total", () => {
  test("node.limited's session_cost_usd is the session's latest total", () => {
    const events = [
      {
        ...env(0),
        type: "node.finished",
        node: "x",
        attempt: 1,
        status: "passed",
        qualifier: "exit-only",
        stop_reason: "complete",
        cause: null,
        cost_usd: 0.1,
        turns: 1,
        wall_ms: 1,
        tokens: null,
        evidence: [],
        session_id: "s1",
      },
      {
        ...env(1),
        type: "node.limited",
        node: "y",
        attempt: 1,
        harness: "claude",
        resets_at: null,
        error: "limit",
        cost_usd: 0.1,
        turns: 1,
        session_id: "s1",
        session_cost_usd: 0.2,
      },
    ] as unknown as VouchEvent[];
    expect(priorFromEvents(events).sessionCosts).toEqual({ s1: 0.2 });
  });
});
