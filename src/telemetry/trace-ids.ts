// Span ids derived from what the run records (ADR 0059): the same run exported live and
// later by `vouch export otlp` gets the same trace and span ids, and a child's
// TRACEPARENT can be computed before its span exists (a check's span is known only
// from check.finished, after the check ran). Pure: a hash of names, no clock, no random.
import { createHash } from "node:crypto";

/** W3C trace context of one span: 32 and 16 lower-case hex digits. */
export interface SpanContextIds {
  traceId: string;
  spanId: string;
}

/** Where a session's spans hang: the trace, and the span vouch was started under (its TRACEPARENT), if any. */
export interface TraceRoot {
  traceId: string;
  /** The span of an incoming TRACEPARENT: the session span's remote parent. */
  parentSpanId?: string;
  /** An incoming TRACESTATE, passed on as it came. */
  traceState?: string;
}

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

function digest(parts: readonly string[]): string {
  // NUL cannot occur in a node id, a check name or a run id as the ledger holds them;
  // the length prefix keeps ("ab","c") and ("a","bc") apart anyway.
  return createHash("sha256")
    .update(parts.map((p) => `${p.length}:${p}`).join("\0"))
    .digest("hex");
}

/** A hex id of `hexLength` digits that is never all zeros (W3C: invalid). */
function idOf(parts: readonly string[], hexLength: number, zero: string): string {
  const id = digest(parts).slice(0, hexLength);
  return id === zero ? `${id.slice(0, -1)}1` : id;
}

/** The trace of a run started under no TRACEPARENT. */
export function runTraceId(runId: string): string {
  return idOf(["vouch.trace", runId], 32, ZERO_TRACE);
}

/** Any span of the trace, named by its path of parts. */
export function spanIdOf(traceId: string, parts: readonly string[]): string {
  return idOf(["vouch.span", traceId, ...parts], 16, ZERO_SPAN);
}

/** A session's span: one per `run.started`, keyed by that event's seq (the first seq of the session). */
export function sessionSpanId(traceId: string, startSeq: number): string {
  return spanIdOf(traceId, ["session", String(startSeq)]);
}

/** The spans inside a session, keyed by node key (`id` or `map#index/id`), attempt and check.
 *  `occurrence` counts earlier spans of the same key in the session (0 for the first): a node
 *  on a feedback loop runs attempt 1 again each round. */
const nth = (occurrence: number) => (occurrence > 0 ? [`#${occurrence}`] : []);
export const inSession = {
  node: (traceId: string, session: string, nodeKey: string, occurrence = 0) =>
    spanIdOf(traceId, [session, "node", nodeKey, ...nth(occurrence)]),
  attempt: (traceId: string, session: string, nodeKey: string, attempt: number, occurrence = 0) =>
    spanIdOf(traceId, [session, "attempt", nodeKey, String(attempt), ...nth(occurrence)]),
  check: (traceId: string, session: string, nodeKey: string, attempt: number, check: string, occurrence = 0) =>
    spanIdOf(traceId, [session, "check", nodeKey, String(attempt), check, ...nth(occurrence)]),
  branch: (traceId: string, session: string, branchKey: string, occurrence = 0) =>
    spanIdOf(traceId, [session, "branch", branchKey, ...nth(occurrence)]),
};

/** How many times each key was seen: the `occurrence` of inSession's ids. The mapping counts
 *  node.started and check.finished; the child-side hook counts the processes it starts, one
 *  for each of those. */
export class Occurrences {
  private readonly seen = new Map<string, number>();
  next(...parts: (string | number)[]): number {
    const key = parts.join("\0");
    const n = this.seen.get(key) ?? 0;
    this.seen.set(key, n + 1);
    return n;
  }
  clear(): void {
    this.seen.clear();
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A W3C `traceparent` header value (version 00), or null when it is not one. */
export function parseTraceparent(value: string | undefined): (SpanContextIds & { sampled: boolean }) | null {
  if (value === undefined) return null;
  const m = TRACEPARENT.exec(value.trim());
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return null;
  return { traceId: m[1]!, spanId: m[2]!, sampled: (Number.parseInt(m[3]!, 16) & 1) === 1 };
}

export function formatTraceparent(ids: SpanContextIds): string {
  return `00-${ids.traceId}-${ids.spanId}-01`;
}

/** TRACESTATE is a list of at most 32 `key=value` members (W3C); anything else is dropped, not passed on. */
export function validTraceState(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 512) return undefined;
  const members = value.split(",").map((m) => m.trim());
  const member = /^[a-z0-9][_0-9a-z\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
  return members.length <= 32 && members.every((m) => member.test(m)) ? members.join(",") : undefined;
}

/** The trace a session's spans go to: the incoming TRACEPARENT's (the session span becomes its
 *  child), else one derived from the run id. */
export function traceRoot(runId: string, env: Record<string, string | undefined>): TraceRoot {
  const incoming = parseTraceparent(env.TRACEPARENT);
  if (!incoming) return { traceId: runTraceId(runId) };
  const state = validTraceState(env.TRACESTATE);
  return { traceId: incoming.traceId, parentSpanId: incoming.spanId, ...(state !== undefined ? { traceState: state } : {}) };
}
