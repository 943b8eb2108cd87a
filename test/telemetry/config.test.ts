// When a run exports traces (src/telemetry/config.ts) and the W3C trace context it reads
// and writes (src/telemetry/trace-ids.ts).
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { telemetryChoice } from "../../src/telemetry/config.ts";
import { formatTraceparent, parseTraceparent, runTraceId, spanIdOf, traceRoot, validTraceState } from "../../src/telemetry/trace-ids.ts";

describe("the OTEL_* variables", () => {
  test("off without an endpoint; OTEL_EXPORTER_OTLP_ENDPOINT gets /v1/traces, the TRACES one is used as it is", () => {
    expect(telemetryChoice({})).toEqual({ kind: "off" });
    expect(telemetryChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toEqual({ kind: "off" });
    expect(telemetryChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toEqual({
      kind: "on",
      target: { url: "http://c:4318/v1/traces", display: "http://c:4318/v1/traces", serviceName: "vouch" },
    });
    expect(
      telemetryChoice({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://t/x" }),
    ).toMatchObject({
      kind: "on",
      target: { url: "https://t/x" },
    });
  });

  test("what messages show of the URL has no password or query", () => {
    const choice = telemetryChoice({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://user:secret@c.example/v1/traces?token=abc" });
    expect(choice.kind === "on" && choice.target.display).toBe("https://c.example/v1/traces");
  });

  test("switched off by OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none and an unsampled TRACEPARENT", () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(telemetryChoice({ ...on, OTEL_SDK_DISABLED: "true" }).kind).toBe("off");
    expect(telemetryChoice({ ...on, OTEL_TRACES_EXPORTER: "none" }).kind).toBe("off");
    expect(telemetryChoice({ ...on, TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00" }).kind).toBe("off");
    expect(telemetryChoice({ ...on, TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" }).kind).toBe("on");
    expect(telemetryChoice({ ...on, OTEL_SERVICE_NAME: "ci" })).toMatchObject({ target: { serviceName: "ci" } });
  });

  test("what vouch cannot do is one warning and no export: another exporter, grpc, a URL that is none", () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    for (const env of [
      { ...on, OTEL_TRACES_EXPORTER: "zipkin" },
      { ...on, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
      { OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" },
      { OTEL_EXPORTER_OTLP_ENDPOINT: "file:///tmp/x" },
    ]) {
      const choice = telemetryChoice(env);
      expect(choice.kind, JSON.stringify(env)).toBe("refused");
      expect(choice.kind === "refused" && choice.warning).toMatch(/traces are not exported$/);
    }
    expect(telemetryChoice({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }).kind).toBe("on");
  });
});

describe("W3C trace context", () => {
  test("traceparent: version 00 only, lower-case hex, no all-zero ids; what is formatted parses back", () => {
    expect(parseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      sampled: true,
    });
    for (const bad of [
      "",
      "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\n::set-output x",
    ])
      expect(parseTraceparent(bad), bad).toBeNull();
    fc.assert(
      fc.property(fc.string(), fc.string(), (run, part) => {
        const traceId = runTraceId(run);
        const spanId = spanIdOf(traceId, [part]);
        expect(parseTraceparent(formatTraceparent({ traceId, spanId }))).toEqual({ traceId, spanId, sampled: true });
      }),
    );
  });

  test("ids are the run's: the same run and parts give the same ids, other parts others", () => {
    expect(runTraceId("r1")).toBe(runTraceId("r1"));
    expect(runTraceId("r1")).not.toBe(runTraceId("r2"));
    const t = runTraceId("r1");
    expect(spanIdOf(t, ["ab", "c"])).not.toBe(spanIdOf(t, ["a", "bc"]));
  });

  test("an incoming trace is joined; a TRACESTATE that is not one is dropped", () => {
    const env = {
      TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      TRACESTATE: "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7",
    };
    expect(traceRoot("r", env)).toEqual({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentSpanId: "b7ad6b7169203331",
      traceState: "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7",
    });
    expect(traceRoot("r", { ...env, TRACESTATE: "x=1\n::add-mask::y" })).not.toHaveProperty("traceState");
    expect(traceRoot("r", {})).toEqual({ traceId: runTraceId("r") });
    expect(validTraceState("a=1,b=2")).toBe("a=1,b=2");
    expect(validTraceState("A=1")).toBeUndefined();
  });
});
