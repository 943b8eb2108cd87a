// A real OTLP/HTTP receiver for the tests: an HTTP server on 127.0.0.1 that takes
// `POST /v1/traces` with `Content-Type: application/json` and decodes the body strictly by
// the OTLP/JSON encoding of opentelemetry-proto's ExportTraceServiceRequest (the protobuf
// JSON mapping with OTLP's exceptions: trace and span ids as hex, enums as integers,
// 64-bit integers as decimal strings or numbers). Anything else is a 400 and a recorded
// problem, so a test can assert there were none.
export interface OtlpAttributes {
  [key: string]: string | number | boolean | (string | number | boolean)[];
}
export interface OtlpEvent {
  name: string;
  timeNs: bigint;
  attributes: OtlpAttributes;
}
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** SpanKind: 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: OtlpAttributes;
  events: OtlpEvent[];
  /** 0 UNSET, 1 OK, 2 ERROR. */
  status: { code: number; message?: string };
  resource: OtlpAttributes;
  scope: { name: string; version?: string };
}

export interface Receiver {
  url: string;
  spans: OtlpSpan[];
  requests: number;
  problems: string[];
  stop(): void;
}

type Json = Record<string, unknown>;

function fail(what: string): never {
  throw new Error(what);
}
const obj = (v: unknown, what: string): Json =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : fail(`${what}: not an object`);
const arr = (v: unknown, what: string): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : fail(`${what}: not an array`));
const str = (v: unknown, what: string): string => (typeof v === "string" ? v : fail(`${what}: not a string`));
const hex = (v: unknown, digits: number, what: string): string =>
  typeof v === "string" && new RegExp(`^[0-9a-f]{${digits}}$`).test(v) && !/^0+$/.test(v)
    ? v
    : fail(`${what}: not ${digits} hex digits: ${String(v)}`);
const int64 = (v: unknown, what: string): bigint =>
  (typeof v === "string" && /^-?\d+$/.test(v)) || (typeof v === "number" && Number.isInteger(v))
    ? BigInt(v)
    : fail(`${what}: not an int64`);

function anyValue(v: unknown, what: string): string | number | boolean | (string | number | boolean)[] {
  const o = obj(v, what);
  const keys = Object.keys(o);
  if (keys.length !== 1) fail(`${what}: an AnyValue has exactly one field, got ${keys.join(",")}`);
  if ("stringValue" in o) return str(o.stringValue, what);
  if ("boolValue" in o) return typeof o.boolValue === "boolean" ? o.boolValue : fail(`${what}: boolValue`);
  if ("intValue" in o) return Number(int64(o.intValue, what));
  if ("doubleValue" in o) return typeof o.doubleValue === "number" ? o.doubleValue : fail(`${what}: doubleValue`);
  if ("arrayValue" in o)
    return arr(obj(o.arrayValue, what).values, what).map((x, i) => {
      const y = anyValue(x, `${what}[${i}]`);
      return Array.isArray(y) ? fail(`${what}: nested array`) : y;
    });
  return fail(`${what}: unknown AnyValue ${keys[0]}`);
}

function attributes(v: unknown, what: string): OtlpAttributes {
  const out: OtlpAttributes = {};
  for (const [i, kv] of arr(v, what).entries()) {
    const o = obj(kv, `${what}[${i}]`);
    const key = str(o.key, `${what}[${i}].key`);
    if (Object.hasOwn(out, key)) fail(`${what}: duplicate key ${key}`);
    out[key] = anyValue(o.value, `${what}.${key}`);
  }
  return out;
}

/** One ExportTraceServiceRequest, decoded; throws on anything the encoding does not allow. */
export function decodeTraceRequest(body: unknown): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const [r, rs] of arr(obj(body, "request").resourceSpans, "resourceSpans").entries()) {
    const resource = attributes(obj(obj(rs, `resourceSpans[${r}]`).resource ?? {}, "resource").attributes, "resource.attributes");
    for (const ss of arr(obj(rs, "rs").scopeSpans, "scopeSpans")) {
      const scopeJson = obj(obj(ss, "scopeSpans").scope ?? {}, "scope");
      const scope = {
        name: str(scopeJson.name ?? "", "scope.name"),
        ...(scopeJson.version !== undefined ? { version: str(scopeJson.version, "scope.version") } : {}),
      };
      for (const [i, raw] of arr(obj(ss, "ss").spans, "spans").entries()) {
        const s = obj(raw, `span[${i}]`);
        const kind = typeof s.kind === "number" && Number.isInteger(s.kind) && s.kind >= 0 && s.kind <= 5 ? s.kind : fail("kind");
        const status = obj(s.status ?? {}, "status");
        const code = status.code === undefined ? 0 : status.code;
        if (code !== 0 && code !== 1 && code !== 2) fail(`status.code ${String(code)}`);
        out.push({
          traceId: hex(s.traceId, 32, "traceId"),
          spanId: hex(s.spanId, 16, "spanId"),
          parentSpanId: s.parentSpanId === undefined || s.parentSpanId === "" ? undefined : hex(s.parentSpanId, 16, "parentSpanId"),
          name: str(s.name, "name"),
          kind,
          startNs: int64(s.startTimeUnixNano, "startTimeUnixNano"),
          endNs: int64(s.endTimeUnixNano, "endTimeUnixNano"),
          attributes: attributes(s.attributes, "attributes"),
          events: arr(s.events, "events").map((e, j) => {
            const ev = obj(e, `events[${j}]`);
            return {
              name: str(ev.name, "event.name"),
              timeNs: int64(ev.timeUnixNano, "event.time"),
              attributes: attributes(ev.attributes, "event.attributes"),
            };
          }),
          status: { code, ...(typeof status.message === "string" && status.message !== "" ? { message: status.message } : {}) },
          resource,
          scope,
        });
      }
    }
  }
  return out;
}

export interface ReceiverOptions {
  /** Answer this status instead of 200 (a collector that refuses). */
  status?: number;
  /** Never answer: the request hangs until the client gives up. */
  hang?: boolean;
}

/** A collector's address where nothing listens and nothing else can start listening while a test
 *  runs: port 1 is privileged and unassigned here. (A receiver started and stopped frees an
 *  ephemeral port that another test of the suite, binding port 0 meanwhile, may be given.) */
export const NOTHING_LISTENS = "http://127.0.0.1:1";

export function startReceiver(options: ReceiverOptions = {}): Receiver {
  const received: Receiver = { url: "", spans: [], requests: 0, problems: [], stop: () => server.stop(true) };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      received.requests++;
      if (options.hang) return new Promise<Response>(() => {});
      if (options.status !== undefined) return new Response("refused", { status: options.status });
      const url = new URL(req.url);
      if (req.method !== "POST" || url.pathname !== "/v1/traces") {
        received.problems.push(`${req.method} ${url.pathname}`);
        return new Response("not found", { status: 404 });
      }
      if (!(req.headers.get("content-type") ?? "").startsWith("application/json")) {
        received.problems.push(`content-type ${req.headers.get("content-type")}`);
        return new Response("unsupported", { status: 415 });
      }
      try {
        received.spans.push(...decodeTraceRequest(await req.json()));
      } catch (e) {
        received.problems.push((e as Error).message);
        return new Response("bad request", { status: 400 });
      }
      return Response.json({ partialSuccess: {} });
    },
  });
  received.url = `http://127.0.0.1:${server.port}`;
  return received;
}
