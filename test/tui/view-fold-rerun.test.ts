// A map whose branches run again in one view — a feedback round re-runs every branch, a resumed
// run's `vouch watch` its failed ones — after some were let go (review of ADR 0078: the counts
// went to 5 of 3 finished, `running` stayed 1 for ever, and a running branch was let go by a
// stale queue entry). Property: over generated rounds, what the plain writer (every finished
// branch let go) and the live UI (keep 1) show equals the view that held every branch.
import fc from "fast-check";
import { expect, test } from "vitest";
import type { EventBody, NodeStatus, VouchEvent } from "../../src/engine/events.ts";
import { sealTallyText } from "../../src/read/seal.ts";
import { entries } from "../../src/tui/chunked-list.ts";
import { foldBranch, passedBranchRelease, runSeals } from "../../src/tui/view-fold.ts";
import { reduce } from "../../src/tui/view-model.ts";
import { initialState, type MapView, type ViewState } from "../../src/tui/view-state.ts";
import { nodeFinishedBody, RunRecorder } from "./helpers/event-builder.ts";

type Step = { index: number; status: NodeStatus; sealed: boolean };

function events(rounds: Step[][]): VouchEvent[] {
  const r = new RunRecorder().started([{ id: "each", kind: "map" }]);
  for (const round of rounds) {
    for (const s of round)
      r.emit({ type: "branch.started", branch: { map: "each", index: s.index }, item: s.index, label: `b${s.index}` } as EventBody);
    for (const s of round) {
      const branch = { map: "each", index: s.index };
      r.emit(
        nodeFinishedBody(
          "work",
          { branch, ...(s.sealed ? { sealed: true } : { sealed: false, unsealed_reason: "sandbox: off" }) },
          s.status,
        ),
      );
      r.emit({ type: "branch.finished", branch, status: s.status, verdict: null } as EventBody);
    }
  }
  return r.events;
}

const counts = (m: MapView) => ({
  started: m.started,
  running: m.running,
  finished: m.finished,
  statusCounts: m.statusCounts,
  verdicts: m.verdictCounts,
});

const step = (index: number) =>
  fc.record({
    index: fc.constant(index),
    status: fc.constantFrom<NodeStatus>("passed", "passed", "failed", "skipped", "error"),
    sealed: fc.boolean(),
  });
const rounds = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.array(
    fc
      .subarray(
        Array.from({ length: n }, (_, i) => i),
        { minLength: 1 },
      )
      .chain((idx) => fc.tuple(...idx.map(step))),
    { minLength: 1, maxLength: 4 },
  ),
);

test("property: rounds that re-run branches give the same counts and seal line let go as held", () => {
  fc.assert(
    fc.property(rounds, (rs) => {
      let held: ViewState = initialState();
      let plain: ViewState = initialState();
      let live: ViewState = initialState();
      const release = passedBranchRelease(1);
      for (const e of events(rs)) {
        held = reduce(held, e);
        plain = reduce(plain, e);
        live = release(reduce(live, e), e);
        if (e.type === "branch.finished") plain = foldBranch(plain, e.branch);
      }
      const want = counts(held.maps.each!);
      expect(counts(plain.maps.each!)).toEqual(want);
      expect(counts(live.maps.each!)).toEqual(want);
      // The counts; the reasons named are those first seen (ADR 0078).
      const line = (v: ViewState) => (sealTallyText(runSeals(v)) ?? "").replace(/ \(.*\)$/, "");
      expect(line(plain)).toBe(line(held));
      expect(line(live)).toBe(line(held));
      // Every unpassed branch is still listed by the live UI.
      const listed = new Set([...entries(live.maps.each!.branches)].map((b) => b.index));
      for (const b of entries(held.maps.each!.branches))
        if (b.status !== "passed" && b.status !== "skipped") expect(listed.has(b.index)).toBe(true);
    }),
    { numRuns: 300 },
  );
});

test("the reviewer's case: two rounds of three, index 0 failing in the second, keep 1", () => {
  const rs: Step[][] = [
    [0, 1, 2].map((index) => ({ index, status: "passed" as const, sealed: true })),
    [0, 1, 2].map((index) => ({ index, status: index === 0 ? ("failed" as const) : ("passed" as const), sealed: true })),
  ];
  let live: ViewState = initialState();
  const release = passedBranchRelease(1);
  for (const e of events(rs)) live = release(reduce(live, e), e);
  expect(counts(live.maps.each!)).toMatchObject({ started: 3, running: 0, finished: 3 });
  expect(live.maps.each!.statusCounts).toMatchObject({ passed: 2, failed: 1 });
  expect([...entries(live.maps.each!.branches)].map((b) => `${b.index}:${b.status}`)).toContain("0:failed");
});
