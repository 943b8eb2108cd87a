// The coordinator's rule for a job's messages (ADR 0046), whatever the transport: only
// the newest attempt heard from decides the branch. A result of an older attempt (one
// cut off while its worker was frozen, its result arriving late) is refused and said.
import { expect, test } from "vitest";
import type { BranchJobOutcome, RefusedResult } from "../../src/engine/ports.ts";
import { route, type PendingJob } from "../../src/executor/pending-job.ts";

function pending() {
  const told: string[] = [];
  const refused: RefusedResult[] = [];
  const p: PendingJob = {
    hooks: {
      signal: new AbortController().signal,
      stopReason: () => null,
      onAttempt: (a, w) => told.push(`attempt ${a} ${w}`),
      onEvent: (e) => told.push(`event ${e.attempt}:${e.seq}`),
      onRefused: (r) => refused.push(r),
    },
    resolve: () => {},
    reject: () => {},
    added: true,
    attempt: 0,
    state: "active",
    cancelledAt: null,
    endedAt: null,
  };
  return { p, told, refused };
}

const outcome = (attempt: number, status: BranchJobOutcome["status"]): BranchJobOutcome => ({
  worker: `w${attempt}`,
  attempt,
  status,
  output: null,
  error: null,
  counts: { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 },
  costUnknown: 0,
});

test("a result from an attempt older than one heard from is refused; the newest attempt's decides", () => {
  const { p, told, refused } = pending();
  expect(route(p, { kind: "attempt", job: "j", worker: "w1", attempt: 1 })).toBeNull();
  expect(
    route(p, { kind: "event", job: "j", event: { worker: "w2", attempt: 2, seq: 0, body: { type: "node.started" } as never } }),
  ).toBeNull();
  expect(route(p, { kind: "result", job: "j", outcome: outcome(1, "passed") })).toBeNull();
  expect(refused).toEqual([{ attempt: 1, worker: "w1", status: "passed", reason: expect.stringContaining("attempt 2 was heard from") }]);
  expect(route(p, { kind: "result", job: "j", outcome: outcome(2, "failed") })).toEqual(outcome(2, "failed"));
  expect(told).toEqual(["attempt 1 w1", "event 2:0"]);
});

test("a refusal the worker sent is told to the engine and decides nothing; that attempt decides nothing after it", () => {
  const { p, refused } = pending();
  const m = { kind: "refused", job: "j", worker: "w1", attempt: 1, status: "passed", reason: "lost its lease" } as const;
  expect(route(p, m)).toBeNull();
  expect(refused).toEqual([{ attempt: 1, worker: "w1", status: "passed", reason: "lost its lease" }]);
  expect(route(p, { kind: "result", job: "j", outcome: outcome(1, "passed") })).toBeNull();
  expect(refused).toHaveLength(2);
  expect(route(p, { kind: "result", job: "j", outcome: outcome(2, "passed") })).toEqual(outcome(2, "passed"));
});
