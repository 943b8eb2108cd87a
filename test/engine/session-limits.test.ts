// retry.session: continue (ADR 0023) meeting usage limits (ADR 0022): a sitting
// cut off by a limit is no attempt to continue from, but when it resumed the
// session it added to it: the next sitting in that session is handed the
// session's total including the limited sitting (else its spending is counted
// twice), and node.started names the attempt whose session it continues.
import { expect, test } from "vitest";
import type { Sitting } from "../../src/engine/ports.ts";
import { byNode } from "./helpers/fakes.ts";
import { finishedOf, ofType, retryContinueGraph, run } from "./helpers/run-helper.ts";

const g = retryContinueGraph;
const limited: Partial<Sitting> = {
  stopReason: "rate_limited",
  resultText: "",
  turns: 1,
  exitCode: 1,
  error: "claude hit a usage or rate limit",
  sessionId: "s-1",
  costUsd: 0.1,
  sessionCostUsd: 0.2,
};

test("the sitting after a limited one in the same session carries the limited sitting's total; node.started names attempt 1", async () => {
  const r = await run(g, {
    agents: byNode({
      work: [
        { resultText: "not json", sessionId: "s-1", costUsd: 0.1 },
        limited, // resumed s-1 (attempt 1 failed), cut off by the limit after spending 0.1
        { resultText: "{}", sessionId: "s-1", costUsd: 0.1, sessionCostUsd: 0.3 },
      ],
    }),
    options: { waitLimits: true },
  });
  const a = r.agents.assignments;
  expect(a.map((x) => x.session)).toEqual([
    undefined,
    { mode: "resume", id: "s-1", carriedCostUsd: 0.1 },
    { mode: "resume", id: "s-1", carriedCostUsd: 0.2 },
  ]);
  const started = ofType(r.events, "node.started").map((e) => e.session?.attempt);
  expect(started).toEqual([undefined, 1, 1]);
  const f = finishedOf(r.events, "work");
  expect(f).toMatchObject({ status: "passed", session_id: "s-1", session_cost_usd: 0.3 });
  expect(f.cost_usd).toBeCloseTo(0.3, 9);
});
