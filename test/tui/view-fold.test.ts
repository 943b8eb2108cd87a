// Letting finished branches go of the plain writer's view state (src/tui/view-fold.ts,
// ADR 0078): the run's seal line is the same as with every branch held, the branch's
// slot is gone, and hostile map ids stay own data.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { EventBody, VouchEvent } from "../../src/engine/events.ts";
import { sealSummary, sealTallyText } from "../../src/read/seal.ts";
import { entries } from "../../src/tui/chunked-list.ts";
import { reduce } from "../../src/tui/view-model.ts";
import { foldBranch, passedBranchRelease, runSeals } from "../../src/tui/view-fold.ts";
import { branchRows } from "../../src/tui/view-branch-rows.ts";
import { lineText } from "../../src/tui/lines.ts";
import { initialState, type NodeView, type ViewState } from "../../src/tui/view-state.ts";
import { nodeFinishedBody, RunRecorder } from "./helpers/event-builder.ts";

/** Every node the view holds (the oracle: a view that let no branch go). */
function allNodes(state: ViewState): NodeView[] {
  const out: NodeView[] = Object.values(state.nodes);
  for (const m of Object.values(state.maps)) for (const b of entries(m.branches)) out.push(...Object.values(b.nodes));
  return out;
}

type Seal = { sealed?: boolean; unsealed_reason?: string };

function finished(node: string, seal: Seal, branch?: { map: string; index: number }): EventBody {
  return nodeFinishedBody(node, { ...(branch ? { branch } : {}), ...seal });
}

/** A top node and a map whose branches finish in `order`, each with its seal. */
function events(map: string, top: Seal, seals: Seal[], order: number[]): VouchEvent[] {
  const r = new RunRecorder().started([
    { id: "first", kind: "agent" },
    { id: map, kind: "map" },
  ]);
  r.emit(finished("first", top));
  for (let i = 0; i < seals.length; i++)
    r.emit({ type: "branch.started", branch: { map, index: i }, item: i, label: `b${i}` } as EventBody);
  for (const i of order) {
    r.emit(finished("work", seals[i]!, { map, index: i }));
    r.emit({ type: "branch.finished", branch: { map, index: i }, status: "passed", verdict: null } as EventBody);
  }
  return r.events;
}

const seal: fc.Arbitrary<Seal> = fc.oneof(
  fc.constant({}),
  fc.constant({ sealed: true }),
  fc.record({ sealed: fc.constant(false), unsealed_reason: fc.constantFrom("sandbox: off", "no bwrap", "a", "b") }),
);

describe("view-fold", () => {
  test("the seal line with branches let go as they finish (in index order) equals the one with every branch held", () => {
    fc.assert(
      fc.property(seal, fc.array(seal, { minLength: 1, maxLength: 12 }), (top, seals) => {
        const order = seals.map((_, i) => i);
        let held: ViewState = initialState();
        let kept: ViewState = initialState();
        for (const e of events("each", top, seals, order)) {
          held = reduce(held, e);
          kept = reduce(kept, e);
          if (e.type === "branch.finished") kept = foldBranch(kept, e.branch);
        }
        expect(sealTallyText(runSeals(kept))).toBe(sealSummary(allNodes(held)));
        expect([...entries(kept.maps.each!.branches)]).toEqual([]);
        expect(kept.maps.each!.branches.chunks.every((c) => c === undefined)).toBe(true);
        // The map's folded counts stay.
        expect(kept.maps.each!.finished).toBe(seals.length);
        expect(kept.maps.each!.released).toBe(seals.length);
      }),
    );
  });

  test("a map named __proto__: its branch goes, nothing inherited is touched", () => {
    let s: ViewState = initialState();
    for (const e of events("__proto__", {}, [{ sealed: true }, { sealed: true }], [1, 0])) {
      s = reduce(s, e);
      if (e.type === "branch.finished") s = foldBranch(s, e.branch);
    }
    expect(Object.hasOwn(s.maps, "__proto__")).toBe(true);
    expect(sealTallyText(runSeals(s))).toBe("2 sealed");
    expect(({} as Record<string, unknown>).finished).toBeUndefined();
  });

  test("the live UI lets go of a map's oldest passed branches beyond `keep`; unpassed ones stay listed", () => {
    const release = passedBranchRelease(2);
    const r = new RunRecorder().started([{ id: "each", kind: "map" }]);
    const statuses = ["passed", "failed", "passed", "skipped", "passed"] as const;
    statuses.forEach((_, i) => r.emit({ type: "branch.started", branch: { map: "each", index: i }, item: i, label: `b${i}` } as EventBody));
    statuses.forEach((status, i) =>
      r.emit({
        type: "branch.finished",
        branch: { map: "each", index: i },
        status,
        verdict: null,
        ...(status === "failed" ? { error: "no" } : {}),
      } as EventBody),
    );
    let s: ViewState = initialState();
    for (const e of r.events) s = release(reduce(s, e), e);
    const m = s.maps.each!;
    expect([...entries(m.branches)].map((b) => b.index)).toEqual([1, 3, 4]);
    expect(m.released).toBe(2);
    expect(m.finished).toBe(5);
    const ctx = { now: 0, tick: 0, idWidth: 4, live: false };
    const rows = branchRows(m, [], ctx, null, undefined).map(lineText);
    expect(rows.some((l) => l.includes("+ 2 earlier passed branches not kept here"))).toBe(true);
    expect(rows.filter((l) => /#\d/.test(l))).toHaveLength(3);
  });
});
