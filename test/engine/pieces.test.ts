// Conditions, aggregation, slots, caps, inputs: small pure pieces.
import { describe, expect, test } from "vitest";
import { evaluateCondition } from "../../src/engine/condition.ts";
import { aggregate, countBranches, decideMap } from "../../src/engine/scheduler/aggregate.ts";
import { Slots, AbortedWhileWaiting } from "../../src/engine/scheduler/slots.ts";
import { DEFAULT_SITTING_CAPS, defaultedCaps, OverrunOnce, overruns, mergeCaps, toSittingCaps } from "../../src/engine/caps.ts";
import { resolveInputs } from "../../src/engine/run/inputs.ts";
import { InputError } from "../../src/engine/errors.ts";
import { graphOf } from "./helpers/run-helper.ts";

describe("conditions are data", () => {
  const scope = { inputs: { mode: "fast", n: 3 }, nodes: { review: { status: "passed", output: { verdict: "clean", tags: ["a"] } } } };
  test("equality, in, matches, exists, equals, comparisons, all/any/not", () => {
    expect(evaluateCondition({ "nodes.review.output.verdict": "clean" }, scope)).toBe(true);
    expect(evaluateCondition({ "inputs.mode": { in: ["slow", "fast"] } }, scope)).toBe(true);
    expect(evaluateCondition({ "inputs.mode": { matches: "^f" } }, scope)).toBe(true);
    expect(evaluateCondition({ "nodes.nope.output": { exists: false } }, scope)).toBe(true);
    expect(evaluateCondition({ "nodes.review.output.tags": { equals: ["a"] } }, scope)).toBe(true);
    expect(evaluateCondition({ "inputs.n": { gt: 2 }, "inputs.mode": "fast" }, scope)).toBe(true);
    expect(evaluateCondition({ "inputs.n": { lt: 2 } }, scope)).toBe(false);
    expect(evaluateCondition({ any: [{ "inputs.mode": "slow" }, { not: { "inputs.n": 4 } }] }, scope)).toBe(true);
    expect(evaluateCondition({ all: [{ "inputs.mode": "fast" }, { "inputs.n": "3" }] }, scope)).toBe(false); // no coercion
  });
  test("a missing path makes a test false instead of throwing", () => {
    expect(evaluateCondition({ "nodes.ghost.output.verdict": "clean" }, scope)).toBe(false);
    expect(evaluateCondition({ "nodes.ghost.output.verdict": { matches: ".*" } }, scope)).toBe(false);
  });
});

describe("aggregation", () => {
  const e = (
    id: string,
    status: "passed" | "failed" | "error" | "skipped" | "cancelled",
    x: Partial<{ kind: string; recovered: boolean; handled: boolean; upstreamOfEnd: boolean }> = {},
  ) => ({
    id,
    kind: x.kind ?? "agent",
    status,
    recovered: x.recovered ?? false,
    handled: x.handled ?? false,
    upstreamOfEnd: x.upstreamOfEnd ?? false,
  });
  test("failed outranks error; error is never turned into failed", () => {
    expect(aggregate([e("a", "error"), e("b", "failed")]).status).toBe("failed");
    expect(aggregate([e("a", "error"), e("b", "passed")]).status).toBe("error");
  });
  test("recovered and fallback-handled nodes do not sink; ends decide when they ran", () => {
    expect(aggregate([e("a", "error", { recovered: true }), e("b", "passed")]).status).toBe("passed");
    expect(aggregate([e("a", "failed", { handled: true }), e("fb", "error", { kind: "end" })])).toEqual({
      status: "error",
      decidedBy: "fb",
    });
    expect(aggregate([e("a", "failed", { upstreamOfEnd: true }), e("done", "passed", { kind: "end" })])).toEqual({
      status: "passed",
      decidedBy: "done",
    });
  });
  test("an end never speaks for work it does not depend on: the worst such outcome overrules it", () => {
    expect(aggregate([e("a", "failed"), e("done", "passed", { kind: "end" })])).toEqual({ status: "failed" });
    expect(aggregate([e("a", "error"), e("done", "passed", { kind: "end" })])).toEqual({ status: "error" });
    expect(aggregate([e("a", "error"), e("done", "failed", { kind: "end" })])).toEqual({ status: "failed", decidedBy: "done" });
    expect(aggregate([e("a", "failed"), e("done", "error", { kind: "end" })])).toEqual({ status: "failed" });
    expect(aggregate([e("a", "cancelled", { upstreamOfEnd: true }), e("done", "passed", { kind: "end" })])).toEqual({
      status: "cancelled",
    });
  });
  test("map passes: all / any / min, failed before error", () => {
    const c = countBranches([{ status: "passed" }, { status: "error", recovered: true }, { status: "failed" }]);
    expect(decideMap(c, 3, "all", false)).toEqual({ status: "failed", cause: "map_failed" });
    expect(decideMap(c, 3, "any", false)).toEqual({ status: "passed", cause: null });
    expect(decideMap(c, 3, { min: 2 }, false)).toEqual({ status: "failed", cause: "map_failed" });
    const errs = countBranches([{ status: "passed" }, { status: "error" }]);
    expect(decideMap(errs, 2, "all", false)).toEqual({ status: "error", cause: "map_error" });
    expect(decideMap(countBranches([]), 0, "all", false).status).toBe("passed"); // vacuous
    expect(decideMap(countBranches([{ status: "passed" }, { status: "error", recovered: true }]), 2, "all", false).status).toBe("passed");
  });
});

describe("Slots", () => {
  test("never more than the limit, FIFO, and a waiter leaves on abort", async () => {
    const slots = new Slots(2);
    const r1 = await slots.acquire();
    const r2 = await slots.acquire();
    const order: string[] = [];
    const ctl = new AbortController();
    const w3 = slots.acquire().then((r) => (order.push("3"), r));
    const w4 = slots.acquire(ctl.signal).catch((e) => (order.push("4-aborted"), e));
    const w5 = slots.acquire().then((r) => (order.push("5"), r));
    expect(slots.inUse).toBe(2);
    ctl.abort();
    expect(await w4).toBeInstanceOf(AbortedWhileWaiting);
    r1();
    r1(); // releasing twice frees one slot only
    const r3 = await w3;
    expect(slots.inUse).toBe(2);
    r2();
    await w5;
    expect(order).toEqual(["4-aborted", "3", "5"]);
    r3();
  });
});

describe("caps", () => {
  // Issue 28 item 4: a sitting with no wall or idle cap of its own ran for ever (codex reconnecting).
  test("a sitting gets the default wall and idle caps unless it sets its own; none removes one", () => {
    expect(DEFAULT_SITTING_CAPS).toEqual({ wallMs: 3_600_000, idleMs: 900_000 });
    expect(toSittingCaps({})).toEqual({ wallMs: 3_600_000, idleMs: 900_000 });
    expect(defaultedCaps({})).toEqual(["wall", "idle"]);
    expect(toSittingCaps(mergeCaps({ wall: 60_000 }, { idle: "none" }))).toEqual({ wallMs: 60_000 });
    expect(defaultedCaps(mergeCaps({ wall: 60_000 }, { idle: "none" }))).toEqual([]);
    // A node's duration replaces defaults.caps' none, and the other way round.
    expect(toSittingCaps(mergeCaps({ wall: "none", idle: "none" }, { wall: 5_000 }))).toEqual({ wallMs: 5_000 });
    expect(toSittingCaps(mergeCaps({ wall: 5_000 }, { wall: "none" }))).toEqual({ idleMs: 900_000 });
  });

  test("defaults merge key by key; overruns are strict and reported once per cap", () => {
    const caps = toSittingCaps(mergeCaps({ turns: 12, budget_usd: 0.5 }, { turns: 1 }));
    expect(caps).toEqual({ turns: 1, budgetUsd: 0.5, ...DEFAULT_SITTING_CAPS });
    expect(overruns(caps, { turns: 1, costUsd: 0.5 })).toEqual([]);
    const once = new OverrunOnce();
    expect(once.fresh(overruns(caps, { turns: 2 }))).toEqual([{ cap: "turns", limit: 1, actual: 2 }]);
    expect(once.fresh(overruns(caps, { turns: 3, costUsd: 0.6 }))).toEqual([{ cap: "budget_usd", limit: 0.5, actual: 0.6 }]);
  });
});

describe("inputs", () => {
  const g = graphOf(`
version: 1
name: t
inputs:
  findings: { required: true, description: review text }
  dir: { default: "." }
nodes: { a: { kind: end } }
`);
  test("defaults merge; a missing required input and an unknown one are InputErrors", () => {
    expect(resolveInputs(g, { findings: "x" })).toEqual({ findings: "x", dir: "." });
    expect(() => resolveInputs(g, {})).toThrow(InputError);
    expect(() => resolveInputs(g, {})).toThrow(/findings \(review text\)/);
    expect(() => resolveInputs(g, { findings: "x", typo: 1 })).toThrow(/unknown input "typo"/);
  });
});
