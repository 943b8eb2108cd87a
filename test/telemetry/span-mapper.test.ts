// The one mapping from events to spans (src/telemetry/span-mapper.ts), with events made
// here: the tree for shapes the binary tests do not reach (feedback rounds, sub-graphs, a
// killed session, a node that never started), the child-side ids it must agree with, and
// a property over any order of hostile events: it never throws, every span ends once,
// ids are unique, every parent is a span of the trace, and strings stay bounded.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import type { BranchRef, EventBody, VouchEvent } from "../../src/engine/events.ts";
import { childTrace } from "../../src/telemetry/child-trace.ts";
import { SpanMapper } from "../../src/telemetry/span-mapper.ts";
import { MAX_ATTRIBUTE_CHARS, MAX_SPAN_EVENTS, type SpanRecord } from "../../src/telemetry/span-record.ts";
import { parseTraceparent, runTraceId, type TraceRoot } from "../../src/telemetry/trace-ids.ts";

const RUN = "20261201-120000-abcdef";
const ROOT: TraceRoot = { traceId: runTraceId(RUN) };

function stream() {
  let seq = 0;
  let ms = Date.parse("2026-12-01T12:00:00.000Z");
  return (body: EventBody, advance = 10): VouchEvent => {
    ms += advance;
    return { v: 1, run: RUN, t: new Date(ms).toISOString(), seq: seq++, ...body } as VouchEvent;
  };
}

const started = (over: Partial<EventBody & { type: "run.started" }> = {}): EventBody =>
  ({
    type: "run.started",
    graph: "g",
    graph_path: "/g.yaml",
    graph_digest: "d",
    inputs: {},
    caps: { budget_usd: null, wall_ms: null },
    concurrency: 1,
    nodes: [],
    pass_env: [],
    harness: null,
    resumed: false,
    version: "0.1.0",
    ...over,
  }) as EventBody;
const nodeStarted = (node: string, kind: string, attempt = 1, more: Record<string, unknown> = {}): EventBody =>
  ({ type: "node.started", node, kind, attempt, ...more }) as EventBody;
const nodeFinished = (node: string, status: string, more: Record<string, unknown> = {}): EventBody =>
  ({
    type: "node.finished",
    node,
    attempt: 1,
    status,
    qualifier: null,
    stop_reason: null,
    cause: status === "passed" ? null : status === "failed" ? "check_failed" : status === "error" ? "timeout" : "upstream_not_passed",
    cost_usd: null,
    turns: null,
    wall_ms: 5,
    ...more,
  }) as EventBody;
const check = (node: string, name: string, passed: boolean, more: Record<string, unknown> = {}): EventBody =>
  ({
    type: "check.finished",
    node,
    attempt: 1,
    name,
    passed,
    expect: "exit_zero",
    exit: passed ? 0 : 1,
    signal: null,
    timed_out: false,
    duration_ms: 3,
    stdout_tail: "",
    stderr_tail: "",
    truncated: false,
    ...more,
  }) as EventBody;
const runFinished = (status = "passed"): EventBody =>
  ({
    type: "run.finished",
    status,
    exit_code: 0,
    cost_usd: 0,
    cost_unknown: 0,
    wall_ms: 1,
    counts: { passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 },
  }) as EventBody;

function mapAll(events: VouchEvent[], root = ROOT): SpanRecord[] {
  const m = new SpanMapper(root);
  return [...events.flatMap((e) => m.push(e)), ...m.finish()];
}
const named = (spans: SpanRecord[], name: string) => spans.filter((s) => s.name === name);

describe("the span tree", () => {
  test("a node on a feedback loop runs attempt 1 each round: a new span each time, and the child side counts the same", () => {
    const e = stream();
    const events = [
      e(started()),
      e(nodeStarted("write", "script", 1, { round: 1 })),
      e(check("write", "tests", false)),
      e(nodeFinished("write", "failed", { round: 1 })),
      e(nodeStarted("write", "script", 1, { round: 2 })),
      e(check("write", "tests", true)),
      e(nodeFinished("write", "passed", { round: 2 })),
      e(runFinished()),
    ];
    const spans = mapAll(events);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    const attempts = named(spans, "script write");
    expect(attempts).toHaveLength(2);
    const checks = named(spans, "execute_tool tests");
    expect(checks.map((c) => c.parentSpanId)).toEqual(attempts.map((a) => a.spanId));
    // The processes, in the order the engine starts them: script, its check, script, its check.
    const child = childTrace(ROOT, 0);
    const seen = [
      child({ node: "write", attempt: 1 }),
      child({ node: "write", attempt: 1, check: "tests" }),
      child({ node: "write", attempt: 1 }),
      child({ node: "write", attempt: 1, check: "tests" }),
    ].map((v) => parseTraceparent(v.TRACEPARENT)!.spanId);
    expect(seen).toEqual([attempts[0]!.spanId, checks[0]!.spanId, attempts[1]!.spanId, checks[1]!.spanId]);
  });

  test("a sub-graph's nodes hang under their graph node; a map branch's under the branch, the branch under the map", () => {
    const e = stream();
    const branch: BranchRef = { map: "each", index: 2 };
    const spans = mapAll([
      e(started()),
      e(nodeStarted("review", "graph")),
      e(nodeStarted("review/lint", "script")),
      e(nodeFinished("review/lint", "passed")),
      e(nodeFinished("review", "passed")),
      e(nodeStarted("each", "map", 1, { items: 3 })),
      e({ type: "branch.started", branch, item: "x", label: "x" } as EventBody),
      e(nodeStarted("one", "agent", 1, { branch, harness: "claude", model: "claude-opus-5" })),
      e(nodeFinished("one", "passed", { branch })),
      e({ type: "branch.finished", branch, status: "passed", verdict: null } as EventBody),
      e(nodeFinished("each", "passed")),
      e(runFinished()),
    ]);
    const id = (name: string) => named(spans, name)[0]!.spanId;
    expect(named(spans, "node review/lint")[0]!.parentSpanId).toBe(id("node review"));
    expect(named(spans, "branch each")[0]!.parentSpanId).toBe(id("node each"));
    expect(named(spans, "node one")[0]!.parentSpanId).toBe(id("branch each"));
    const sitting = named(spans, "invoke_agent one")[0]!;
    expect(sitting.parentSpanId).toBe(id("node one"));
    expect(sitting.attributes).toMatchObject({
      "gen_ai.provider.name": "anthropic",
      "gen_ai.agent.name": "each[2].one",
      "gen_ai.request.model": "claude-opus-5",
    });
  });

  test("a session killed without run.finished ends at its last event, marked unfinished; the resumed session is a second session span", () => {
    const e = stream();
    const spans = mapAll([
      e(started()),
      e(nodeStarted("slow", "agent", 1, { harness: "codex" })),
      e({
        type: "node.progress",
        node: "slow",
        attempt: 1,
        tokens: { input: 10, output: 2, cache_read: 5, cache_creation: 0 },
      } as EventBody),
      e(started({ resumed: true }), 60_000),
      e(nodeStarted("slow", "agent", 1, { harness: "codex" })),
      e(nodeFinished("slow", "passed")),
      e(runFinished()),
    ]);
    const sessions = named(spans, "vouch run g");
    expect(sessions).toHaveLength(2);
    expect(sessions[0]!.attributes["vouch.unfinished"]).toBe(true);
    const [killed, rerun] = named(spans, "invoke_agent slow");
    expect(killed!.attributes).toMatchObject({
      "vouch.unfinished": true,
      "gen_ai.usage.input_tokens": 15,
      "gen_ai.usage.output_tokens": 2,
    });
    expect(killed!.endMs).toBe(sessions[0]!.endMs);
    expect(killed!.endMs - killed!.startMs).toBe(10); // not the minute until the resume
    expect(rerun!.parentSpanId).not.toBe(killed!.parentSpanId);
    expect(named(spans, "node slow").map((n) => n.parentSpanId)).toEqual(sessions.map((s) => s.spanId));
  });

  test("a node that never started gets a span for its verdict; retries and overruns are span events", () => {
    const e = stream();
    const spans = mapAll([
      e(started()),
      e(nodeStarted("fix", "agent", 1, { harness: "gemini" })),
      e({ type: "cap.overrun", node: "fix", attempt: 1, scope: "node", cap: "turns", limit: 2, actual: 3 } as EventBody),
      e({ type: "node.retrying", node: "fix", attempt: 1, cause: "timeout", reason: "took too long", backoff_ms: 0 } as EventBody),
      e(nodeStarted("fix", "agent", 2, { harness: "gemini" })),
      e(nodeFinished("fix", "error", { attempt: 2, error: "timed out again" })),
      e(nodeFinished("after", "skipped")),
      e(runFinished("error")),
    ]);
    const [first, second] = named(spans, "invoke_agent fix");
    expect(first!.status).toEqual({ code: "error", message: "took too long" });
    expect(first!.events.map((x) => x.name)).toEqual(["vouch.cap.overrun"]);
    expect(second!.status).toEqual({ code: "error", message: "timed out again" });
    expect(named(spans, "node fix")[0]!.events.map((x) => x.name)).toEqual(["vouch.node.retrying"]);
    const after = named(spans, "node after")[0]!;
    expect([after.status.code, after.attributes["vouch.verdict"], after.endMs - after.startMs]).toEqual(["unset", "skipped", 5]);
    expect(named(spans, "vouch run g")[0]!.status.code).toBe("error");
  });
});

// --- any order of hostile events --------------------------------------------
const HOSTILE = [
  "__proto__",
  "constructor",
  "a/b",
  "a",
  "x\ny",
  "::set-output name=x::1",
  "%0A",
  "\u001b[31mred",
  `long${"é".repeat(5000)}`,
];
const name = fc.constantFrom(...HOSTILE);
const branch = fc.option(fc.record({ map: name, index: fc.nat(3) }), { nil: undefined });
const text = fc.oneof(name, fc.string({ maxLength: 50 }));
const eventBody: fc.Arbitrary<EventBody> = fc.oneof(
  fc
    .record({
      node: name,
      branch,
      kind: fc.constantFrom("agent", "script", "merge", "approval", "map", "graph"),
      attempt: fc.integer({ min: 1, max: 3 }),
    })
    .map(({ node, branch, kind, attempt }) => nodeStarted(node, kind, attempt, { ...(branch ? { branch } : {}), harness: node, round: 1 })),
  fc
    .record({ node: name, branch, n: text, passed: fc.boolean() })
    .map(({ node, branch, n, passed }) => check(node, n, passed, branch ? { branch } : {})),
  fc
    .record({ node: name, branch, status: fc.constantFrom("passed", "failed", "error", "skipped", "cancelled"), error: text })
    .map(({ node, branch, status, error }) => nodeFinished(node, status, { error, ...(branch ? { branch } : {}) })),
  fc.record({ node: name, branch }).map(
    ({ node, branch }) =>
      ({
        type: "node.retrying",
        node,
        attempt: 1,
        cause: "timeout",
        reason: "r",
        backoff_ms: 0,
        ...(branch ? { branch } : {}),
      }) as EventBody,
  ),
  fc
    .record({ b: fc.record({ map: name, index: fc.nat(3) }), label: text })
    .map(({ b, label }) => ({ type: "branch.started", branch: b, item: null, label }) as EventBody),
  fc
    .record({ map: name, index: fc.nat(3) })
    .map((b) => ({ type: "branch.finished", branch: b, status: "error", verdict: null, error: "e" }) as EventBody),
  fc.record({ node: fc.option(name, { nil: undefined }) }).map(
    ({ node }) =>
      ({
        type: "cap.overrun",
        ...(node ? { node } : {}),
        attempt: 1,
        scope: node ? "node" : "run",
        cap: "wall",
        limit: 1,
        actual: 2,
      }) as EventBody,
  ),
  fc.constant({ type: "run.paused", reason: "approval", approvals: [{ node: "a" }] } as EventBody),
  fc.constant(runFinished("failed")),
  fc.constant(started({ resumed: true })),
);

describe("any order of hostile events", () => {
  test("never throws; every span ends once with a unique id, a parent in the trace, bounded strings and events", () => {
    fc.assert(
      fc.property(fc.array(eventBody, { maxLength: 80 }), fc.array(fc.nat(5000), { maxLength: 80 }), (bodies, gaps) => {
        const e = stream();
        const events = [e(started()), ...bodies.map((b, i) => e(b, gaps[i] ?? 1))];
        const spans = mapAll(events);
        const ids = spans.map((s) => s.spanId);
        expect(new Set(ids).size).toBe(ids.length);
        const known = new Set(ids);
        for (const s of spans) {
          expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
          expect(s.traceId).toBe(ROOT.traceId);
          if (s.parentSpanId !== undefined) expect(known.has(s.parentSpanId), `${s.name} parent`).toBe(true);
          expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
          expect(s.events.length).toBeLessThanOrEqual(MAX_SPAN_EVENTS);
          for (const v of Object.values(s.attributes)) {
            expect(["string", "number", "boolean"].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === "string"))).toBe(
              true,
            );
            if (typeof v === "string") expect(v.length).toBeLessThanOrEqual(MAX_ATTRIBUTE_CHARS);
          }
          expect(s.name.length).toBeLessThanOrEqual(MAX_ATTRIBUTE_CHARS + 20);
        }
        // Every run.started made exactly one session span, ended.
        expect(spans.filter((s) => s.parentSpanId === undefined)).toHaveLength(events.filter((x) => x.type === "run.started").length);
      }),
      { numRuns: 300 },
    );
  });
});
