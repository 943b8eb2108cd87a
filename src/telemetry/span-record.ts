// A span as the mapping makes it: plain data, times in epoch milliseconds from the
// events' own `t`. The OTLP side (otlp-export.ts) turns it into the SDK's ReadableSpan;
// nothing here loads OpenTelemetry.
export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanEventRecord {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

/** OpenTelemetry's status codes: UNSET (0), OK (1), ERROR (2). */
export type SpanStatus = { code: "unset" } | { code: "ok" } | { code: "error"; message: string };

export interface SpanRecord {
  traceId: string;
  spanId: string;
  /** Absent on a root span. */
  parentSpanId?: string;
  /** The parent is the span vouch was started under (an incoming TRACEPARENT), not one of its own. */
  parentIsRemote?: boolean;
  traceState?: string;
  name: string;
  /** CLIENT for an agent sitting (the model is behind a CLI process), INTERNAL otherwise. */
  kind: "internal" | "client";
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEventRecord[];
  /** Events left out past MAX_SPAN_EVENTS. */
  droppedEvents: number;
  status: SpanStatus;
}

/** Bounds on what one span carries: an attribute string, the span events of one span. */
export const MAX_ATTRIBUTE_CHARS = 4096;
export const MAX_SPAN_EVENTS = 128;

/** A string attribute, cut (and marked) past MAX_ATTRIBUTE_CHARS. */
export function bounded(text: string): string {
  return text.length <= MAX_ATTRIBUTE_CHARS ? text : `${text.slice(0, MAX_ATTRIBUTE_CHARS - 1)}…`;
}

/** Every string value (and string in a list) cut to MAX_ATTRIBUTE_CHARS, in place: names,
 *  labels and errors come from graphs, items and commands, and may be any size. */
export function boundAttributes(attributes: Attributes): Attributes {
  for (const [k, v] of Object.entries(attributes)) {
    if (typeof v === "string") attributes[k] = bounded(v);
    else if (Array.isArray(v)) attributes[k] = v.map(bounded);
  }
  return attributes;
}

export function addEvent(span: SpanRecord, event: SpanEventRecord): void {
  if (span.events.length < MAX_SPAN_EVENTS) span.events.push({ ...event, attributes: boundAttributes(event.attributes) });
  else span.droppedEvents++;
}
