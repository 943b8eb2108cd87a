// Spans to an OTLP/HTTP collector with the official OpenTelemetry packages (ADR 0059): the
// SDK's BatchSpanProcessor (a bounded queue, batches sent in the background) in front of
// the OTLP/HTTP exporter (JSON). Only this file and the ones that import it load
// OpenTelemetry, and only when an endpoint is set (config.ts). The spans are made by
// span-mapper.ts as plain records; here they become the SDK's ReadableSpan, ids and
// times as recorded (no Tracer: it would draw its own ids and read the clock).
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime, type SpanContext } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import type { OtlpTarget } from "./config.ts";
import type { SpanRecord } from "./span-record.ts";

/** The most spans waiting to be sent; past it the SDK drops spans (counted as not sent). */
export const MAX_QUEUED_SPANS = 2048;
/** Spans of one request: one batch is on its way while MAX_QUEUED_SPANS more wait. */
export const BATCH_SPANS = 512;
/** One export (with its retries) gives up after this; the last flush at exit is bounded by it. */
export const EXPORT_TIMEOUT_MS = 5_000;
/** How long close() waits for the last spans beyond the exports' own timeout. */
const CLOSE_SLACK_MS = 500;

export interface ExportTally {
  /** Spans handed to the exporter. */
  added: number;
  /** Spans the collector accepted. */
  sent: number;
  /** The first reason an export failed, sanitized by the caller. */
  error?: string;
}

export interface SpanSink {
  add(spans: readonly SpanRecord[]): void;
  /** Sends what is queued; resolves when those exports are settled. */
  flush(): Promise<void>;
  /** Why an export failed, once one has. */
  failure(): string | undefined;
  /** Sends what is left, waiting at most EXPORT_TIMEOUT_MS + CLOSE_SLACK_MS; nothing more
   *  once an export failed and none is under way. */
  close(): Promise<ExportTally>;
}

function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000 + Math.round((ms - whole) * 1_000_000)];
}

function context(traceId: string, spanId: string, isRemote: boolean): SpanContext {
  return { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote };
}

const STATUS = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR } as const;

export function readableSpan(r: SpanRecord, resource: Resource, version: string): ReadableSpan {
  const own = context(r.traceId, r.spanId, false);
  return {
    name: r.name,
    kind: r.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => own,
    ...(r.parentSpanId !== undefined ? { parentSpanContext: context(r.traceId, r.parentSpanId, r.parentIsRemote === true) } : {}),
    startTime: hrTime(r.startMs),
    endTime: hrTime(r.endMs),
    duration: hrTime(r.endMs - r.startMs),
    status: r.status.code === "error" ? { code: STATUS.error, message: r.status.message } : { code: STATUS[r.status.code] },
    attributes: r.attributes,
    links: [],
    events: r.events.map((e) => ({ name: e.name, time: hrTime(e.timeMs), attributes: e.attributes })),
    ended: true,
    resource,
    instrumentationScope: { name: "vouch", version },
    droppedAttributesCount: 0,
    droppedEventsCount: r.droppedEvents,
    droppedLinksCount: 0,
  };
}

type Done = Parameters<SpanExporter["export"]>[1];

/** The exporter, counting what the collector accepted and keeping the first failure. */
class CountingExporter implements SpanExporter {
  sent = 0;
  inFlight = 0;
  error: string | undefined;
  constructor(private readonly inner: SpanExporter) {}
  export(spans: ReadableSpan[], done: Done): void {
    this.inFlight++;
    this.inner.export(spans, (result) => {
      this.inFlight--;
      // ExportResultCode.SUCCESS is 0.
      if (result.code === 0) this.sent += spans.length;
      else this.error ??= result.error?.message || "the collector did not accept the spans";
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

export function openOtlpExport(target: OtlpTarget, version: string): SpanSink {
  const exporter = new CountingExporter(new OTLPTraceExporter({ url: target.url, timeoutMillis: EXPORT_TIMEOUT_MS }));
  const processor = new BatchSpanProcessor({
    exporter,
    maxQueueSize: MAX_QUEUED_SPANS,
    maxExportBatchSize: BATCH_SPANS,
    scheduledDelayMillis: 500,
    exportTimeoutMillis: EXPORT_TIMEOUT_MS,
  });
  const resource = resourceFromAttributes({ "service.name": target.serviceName, "service.version": version });
  let added = 0;
  return {
    add(spans) {
      for (const r of spans) processor.onEnd(readableSpan(r, resource, version));
      added += spans.length;
    },
    flush: () => processor.forceFlush().catch(() => {}),
    failure: () => exporter.error,
    async close() {
      // The collector already refused or timed out, and nothing is on the way: what is queued
      // is not sent (another 5 s of retries at exit would find it down again).
      const dead = exporter.error !== undefined && exporter.inFlight === 0;
      if (dead) return { added, sent: exporter.sent, error: exporter.error! };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, EXPORT_TIMEOUT_MS + CLOSE_SLACK_MS);
        timer.unref?.();
      });
      await Promise.race([processor.shutdown().catch(() => {}), deadline]);
      clearTimeout(timer);
      return { added, sent: exporter.sent, ...(exporter.error !== undefined ? { error: exporter.error } : {}) };
    },
  };
}
