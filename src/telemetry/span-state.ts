// The open spans of one session, for the mapping in span-mapper.ts: which span is open
// under which key, where a node's span hangs, and closing what is left when a session
// ends. Pure: no clock, no I/O.
import { branchKey, nodeKey, type BranchRef, type EventOf } from "../engine/events.ts";
import { runFinishedAttributes, runStatus, sessionAttributes } from "./span-attributes.ts";
import { addEvent, boundAttributes, bounded, type Attributes, type SpanRecord, type SpanStatus } from "./span-record.ts";
import { Occurrences, sessionSpanId, type TraceRoot } from "./trace-ids.ts";

/** Node kinds whose attempts get spans of their own (their commands and checks run in them). */
export const ATTEMPT_KINDS: ReadonlySet<string> = new Set(["agent", "script", "merge"]);

export class SpanState {
  /** The open session: its span id, and the spans open in it by key. */
  private session: { id: string; span: SpanRecord } | null = null;
  private readonly open = new Map<string, SpanRecord>();
  /** Node key → kind, from its node.started. */
  private readonly kinds = new Map<string, string>();
  /** Spans of a key seen before in this session (trace-ids.ts `inSession`). */
  readonly seen = new Occurrences();
  private ended: SpanRecord[] = [];

  constructor(private readonly root: TraceRoot) {}

  /** Spans ended since the last take(). */
  take(): SpanRecord[] {
    const out = this.ended;
    this.ended = [];
    return out;
  }

  get isOpen(): boolean {
    return this.session !== null;
  }

  startSession(e: EventOf<"run.started">, at: number): void {
    const id = sessionSpanId(this.root.traceId, e.seq);
    const span = this.span(id, this.root.parentSpanId, `vouch run ${bounded(e.graph)}`, at, sessionAttributes(e));
    if (this.root.parentSpanId !== undefined) span.parentIsRemote = true;
    this.session = { id, span };
  }

  span(spanId: string, parentSpanId: string | undefined, name: string, at: number, attributes: Attributes): SpanRecord {
    return {
      traceId: this.root.traceId,
      spanId,
      ...(parentSpanId !== undefined ? { parentSpanId } : {}),
      ...(this.root.traceState !== undefined ? { traceState: this.root.traceState } : {}),
      name,
      kind: "internal",
      startMs: at,
      endMs: at,
      attributes,
      events: [],
      droppedEvents: 0,
      status: { code: "unset" },
    };
  }

  get sessionId(): string {
    return this.session!.id;
  }

  get sessionSpan(): SpanRecord {
    return this.session!.span;
  }

  openSpan(key: string): SpanRecord | undefined {
    return this.open.get(key);
  }

  begin(key: string, span: SpanRecord): SpanRecord {
    const earlier = this.open.get(key);
    if (earlier) this.end(key, span.startMs, { code: "unset" }, { "vouch.unfinished": true });
    this.open.set(key, span);
    return span;
  }

  /** Ends the open span of `key` (if any) and hands it out. */
  end(key: string, at: number, status: SpanStatus, attributes: Attributes = {}): SpanRecord | undefined {
    const span = this.open.get(key);
    if (!span) return undefined;
    this.open.delete(key);
    return this.close(span, at, status, attributes);
  }

  close(span: SpanRecord, at: number, status: SpanStatus, attributes: Attributes = {}): SpanRecord {
    span.endMs = Math.max(span.startMs, at);
    span.status = status;
    span.name = bounded(span.name);
    boundAttributes(Object.assign(span.attributes, attributes));
    this.ended.push(span);
    return span;
  }

  closeSession(at: number, status: SpanStatus, attributes: Attributes): void {
    if (!this.session) return;
    // Children first: the innermost keys were opened last.
    for (const key of [...this.open.keys()].reverse()) this.end(key, at, { code: "unset" }, { "vouch.unfinished": true });
    this.close(this.session.span, at, status, attributes);
    this.session = null;
    this.kinds.clear();
    this.seen.clear();
  }

  endSession(e: EventOf<"run.finished">, at: number): void {
    this.closeSession(at, runStatus(e.status, e.reason), runFinishedAttributes(e));
  }

  kindOf(key: string): string | undefined {
    return this.kinds.get(key);
  }

  setKind(key: string, kind: string): void {
    this.kinds.set(key, kind);
  }

  /** Where a node's span hangs: its graph node's span (`review/lint` under `review`), its
   *  map branch's, the map node's, else the session's. */
  nodeParent(node: string, branch: BranchRef | undefined): string {
    const slash = node.lastIndexOf("/");
    if (slash > 0) {
      const owner = this.open.get(nodeSpanKey(nodeKey(node.slice(0, slash), branch)));
      if (owner) return owner.spanId;
    }
    if (branch) return this.branchParent(branch);
    return this.sessionId;
  }

  branchParent(branch: BranchRef): string {
    const own = this.open.get(branchSpanKey(branch));
    if (own) return own.spanId;
    return this.mapSpan(branch.map)?.spanId ?? this.sessionId;
  }

  /** The open span of a map node by its id (a map inside a branch is found by its id alone). */
  mapSpan(map: string): SpanRecord | undefined {
    const top = this.open.get(nodeSpanKey(map));
    if (top) return top;
    for (const [key, span] of this.open) if (key.startsWith("node:") && key.endsWith(`/${map}`)) return span;
    return undefined;
  }

  /** The span a node's checks and span events go in: its open attempt's, else its own. */
  attemptOrNode(node: string, branch: BranchRef | undefined, attempt: number | undefined): SpanRecord | undefined {
    const key = nodeKey(node, branch);
    return (attempt !== undefined ? this.open.get(attemptSpanKey(key, attempt)) : undefined) ?? this.open.get(nodeSpanKey(key));
  }

  event(span: SpanRecord | undefined, name: string, at: number, attributes: Attributes): void {
    addEvent(span ?? this.sessionSpan, { name, timeMs: at, attributes });
  }
}

export const nodeSpanKey = (key: string) => `node:${key}`;
export const attemptSpanKey = (key: string, attempt: number) => `attempt:${key}#${attempt}`;
export const branchSpanKey = (b: BranchRef) => `branch:${branchKey(b.map, b.index)}`;
