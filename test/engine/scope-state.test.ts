// A scope's state as one value (src/engine/run/scope-state.ts, ADR 0036): whatever
// the order of transitions, the run's counts it reports, its running and paused
// counts and the views templates read follow the node states exactly; a feedback
// loop uncounts what it sends back and keeps what the next round reads.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { NodeStatus } from "../../src/engine/events.ts";
import { buildScopeIndex } from "../../src/engine/scheduler/scope-index.ts";
import { ScopeState, isSettled, outcomeOf } from "../../src/engine/run/scope-state.ts";
import { graphOf } from "./helpers/run-helper.ts";

const index = buildScopeIndex(
  graphOf(`
version: 1
name: t
nodes:
  impl: { kind: agent, prompt: i }
  review: { kind: agent, prompt: r, needs: [impl], feedback: { to: impl, max: 3 } }
  gate: { kind: approval, needs: [review] }
  done: { kind: end, needs: [gate] }
`).nodes,
);

function tallied() {
  const counts: Record<string, number> = {};
  const state = new ScopeState(index, (status, selfReported, delta) => {
    counts[status] = (counts[status] ?? 0) + delta;
    if (selfReported) counts.self_reported = (counts.self_reported ?? 0) + delta;
  });
  return { state, counts };
}

/** The counts the states stand for, computed afresh. */
function expected(state: ScopeState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of index.ids) {
    const s = state.get(id);
    if (!isSettled(s)) continue;
    const o = outcomeOf(s);
    out[o.status] = (out[o.status] ?? 0) + 1;
    if (o.selfReported) out.self_reported = (out.self_reported ?? 0) + 1;
  }
  return out;
}

const nonZero = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).filter(([, n]) => n !== 0));

const STATUSES: NodeStatus[] = ["passed", "failed", "error", "skipped", "cancelled"];
const step = fc.oneof(
  fc.record({ op: fc.constant("run" as const), id: fc.constantFrom(...index.ids) }),
  fc.record({ op: fc.constant("pause" as const), id: fc.constantFrom(...index.ids) }),
  fc.record({
    op: fc.constant("finish" as const),
    id: fc.constantFrom(...index.ids),
    status: fc.constantFrom(...STATUSES),
    selfReported: fc.boolean(),
  }),
  fc.record({
    op: fc.constant("skip" as const),
    id: fc.constantFrom(...index.ids),
    status: fc.constantFrom("skipped" as const, "cancelled" as const),
  }),
  fc.record({ op: fc.constant("keep" as const), id: fc.constantFrom(...index.ids), self: fc.boolean() }),
  fc.record({ op: fc.constant("loop" as const) }),
);

describe("ScopeState", () => {
  test("the counts, the running and paused numbers and the views always follow the states", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const { state, counts } = tallied();
        const lastView = new Map<string, unknown>();
        for (const s of steps) {
          if (s.op === "run") state.run(s.id);
          else if (s.op === "pause") state.pause(s.id, "ok?");
          else if (s.op === "finish") {
            const view = { status: s.status };
            state.finish(s.id, { status: s.status, recovered: false, selfReported: s.status === "passed" && s.selfReported }, view);
            lastView.set(s.id, view);
          } else if (s.op === "skip") {
            const view = { status: s.status };
            state.skip(s.id, s.status, "upstream_not_passed", view);
            lastView.set(s.id, view);
          } else if (s.op === "keep") {
            const view = { status: "passed" as const };
            state.keep(s.id, s.self ? "self-reported" : "verified", view);
            lastView.set(s.id, view);
          } else {
            const view = { status: "failed" as const };
            state.loop("review", index.feedbackChains.get("review")!, "impl", "quoted", view);
            lastView.set("review", view);
          }
          expect(nonZero(counts)).toEqual(expected(state));
          expect(state.running).toBe(index.ids.filter((id) => state.get(id).phase === "running").length);
          expect(state.paused).toBe(index.ids.filter((id) => state.get(id).phase === "paused").length);
          for (const id of index.ids) expect(state.views[id]).toBe(lastView.get(id));
        }
      }),
    );
  });

  test("a feedback loop sends the chain back a round on, uncounted, the head quoted and the owner's result kept", () => {
    const { state, counts } = tallied();
    state.finish("impl", { status: "passed", recovered: false, selfReported: true }, { status: "passed" });
    state.run("review");
    expect(counts).toEqual({ passed: 1, self_reported: 1 });
    state.loop("review", ["impl", "review"], "impl", "review said no", { status: "failed" });
    expect(nonZero(counts)).toEqual({});
    expect(state.get("impl")).toMatchObject({ phase: "waiting", round: 2, quote: "review said no" });
    expect(state.get("review")).toMatchObject({ phase: "waiting", round: 2, loops: 1 });
    expect(state.views.review).toEqual({ status: "failed" });
    expect(state.views.impl).toEqual({ status: "passed" });
    expect(state.running).toBe(0);
    expect(state.entries()).toEqual([]);
  });

  test("entries: a fallback that ran handles its owner; an end speaks only through nodes that ran", () => {
    const { state } = tallied();
    state.finish("impl", { status: "failed", recovered: false, selfReported: false }, { status: "failed" });
    state.skip("review", "skipped", "upstream_not_passed", { status: "skipped" });
    state.skip("gate", "skipped", "upstream_not_passed", { status: "skipped" });
    state.finish("done", { status: "passed", recovered: false, selfReported: false }, { status: "passed" });
    const e = Object.fromEntries(state.entries().map((x) => [x.id, x]));
    expect(e.impl).toMatchObject({ status: "failed", upstreamOfEnd: false, handled: false });
    expect(e.done).toMatchObject({ kind: "end", status: "passed" });
  });
});
