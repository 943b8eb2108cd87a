// The exporter's bounds (src/telemetry/otlp-export.ts, ADR 0059), in process against the
// real receiver: at most MAX_QUEUED_SPANS wait to be sent (the rest are counted as not
// sent), and once an export has failed the last flush sends nothing more. Counted in
// spans and requests, not in time.
import { describe, expect, test } from "vitest";
import { BATCH_SPANS, MAX_QUEUED_SPANS, openOtlpExport } from "../../src/telemetry/otlp-export.ts";
import type { SpanRecord } from "../../src/telemetry/span-record.ts";
import { spanIdOf } from "../../src/telemetry/trace-ids.ts";
import { startReceiver } from "./otlp-receiver.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const spans = (n: number, from = 0): SpanRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    traceId: TRACE,
    spanId: spanIdOf(TRACE, [String(from + i)]),
    name: `s${from + i}`,
    kind: "internal",
    startMs: 1_700_000_000_000,
    endMs: 1_700_000_000_001,
    attributes: { "vouch.i": from + i },
    events: [],
    droppedEvents: 0,
    status: { code: "unset" },
  }));
const target = (url: string) => ({ url: `${url}/v1/traces`, display: url, serviceName: "vouch" });

describe("the export's bounds", () => {
  test(`at most ${MAX_QUEUED_SPANS} spans wait to be sent; past that they are dropped and counted`, async () => {
    const receiver = startReceiver();
    try {
      const sink = openOtlpExport(target(receiver.url), "0.1.0");
      sink.add(spans(5000));
      const tally = await sink.close();
      expect(tally.added).toBe(5000);
      // One full batch leaves at once; what comes while it is on its way waits, up to the queue's size.
      expect(tally.sent).toBe(MAX_QUEUED_SPANS + BATCH_SPANS);
      expect(tally.sent).toBeLessThan(tally.added);
      expect(receiver.spans).toHaveLength(tally.sent);
      expect(receiver.problems).toEqual([]);
    } finally {
      receiver.stop();
    }
  }, 30_000);

  test("a collector that refused an export gets no more: the last flush sends nothing", async () => {
    const refusing = startReceiver({ status: 400 });
    try {
      const sink = openOtlpExport(target(refusing.url), "0.1.0");
      sink.add(spans(3));
      await sink.flush();
      expect(sink.failure()).toBeDefined();
      const requests = refusing.requests;
      sink.add(spans(3, 3));
      const tally = await sink.close();
      expect(refusing.requests).toBe(requests);
      expect(tally).toMatchObject({ added: 6, sent: 0 });
    } finally {
      refusing.stop();
    }
  }, 30_000);

  test("a collector that takes them: every span sent, nothing dropped", async () => {
    const receiver = startReceiver();
    try {
      const sink = openOtlpExport(target(receiver.url), "0.1.0");
      for (let i = 0; i < 3; i++) {
        sink.add(spans(600, i * 600));
        await sink.flush();
      }
      expect(await sink.close()).toEqual({ added: 1800, sent: 1800 });
      expect(new Set(receiver.spans.map((s) => s.spanId)).size).toBe(1800);
    } finally {
      receiver.stop();
    }
  }, 30_000);
});
