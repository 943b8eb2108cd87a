// OpenTelemetry through the binary (issue 30 item 3, ADR 0059): dist/vouch exports a run's
// spans to a real OTLP/HTTP receiver (otlp-receiver.ts decodes each request strictly), and
// the tree, names, attributes, parentage and statuses are what docs/ci.md says; each child
// saw its own span in TRACEPARENT; `vouch export otlp RUN` sends the same spans again; a
// dead, refusing or hanging collector costs one warning and changes no exit code.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import { DEMO_ARGS, ensureBinary, parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { NOTHING_LISTENS, startReceiver, type OtlpSpan, type Receiver } from "./otlp-receiver.ts";

const TRACED = join(import.meta.dirname, "graphs", "traced.yaml");

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("otlp");
});
afterAll(() => dir.cleanup());

const byName = (spans: OtlpSpan[], name: string) => {
  const found = spans.filter((s) => s.name === name);
  expect(
    found.map((s) => s.name),
    name,
  ).toHaveLength(1);
  return found[0]!;
};
const childrenOf = (spans: OtlpSpan[], parent: OtlpSpan) =>
  spans
    .filter((s) => s.parentSpanId === parent.spanId)
    .map((s) => s.name)
    .sort();
const checkOut = (events: VouchEvent[], name: string) =>
  events.find((e): e is Extract<VouchEvent, { type: "check.finished" }> => e.type === "check.finished" && e.name === name)!.stdout_tail;

/** The spans as a comparable set: everything but the order they arrived in. */
const canonical = (spans: OtlpSpan[]) =>
  spans
    .map((s) =>
      JSON.stringify({
        ...s,
        startNs: String(s.startNs),
        endNs: String(s.endNs),
        events: s.events.map((e) => ({ ...e, timeNs: String(e.timeNs) })),
      }),
    )
    .sort();

describe("a live export through dist/vouch", () => {
  let receiver: Receiver;
  let events: VouchEvent[];
  let code: number;
  beforeAll(async () => {
    receiver = startReceiver();
    const ran = await vouch(["run", TRACED, "--json"], {
      home: join(dir.path, "home"),
      cwd: dir.path,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "ci-vouch" },
    });
    code = ran.code;
    events = parseNdjson(ran.stdout);
    expect(ran.stderr).not.toContain("OpenTelemetry");
  }, 60_000);
  afterAll(() => receiver.stop());

  test("one trace: the session span at the root, a span per node under it, a span per attempt, a span per check", () => {
    expect(code).toBe(1); // the run failed (a FAIL and an ERROR): tracing changes no exit code
    expect(receiver.problems).toEqual([]);
    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    const session = byName(spans, "vouch run traced");
    expect(session.parentSpanId).toBeUndefined();
    expect(childrenOf(spans, session)).toEqual(["node broken", "node prep", "node verify"]);
    for (const n of ["prep", "verify", "broken"]) {
      const node = byName(spans, `node ${n}`);
      expect(childrenOf(spans, node)).toEqual([`script ${n}`]);
    }
    expect(childrenOf(spans, byName(spans, "script prep"))).toEqual(["execute_tool tp"]);
    expect(childrenOf(spans, byName(spans, "script verify"))).toEqual(["execute_tool bad"]);
    expect(childrenOf(spans, byName(spans, "script broken"))).toEqual(["execute_tool missing"]);
    expect(spans).toHaveLength(10);
    // Every child inside its parent's time.
    for (const s of spans.filter((x) => x.parentSpanId !== undefined)) {
      const p = spans.find((x) => x.spanId === s.parentSpanId)!;
      expect([s.name, s.startNs >= p.startNs && s.endNs <= p.endNs && s.startNs <= s.endNs]).toEqual([s.name, true]);
    }
    expect(session.resource).toMatchObject({ "service.name": "ci-vouch", "service.version": expect.any(String) });
    expect(session.scope.name).toBe("vouch");
  });

  test("status: OK for a pass, UNSET for a FAIL (a result, vouch.verdict says failed), ERROR only for an error verdict", () => {
    const spans = receiver.spans;
    const status = (name: string) => byName(spans, name).status.code;
    expect(status("node prep")).toBe(1);
    expect(status("execute_tool tp")).toBe(1);
    expect(status("node verify")).toBe(0);
    expect(byName(spans, "node verify").attributes["vouch.verdict"]).toBe("failed");
    expect(status("execute_tool bad")).toBe(0);
    expect(byName(spans, "execute_tool bad").attributes).toMatchObject({
      "vouch.verdict": "failed",
      "process.exit.code": 1,
      "vouch.check.passed": false,
    });
    expect(byName(spans, "node broken").status).toMatchObject({ code: 2, message: expect.stringContaining("could not run") });
    expect(byName(spans, "node broken").attributes).toMatchObject({ "vouch.verdict": "error", "vouch.node.cause": "harness_error" });
    expect(status("vouch run traced")).toBe(0); // the run failed: a result
    expect(byName(spans, "vouch run traced").attributes).toMatchObject({
      "vouch.run.status": "failed",
      "vouch.run.exit_code": 1,
      "vouch.count.error": 1,
    });
  });

  test("attributes: execute_tool for checks, the run's id and graph on the session", () => {
    const spans = receiver.spans;
    const run = events[0]!.run;
    expect(byName(spans, "vouch run traced").attributes).toMatchObject({
      "vouch.run.id": run,
      "vouch.graph.name": "traced",
      "vouch.session.resumed": false,
    });
    expect(byName(spans, "execute_tool tp").attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "tp",
      "process.exit.code": 0,
      "vouch.check.expect": "exit_zero",
      "vouch.node.path": "prep",
    });
    expect(byName(spans, "node prep").attributes).toMatchObject({
      "vouch.node.id": "prep",
      "vouch.node.kind": "script",
      "vouch.node.qualifier": "verified",
    });
  });

  test("each child got its own span as TRACEPARENT: the check its check span, the script its attempt span", () => {
    const spans = receiver.spans;
    const tp = byName(spans, "execute_tool tp");
    expect(checkOut(events, "tp").trim()).toBe(`TP=00-${tp.traceId}-${tp.spanId}-01`);
    const finished = events.find(
      (e): e is Extract<VouchEvent, { type: "node.finished" }> => e.type === "node.finished" && e.node === "prep",
    )!;
    const attempt = byName(spans, "script prep");
    expect(finished.result_tail?.trim()).toBe(`SCRIPT=00-${attempt.traceId}-${attempt.spanId}-01`);
  });

  test("vouch export otlp RUN sends the same spans: ids, parents, names, times, attributes", async () => {
    const again = startReceiver();
    try {
      const run = events[0]!.run;
      const exported = await vouch(["export", "otlp", run, "--endpoint", `${again.url}/v1/traces`], {
        home: join(dir.path, "home"),
        cwd: dir.path,
        env: { OTEL_SERVICE_NAME: "ci-vouch" },
      });
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toBe(`${receiver.spans[0]!.traceId}\n`);
      expect(exported.stderr).toContain(`sent ${receiver.spans.length} spans of run ${run}`);
      expect(again.problems).toEqual([]);
      expect(canonical(again.spans)).toEqual(canonical(receiver.spans));
    } finally {
      again.stop();
    }
  }, 60_000);
});

describe("an agent sitting", () => {
  test("the sitting's CLI gets its invoke_agent span as TRACEPARENT", async () => {
    const receiver = startReceiver();
    try {
      const ran = await vouch(["run", join(import.meta.dirname, "graphs", "traced-agent.yaml"), "--json"], {
        home: join(dir.path, "agent"),
        cwd: dir.path,
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          VOUCH_COMMAND: JSON.stringify(["sh", "-c", 'cat >/dev/null; printf "AGENT=%s" "$TRACEPARENT"']),
        },
      });
      expect(ran.code, ran.stderr).toBe(0);
      const sitting = byName(receiver.spans, "invoke_agent ask");
      expect(sitting.attributes).toMatchObject({
        "gen_ai.operation.name": "invoke_agent",
        "vouch.harness": "command",
        "gen_ai.agent.name": "ask",
      });
      const finished = parseNdjson(ran.stdout).find(
        (e): e is Extract<VouchEvent, { type: "node.finished" }> => e.type === "node.finished",
      )!;
      expect(finished.result_tail).toBe(`AGENT=00-${sitting.traceId}-${sitting.spanId}-01`);
    } finally {
      receiver.stop();
    }
  }, 60_000);
});

describe("a resumed run", () => {
  test("the resumed session's spans hang under a session span of their own; export otlp sends both sessions, the second as it was sent live", async () => {
    const home = join(dir.path, "resumed");
    const first = startReceiver();
    const second = startReceiver();
    const whole = startReceiver();
    try {
      const ran = await vouch(["run", TRACED, "--json"], { home, cwd: dir.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: first.url } });
      const run = parseNdjson(ran.stdout)[0]!.run;
      const resumed = await vouch(["resume", run, "--json"], { home, cwd: dir.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: second.url } });
      expect(resumed.code).toBe(1);
      const sessions = [...first.spans, ...second.spans].filter((s) => s.name === "vouch run traced");
      expect(sessions.map((s) => s.attributes["vouch.session.resumed"])).toEqual([false, true]);
      expect(sessions[0]!.traceId).toBe(sessions[1]!.traceId);
      expect(sessions[0]!.spanId).not.toBe(sessions[1]!.spanId);
      // What resume ran again (verify, broken) is in the second session; prep was kept.
      expect(
        second.spans
          .filter((s) => s.name.startsWith("node "))
          .map((s) => s.name)
          .sort(),
      ).toEqual(["node broken", "node verify"]);
      const bad = byName(second.spans, "execute_tool bad");
      expect(bad.parentSpanId).toBe(byName(second.spans, "script verify").spanId);
      const exported = await vouch(["export", "otlp", run], { home, cwd: dir.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: whole.url } });
      expect(exported.code, exported.stderr).toBe(0);
      expect(canonical(whole.spans)).toEqual(canonical([...first.spans, ...second.spans]));
    } finally {
      for (const r of [first, second, whole]) r.stop();
    }
  }, 90_000);
});

describe("the replayed demo: sittings, branches, retries", () => {
  test("invoke_agent spans with the GenAI attributes, a branch span per finding, the retry as an event", async () => {
    const receiver = startReceiver();
    try {
      const ran = await vouch(["run", ...DEMO_ARGS, "--json"], {
        home: join(dir.path, "demo"),
        env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` },
      });
      expect(ran.code, ran.stderr).toBe(0);
      expect(receiver.problems).toEqual([]);
      const spans = receiver.spans;
      const sittings = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "invoke_agent");
      const started = parseNdjson(ran.stdout).filter((e) => e.type === "node.started" && e.kind === "agent");
      expect(sittings).toHaveLength(started.length);
      for (const s of sittings) {
        expect(s.kind).toBe(3); // CLIENT: the model is behind a process
        expect(s.name).toMatch(/^invoke_agent (parse|verify_one)$/);
        expect(s.attributes).toMatchObject({
          "vouch.harness": "replay",
          "gen_ai.agent.name": expect.any(String),
          "vouch.attempt": expect.any(Number),
        });
        expect(s.attributes["gen_ai.provider.name"]).toBeUndefined(); // replay talks to no provider
      }
      expect(
        sittings.some(
          (s) =>
            typeof s.attributes["gen_ai.usage.input_tokens"] === "number" && typeof s.attributes["gen_ai.usage.output_tokens"] === "number",
        ),
      ).toBe(true);
      const map = byName(spans, "node verify_each");
      const branches = spans.filter((s) => s.name === "branch verify_each");
      expect(branches.length).toBeGreaterThan(1);
      for (const b of branches) expect(b.parentSpanId).toBe(map.spanId);
      // Each branch's node under its branch; each citations check under its sitting.
      for (const node of spans.filter((s) => s.name === "node verify_one"))
        expect(branches.map((b) => b.spanId)).toContain(node.parentSpanId);
      for (const check of spans.filter((s) => s.name === "execute_tool citations"))
        expect(sittings.map((s) => s.spanId)).toContain(check.parentSpanId);
      const retried = spans.filter((s) => s.events.some((e) => e.name === "vouch.node.retrying"));
      expect(retried.length).toBeGreaterThan(0);
      expect(retried[0]!.name).toBe("node verify_one");
    } finally {
      receiver.stop();
    }
  }, 90_000);
});

describe("a collector that is down never changes a run", () => {
  async function tracedRun(endpoint: string, home: string) {
    return vouch(["run", TRACED, "--plain"], { home: join(dir.path, home), cwd: dir.path, env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
  }
  const warnings = (stderr: string) => stderr.split("\n").filter((l) => l.includes("OpenTelemetry"));

  test("nothing listening: the same exit code, one warning naming the endpoint", async () => {
    const url = NOTHING_LISTENS;
    const ran = await tracedRun(url, "dead");
    expect(ran.code).toBe(1);
    expect(warnings(ran.stderr)).toEqual([
      expect.stringMatching(new RegExp(`^vouch: OpenTelemetry: 10 of 10 spans were not sent to ${url}/v1/traces: .*ECONNREFUSED`)),
    ]);
  }, 60_000);

  test("a collector answering 400: one warning, exit code unchanged", async () => {
    const refusing = startReceiver({ status: 400 });
    try {
      const ran = await tracedRun(refusing.url, "refusing");
      expect(ran.code).toBe(1);
      expect(warnings(ran.stderr)).toHaveLength(1);
      expect(refusing.requests).toBeGreaterThan(0);
    } finally {
      refusing.stop();
    }
  }, 60_000);

  test("a collector that never answers: vouch still exits (the last flush is bounded), with one warning", async () => {
    const hanging = startReceiver({ hang: true });
    try {
      const started = Date.now();
      const ran = await tracedRun(hanging.url, "hanging");
      console.log(`[otlp] a hanging collector: vouch exited after ${Date.now() - started} ms`);
      expect(ran.code).toBe(1);
      expect(warnings(ran.stderr)).toHaveLength(1);
    } finally {
      hanging.stop();
    }
  }, 60_000);

  test("export otlp to a collector that is down: exit 3 with what to do; without an endpoint: exit 2", async () => {
    const home = join(dir.path, "dead");
    const url = NOTHING_LISTENS;
    const failed = await vouch(["export", "otlp", "last", "--endpoint", `${url}/v1/traces`], { home, cwd: dir.path });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/spans were not sent to .*\nhint: is the collector up/);
    const none = await vouch(["export", "otlp", "last"], { home, cwd: dir.path });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("export otlp needs a collector");
    const k8s = await vouch(["export", "otlp", "last", "--image", "x"], { home, cwd: dir.path });
    expect([k8s.code, k8s.stderr]).toEqual([2, expect.stringContaining("does not take --image")]);
  }, 60_000);
});

describe("the trace vouch is started in", () => {
  const PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  test("an incoming TRACEPARENT: the session span is its child, and children nest in the same trace", async () => {
    const receiver = startReceiver();
    try {
      const ran = await vouch(["run", TRACED, "--json"], {
        home: join(dir.path, "parented"),
        cwd: dir.path,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: PARENT, TRACESTATE: "vendor=abc" },
      });
      expect(ran.code).toBe(1);
      const session = byName(receiver.spans, "vouch run traced");
      expect(session.traceId).toBe("0af7651916cd43dd8448eb211c80319c");
      expect(session.parentSpanId).toBe("b7ad6b7169203331");
      expect(new Set(receiver.spans.map((s) => s.traceId))).toEqual(new Set(["0af7651916cd43dd8448eb211c80319c"]));
      expect(checkOut(parseNdjson(ran.stdout), "tp")).toContain("TP=00-0af7651916cd43dd8448eb211c80319c-");
    } finally {
      receiver.stop();
    }
  }, 60_000);

  test("no endpoint: nothing is sent, and a child gets vouch's own TRACEPARENT as it came", async () => {
    const receiver = startReceiver();
    try {
      const ran = await vouch(["run", TRACED, "--json"], { home: join(dir.path, "untraced"), cwd: dir.path, env: { TRACEPARENT: PARENT } });
      expect(ran.code).toBe(1);
      expect(checkOut(parseNdjson(ran.stdout), "tp").trim()).toBe(`TP=${PARENT}`);
      expect(receiver.requests).toBe(0);
    } finally {
      receiver.stop();
    }
  }, 60_000);

  test("an unsampled parent (flags 00): nothing is exported, the child gets the parent as it came", async () => {
    const receiver = startReceiver();
    const unsampled = PARENT.replace(/-01$/, "-00");
    try {
      const ran = await vouch(["run", TRACED, "--json"], {
        home: join(dir.path, "unsampled"),
        cwd: dir.path,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, TRACEPARENT: unsampled },
      });
      expect(ran.code).toBe(1);
      expect(receiver.requests).toBe(0);
      expect(checkOut(parseNdjson(ran.stdout), "tp").trim()).toBe(`TP=${unsampled}`);
    } finally {
      receiver.stop();
    }
  }, 60_000);
});
