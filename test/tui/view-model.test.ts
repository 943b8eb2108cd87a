// The reducer on recorded event sequences: what the screen knows after each run.
import { describe, expect, test } from "vitest";
import type { VouchEvent } from "../../src/engine/events.ts";
import { entries, getAt } from "../../src/tui/chunked-list.ts";
import { initialState, reduce, reduceAll, type ViewState } from "../../src/tui/view-model.ts";
import { RunRecorder } from "./helpers/event-builder.ts";
import { loadFixture } from "./helpers/fake-terminal.ts";

const FIXTURES = ["map-mixed", "failed-check", "overruns", "approval", "retry-fallback", "big-map"];

function deepFreeze<T>(o: T, seen = new Set<unknown>()): T {
  if (o && typeof o === "object" && !seen.has(o)) {
    seen.add(o);
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v, seen);
  }
  return o;
}

describe("reduce is pure", () => {
  test.each(FIXTURES)("%s: no state is modified after it was produced", (name) => {
    let s: ViewState = deepFreeze(initialState());
    for (const e of loadFixture(name)) {
      const next = reduce(s, e); // a write into a frozen object throws in strict-mode modules
      expect(next).not.toBe(s);
      s = deepFreeze(next);
    }
    expect(s.events).toBe(loadFixture(name).length);
  });

  test("updating one branch of a big map shares the other chunks (no copy of the whole list)", () => {
    const s = reduceAll(loadFixture("big-map"));
    const before = s.maps.verify_each!.branches;
    const next = reduce(s, {
      v: 1,
      run: "r",
      t: "2026-11-29T11:00:00.000Z",
      seq: 9999,
      type: "branch.finished",
      branch: { map: "verify_each", index: 414 },
      status: "passed",
      verdict: "VERIFIED",
    });
    const after = next.maps.verify_each!.branches;
    expect(after.chunks[0]).toBe(before.chunks[0]); // branches 0..63 untouched, same object
    expect(after.chunks[6]).not.toBe(before.chunks[6]); // 414 lives in chunk 6
    expect(getAt(after, 414)?.verdictText).toBe("VERIFIED");
    expect(getAt(before, 414)?.status).toBe("running");
  });
});

describe("a map of 6 branches with mixed verdicts", () => {
  const s = reduceAll(loadFixture("map-mixed"));
  const m = s.maps.verify_each!;

  test("each branch keeps its label, status and verdict text", () => {
    const rows = [...entries(m.branches)].map((b) => [b.index, b.status, b.verdictText]);
    expect(rows).toEqual([
      [0, "passed", "VERIFIED"],
      [1, "passed", "FALSE"],
      [2, "passed", "UNVERIFIABLE"],
      [3, "passed", "VERIFIED"],
      [4, "error", "ERROR"],
      [5, "failed", "FAILED"],
    ]);
    expect(getAt(m.branches, 0)?.label).toBe("F-001 null deref in parse_header");
  });

  test("the map counts branches by status and by verdict, in order of first appearance", () => {
    expect(m).toMatchObject({ items: 6, started: 6, finished: 6, running: 0 });
    expect(m.statusCounts).toEqual({ passed: 4, failed: 1, error: 1, skipped: 0, cancelled: 0 });
    expect(m.verdictCounts).toEqual([
      ["VERIFIED", 2],
      ["FALSE", 1],
      ["UNVERIFIABLE", 1],
      ["ERROR", 1],
      ["FAILED", 1],
    ]);
  });

  test("branch nodes keep their attempts, retries and overruns", () => {
    const retried = getAt(m.branches, 2)!.nodes.verify_one!;
    expect(retried.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(retried.attempts[0]!.retry?.cause).toBe("output_invalid");
    const capped = getAt(m.branches, 4)!.nodes.verify_one!;
    // The cap.overrun itself, without its envelope (the read model keeps events in their own shape).
    expect(capped.overruns).toEqual([expect.objectContaining({ cap: "turns", limit: 1, actual: 2, attempt: 1, scope: "node" })]);
    expect(capped).toMatchObject({ status: "error", cause: "cap_stop", stop_reason: "turns" });
  });

  test("graph order, statuses and the run's end come from the events", () => {
    expect(s.order).toEqual(["parse", "verify_each", "done"]);
    expect(s.branchOrder).toEqual({ verify_each: ["verify_one"] });
    expect(s.nodes.parse).toMatchObject({ status: "passed", qualifier: "exit-only", cost_usd: 0.0121, turns: 2, wall_ms: 4200 });
    expect(s.nodes.done).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(s.end).toMatchObject({ status: "failed", exitCode: 1, costUsd: 0.1534 });
    expect(s.costUsd).toBe(0.1534);
  });
});

describe("other recorded runs", () => {
  test("a failed check keeps its tails, exit status and expectation", () => {
    const s = reduceAll(loadFixture("failed-check"));
    const fix = s.nodes.fix!;
    expect(fix).toMatchObject({ status: "failed", cause: "check_failed", result_tail: "PASS: fixed the addition in src/math.ts" });
    const [tests, lint] = fix.attempts[0]!.checks;
    expect(tests).toMatchObject({ name: "tests", passed: false, exit: 1, expect: "exit_zero" });
    expect(tests!.stdout_tail).toContain("Received: 4");
    expect(lint).toMatchObject({ name: "lint", passed: true });
    expect(fix.evidence?.map((e) => e.outcome)).toEqual(["passed", "not_applicable", "passed", "failed"]);
  });

  test("cap overruns are kept per node with limit and actual", () => {
    const s = reduceAll(loadFixture("overruns"));
    expect(s.nodes.summarize!.overruns).toEqual([expect.objectContaining({ cap: "turns", limit: 1, actual: 2, attempt: 1 })]);
    expect(s.nodes.triage!.overruns.map((o) => [o.cap, o.limit, o.actual])).toEqual([
      ["budget_usd", 0.001, 0.00472475],
      ["wall", 10000, 12000],
    ]);
    expect(s.runOverruns).toEqual([]);
  });

  test("an approval waits, and the run records where it paused", () => {
    const s = reduceAll(loadFixture("approval"));
    expect(s.nodes.ship).toMatchObject({ status: "waiting", kind: "approval" });
    expect(s.nodes.publish!.status).toBe("pending");
    expect(s.paused).toEqual([{ node: "ship", prompt: "Ship v2.3.0 to production?\nThe canary has been green for 30 minutes." }]);
    expect(s.end).toMatchObject({ status: "paused", exitCode: 4 });
  });

  test("a retry and a fallback are recorded on the node", () => {
    const s = reduceAll(loadFixture("retry-fallback"));
    const parse = s.nodes.parse!;
    expect(parse).toMatchObject({ status: "failed", attempt: 2, fallback: "parse_fault", cause: "output_invalid" });
    expect(parse.attempts.map((a) => [a.attempt, a.status, a.retry?.cause ?? null])).toEqual([
      [1, "retrying", "output_invalid"],
      [2, "failed", null],
    ]);
    expect(s.nodes.parse_fault!.status).toBe("error");
  });

  test("a big map caught live: finished/items, running branches, counts", () => {
    const s = reduceAll(loadFixture("big-map"));
    const m = s.maps.verify_each!;
    expect(m).toMatchObject({ items: 500, started: 416, finished: 412, running: 4 });
    expect(m.statusCounts.error).toBe(4);
    expect(m.verdictCounts.reduce((n, [, c]) => n + c, 0)).toBe(412);
    expect(s.end).toBeNull();
  });
});

describe("live figures and odd sequences", () => {
  test("the header cost follows progress, then the finished total, then the run's total", () => {
    const r = new RunRecorder();
    r.emit({
      type: "run.started",
      graph: "g",
      graph_path: "g.yaml",
      graph_digest: "d",
      inputs: {},
      caps: { budget_usd: 1, wall_ms: null },
      concurrency: 2,
      nodes: [{ id: "a", kind: "agent", needs: [] }],
      pass_env: [],
      harness: null,
      resumed: false,
      version: "0",
    });
    r.emit({ type: "node.started", node: "a", kind: "agent", attempt: 1 });
    r.emit({ type: "node.progress", node: "a", attempt: 1, cost_usd: 0.01 });
    r.emit({ type: "node.progress", node: "a", attempt: 1, cost_usd: 0.03 });
    r.emit({ type: "node.retrying", node: "a", attempt: 1, cause: "output_invalid", reason: "x", backoff_ms: 0 });
    r.emit({ type: "node.started", node: "a", kind: "agent", attempt: 2 });
    r.emit({ type: "node.progress", node: "a", attempt: 2, cost_usd: 0.02 });
    const costs: number[] = [];
    let s = initialState();
    for (const e of r.events) costs.push((s = reduce(s, e)).costUsd);
    expect(costs.slice(2).map((c) => Math.round(c * 1000) / 1000)).toEqual([0.01, 0.03, 0.03, 0.03, 0.05]);
    s = reduce(s, {
      ...r.events[0]!,
      seq: 99,
      type: "node.finished",
      node: "a",
      attempt: 2,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0.06,
      turns: 3,
      wall_ms: 10,
    } as VouchEvent);
    expect(s.costUsd).toBeCloseTo(0.06);
    s = reduce(s, {
      ...r.events[0]!,
      seq: 100,
      type: "run.finished",
      status: "passed",
      exit_code: 0,
      cost_usd: 0.07,
      cost_unknown: 0,
      wall_ms: 20,
      counts: { passed: 1, failed: 0, error: 0, skipped: 0, cancelled: 0 },
    } as VouchEvent);
    expect(s.costUsd).toBe(0.07);
  });

  test("a feedback round starting again keeps the earlier rounds' cost in the header", () => {
    const r = new RunRecorder();
    r.emit({
      type: "run.started",
      graph: "g",
      graph_path: "g.yaml",
      graph_digest: "d",
      inputs: {},
      caps: { budget_usd: 1, wall_ms: null },
      concurrency: 2,
      nodes: [{ id: "a", kind: "agent", needs: [] }],
      pass_env: [],
      harness: null,
      resumed: false,
      version: "0",
    });
    r.emit({ type: "node.started", node: "a", kind: "agent", attempt: 1, round: 1 });
    r.emit({ type: "node.progress", node: "a", attempt: 1, cost_usd: 0.1 });
    r.emit({
      type: "node.finished",
      node: "a",
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0.1,
      turns: 1,
      wall_ms: 10,
    });
    // The loop runs `a` again: attempt numbers start at 1 again, the first round's $0.10 was spent all the same.
    r.emit({ type: "node.started", node: "a", kind: "agent", attempt: 1, round: 2 });
    r.emit({ type: "node.progress", node: "a", attempt: 1, cost_usd: 0.02 });
    r.emit({
      type: "node.finished",
      node: "a",
      attempt: 1,
      status: "passed",
      qualifier: "exit-only",
      stop_reason: "complete",
      cause: null,
      cost_usd: 0.03,
      turns: 1,
      wall_ms: 10,
    });
    const costs: number[] = [];
    let s = initialState();
    for (const e of r.events) costs.push((s = reduce(s, e)).costUsd);
    expect(costs.slice(2).map((c) => Math.round(c * 1000) / 1000)).toEqual([0.1, 0.1, 0.1, 0.12, 0.13]);
  });

  test("a resumed run keeps what passed and recounts a branch that runs again", () => {
    const first = loadFixture("map-mixed").filter((e) => e.type !== "run.finished");
    let s = reduceAll(first);
    const again = first[0]!;
    s = reduce(s, { ...again, seq: 100, resumed: true } as VouchEvent);
    expect(s.nodes.parse!.status).toBe("passed");
    s = reduce(s, {
      ...again,
      seq: 101,
      type: "branch.started",
      branch: { map: "verify_each", index: 4 },
      item: {},
      label: "F-005 unchecked malloc",
    } as VouchEvent);
    const m = s.maps.verify_each!;
    expect(m).toMatchObject({ finished: 5, running: 1, started: 6 });
    expect(m.statusCounts.error).toBe(0);
    expect(m.verdictCounts.find(([v]) => v === "ERROR")).toBeUndefined();
  });

  test("events for nodes the run never declared still show (a ledger read mid-run)", () => {
    const s = reduceAll([
      {
        v: 1,
        run: "r",
        t: "2026-11-29T10:00:00Z",
        seq: 5,
        type: "node.finished",
        node: "x",
        attempt: 1,
        status: "failed",
        qualifier: null,
        stop_reason: "complete",
        cause: "nonzero_exit",
        cost_usd: null,
        turns: null,
        wall_ms: 5,
      },
      {
        v: 1,
        run: "r",
        t: "2026-11-29T10:00:01Z",
        seq: 6,
        type: "branch.finished",
        branch: { map: "m", index: 3 },
        status: "passed",
        verdict: { ok: true },
      },
    ]);
    expect(s.order).toEqual(["x", "m"]);
    expect(s.nodes.x!.status).toBe("failed");
    expect(getAt(s.maps.m!.branches, 3)?.verdictText).toBe('{"ok":true}');
  });
});
