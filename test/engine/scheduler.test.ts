// Pure scheduling decisions: no timers, no promises, no ports.
import { describe, expect, test } from "vitest";
import { graphOf } from "./helpers/run-helper.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { buildScopeIndex } from "../../src/engine/scheduler/scope-index.ts";
import { DagScheduler, type Action, type Finished } from "../../src/engine/scheduler/dag-scheduler.ts";
import { disposition } from "../../src/engine/scheduler/readiness.ts";

function indexOf(nodesYaml: string) {
  return buildScopeIndex(graphOf(`version: 1\nname: t\nnodes:\n${nodesYaml}`).nodes);
}

/** A scheduler whose decisions run everything ready (or follow `skip`). */
function scheduler(nodesYaml: string, skip: Record<string, Extract<Action, { type: "skip" }>["cause"]> = {}) {
  const index = indexOf(nodesYaml);
  const s: DagScheduler = new DagScheduler(index, (id) =>
    skip[id]
      ? { run: false, status: "skipped", cause: skip[id]! }
      : disposition({ needs: index.needs.get(id)!.map((n) => s.state(n)!), notChosen: false, stopping: false }),
  );
  return s;
}

const ids = (actions: Action[]) => actions.map((a) => (a.type === "run" ? a.id : `${a.id}:${a.cause}`));
const passed: Finished = { status: "passed", recovered: false };
const failed: Finished = { status: "failed", recovered: false };

describe("DagScheduler", () => {
  test("starts every root at once and a node as soon as its last need finishes", () => {
    const s = scheduler(`
  a: { kind: end }
  b: { kind: end }
  c: { kind: end, needs: [a, b] }
  d: { kind: end, needs: [a] }
`);
    expect(ids(s.start())).toEqual(["a", "b"]);
    expect(ids(s.finish("a", passed))).toEqual(["d"]); // c still waits for b
    expect(ids(s.finish("b", passed))).toEqual(["c"]);
    expect(s.isComplete()).toBe(false);
    s.finish("c", passed);
    s.finish("d", passed);
    expect(s.isComplete()).toBe(true);
  });

  test("a failed need skips its dependents transitively, and the skips are reported in order", () => {
    const s = scheduler(`
  a: { kind: end }
  b: { kind: end, needs: [a] }
  c: { kind: end, needs: [b] }
`);
    s.start();
    expect(ids(s.finish("a", failed))).toEqual(["b:upstream_not_passed", "c:upstream_not_passed"]);
    expect(s.isComplete()).toBe(true);
  });

  test("a recovered failure lets its dependents run", () => {
    const s = scheduler(`
  a: { kind: end }
  b: { kind: end, needs: [a] }
`);
    s.start();
    expect(ids(s.finish("a", { status: "error", recovered: true }))).toEqual(["b"]);
  });

  test("a fallback target waits for a trigger, runs once, and is skipped fallback_unused when no owner fails", () => {
    const t = scheduler(`
  a: { kind: script, run: "true", fallback: fb }
  b: { kind: script, run: "true", fallback: fb }
  fb: { kind: end }
`);
    expect(ids(t.start())).toEqual(["a", "b"]); // fb not started
    expect(ids(t.finish("a", failed, "fb"))).toEqual(["fb"]);
    expect(t.canTrigger("fb")).toBe(false);
    expect(ids(t.finish("b", failed, "fb"))).toEqual([]); // once, even if several fail
    const u = scheduler(`
  a: { kind: script, run: "true", fallback: fb }
  b: { kind: script, run: "true", fallback: fb }
  fb: { kind: end }
`);
    u.start();
    expect(ids(u.finish("a", passed))).toEqual([]);
    expect(ids(u.finish("b", passed))).toEqual(["fb:fallback_unused"]);
    expect(u.isComplete()).toBe(true);
  });

  test("router targets implicitly need their router", () => {
    const idx = indexOf(`
  r: { kind: router, routes: [{ when: { inputs.x: 1 }, to: [a] }], default: [b] }
  a: { kind: end }
  b: { kind: end }
`);
    expect(idx.needs.get("a")).toEqual(["r"]);
    expect(idx.needs.get("b")).toEqual(["r"]);
    expect(idx.routersOf.get("a")).toEqual(["r"]);
  });

  test("kept nodes (resume) count as finished and release their dependents once", () => {
    let decided = 0;
    const index = indexOf(`
  a: { kind: end }
  b: { kind: end, needs: [a] }
`);
    const s: DagScheduler = new DagScheduler(index, () => {
      decided++;
      return { run: true };
    });
    expect(ids(s.start(new Map([["a", passed]])))).toEqual(["b"]);
    expect(decided).toBe(1);
  });

  test("feedback chain: every node on a path from `to` to X, and outside dependents of the chain wait for X", () => {
    const idx = indexOf(`
  plan: { kind: end }
  impl: { kind: end, needs: [plan] }
  lint: { kind: end, needs: [impl] }
  side: { kind: end, needs: [impl] }
  review: { kind: script, run: "true", needs: [lint], feedback: { to: impl, max: 2 } }
  ship: { kind: end, needs: [review] }
`);
    expect(idx.feedbackChains.get("review")).toEqual(["impl", "lint", "review"]);
    expect(idx.waitsFor.get("side")).toEqual(["impl", "review"]); // held until the loop settles
    expect(idx.needs.get("side")).toEqual(["impl"]); // but its verdict rules only see impl
  });

  test("reset puts a chain back to waiting and starts again from its head", () => {
    const s = scheduler(`
  impl: { kind: end }
  review: { kind: script, run: "true", needs: [impl], feedback: { to: impl, max: 2 } }
  ship: { kind: end, needs: [review] }
`);
    expect(ids(s.start())).toEqual(["impl"]);
    expect(ids(s.finish("impl", passed))).toEqual(["review"]);
    expect(ids(s.reset(["impl", "review"]))).toEqual(["impl"]);
    expect(s.isFinished("impl")).toBe(false);
    expect(ids(s.finish("impl", passed))).toEqual(["review"]);
    expect(ids(s.finish("review", passed))).toEqual(["ship"]);
  });

  test("work per finished node is proportional to its dependents (no scan of the graph)", () => {
    const n = 2000;
    const nodes: Record<string, unknown> = { root: { kind: "end" } };
    for (let i = 0; i < n; i++) nodes[`n${i}`] = { kind: "end", needs: ["root"] };
    let decided = 0;
    const index = buildScopeIndex(graphSchema.parse({ version: 1, name: "t", nodes }).nodes);
    const s = new DagScheduler(index, () => {
      decided++;
      return { run: true };
    });
    s.start();
    expect(s.finish("root", passed)).toHaveLength(n);
    for (let i = 0; i < n; i++) s.finish(`n${i}`, passed);
    expect(decided).toBe(n + 1);
    expect(s.isComplete()).toBe(true);
  });
});

describe("disposition (ADR 0002 order)", () => {
  const p = { status: "passed" as const, recovered: false };
  const sk = { status: "skipped" as const, recovered: false };
  const f = { status: "failed" as const, recovered: false };
  test("every need skipped → upstream_not_passed; a root is never skipped for that", () => {
    expect(disposition({ needs: [sk, sk], notChosen: false, stopping: false })).toMatchObject({ run: false, cause: "upstream_not_passed" });
    expect(disposition({ needs: [], notChosen: false, stopping: false })).toEqual({ run: true });
  });
  test("a join after a router runs when one side was skipped", () => {
    expect(disposition({ needs: [p, sk], notChosen: false, stopping: false })).toEqual({ run: true });
  });
  test("a failed need outranks when; when is not evaluated then", () => {
    let asked = false;
    const d = disposition({ needs: [f], notChosen: false, stopping: false, when: () => ((asked = true), false) });
    expect(d).toMatchObject({ cause: "upstream_not_passed" });
    expect(asked).toBe(false);
  });
  test("not chosen by a router, then when false", () => {
    expect(disposition({ needs: [p], notChosen: true, stopping: false })).toMatchObject({ cause: "not_chosen" });
    expect(disposition({ needs: [p], notChosen: false, stopping: false, when: () => false })).toMatchObject({
      status: "skipped",
      cause: "condition_false",
    });
  });
  test("a stopping run cancels what would start", () => {
    expect(disposition({ needs: [p], notChosen: false, stopping: true })).toEqual({ run: false, status: "cancelled", cause: "cancelled" });
  });
  // Issue 27 item 15: a router may read the status of what it needs.
  test("a router runs over a failed or error need (its when too); not over all-skipped or a cancelled one", () => {
    const e = { status: "error" as const, recovered: false };
    const c = { status: "cancelled" as const, recovered: false };
    const router = { notChosen: false, stopping: false, readsStatus: true };
    expect(disposition({ ...router, needs: [f] })).toEqual({ run: true });
    expect(disposition({ ...router, needs: [e, p] })).toEqual({ run: true });
    expect(disposition({ ...router, needs: [f], when: () => false })).toMatchObject({ cause: "condition_false" });
    expect(disposition({ ...router, needs: [sk, sk] })).toMatchObject({ cause: "upstream_not_passed" });
    expect(disposition({ ...router, needs: [c, p] })).toMatchObject({ cause: "upstream_not_passed" });
    expect(disposition({ ...router, needs: [f], stopping: true })).toMatchObject({ status: "cancelled" });
  });
});
