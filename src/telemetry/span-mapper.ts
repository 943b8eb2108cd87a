// THE mapping from the event union to spans (ADR 0059), shared by the live export of a
// run and `vouch export otlp RUN` (which replays the recorded events): push events in
// order, get back the spans each one ended. Per session (one per run.started): a
// session span; a span per node under it (under its map branch's span, or its graph
// node's); a span per attempt of an agent, script or merge node (an agent's is its
// sitting, `invoke_agent`); a span per check under its attempt (`execute_tool`); span
// events for overruns, retries, limits, approvals, waits and conflicts. Ids come from
// trace-ids.ts, so both paths make the same spans and a child's TRACEPARENT names a
// span before it exists. Pure: no clock, no I/O.
import { branchKey, nodeKey, type BranchRef, type EventOf, type VouchEvent } from "../engine/events.ts";
import {
  attemptAttributes,
  causeStatus,
  checkAttributes,
  jobAttributes,
  nodeAttributes,
  nodeFinishedAttributes,
  usageAttributes,
  verdictStatus,
} from "./span-attributes.ts";
import { nodePath } from "../read/node-path.ts";
import { bounded, type SpanRecord } from "./span-record.ts";
import { ATTEMPT_KINDS, attemptSpanKey, branchSpanKey, nodeSpanKey, SpanState } from "./span-state.ts";
import { inSession, type TraceRoot } from "./trace-ids.ts";

type Handler<T extends VouchEvent["type"]> = (m: SpanState, e: EventOf<T>, at: number) => void;
type Handlers = { [T in VouchEvent["type"]]: Handler<T> };

export class SpanMapper {
  private readonly state: SpanState;
  private lastMs = 0;

  constructor(root: TraceRoot) {
    this.state = new SpanState(root);
  }

  /** One event, in order; returns the spans it ended. */
  push(event: VouchEvent): SpanRecord[] {
    const parsed = Date.parse(event.t);
    const at = Number.isFinite(parsed) ? parsed : this.lastMs;
    const m = this.state;
    // A session that ended without run.finished (killed) ends at its last event.
    if (event.type === "run.started") m.closeSession(this.lastMs, { code: "unset" }, { "vouch.unfinished": true });
    this.lastMs = Math.max(this.lastMs, at);
    if (event.type === "run.started") m.startSession(event, at);
    else if (m.isOpen) (HANDLERS[event.type] as Handler<typeof event.type>)(m, event as never, at);
    return m.take();
  }

  /** The events ended without run.finished (a session killed, or still running at exit):
   *  every open span ends at the last event's time, marked unfinished. */
  finish(): SpanRecord[] {
    this.state.closeSession(this.lastMs, { code: "unset" }, { "vouch.unfinished": true });
    return this.state.take();
  }
}

function nodeStarted(m: SpanState, e: EventOf<"node.started">, at: number): void {
  const key = nodeKey(e.node, e.branch);
  m.setKind(key, e.kind);
  let node = m.openSpan(nodeSpanKey(key));
  if (!node) {
    const id = inSession.node(m.sessionSpan.traceId, m.sessionId, key, m.seen.next("node", key));
    const span = m.span(id, m.nodeParent(e.node, e.branch), `node ${e.node}`, at, {
      ...nodeAttributes(e, e.kind),
      ...(e.items !== undefined ? { "vouch.map.items": e.items } : {}),
    });
    node = m.begin(nodeSpanKey(key), span);
  }
  if (!ATTEMPT_KINDS.has(e.kind)) return;
  const name = e.kind === "agent" ? `invoke_agent ${e.node}` : `${e.kind} ${e.node}`;
  const id = inSession.attempt(node.traceId, m.sessionId, key, e.attempt, m.seen.next("attempt", key, e.attempt));
  const attempt = m.span(id, node.spanId, name, at, attemptAttributes(e));
  if (e.kind === "agent") attempt.kind = "client";
  m.begin(attemptSpanKey(key, e.attempt), attempt);
}

function nodeProgress(m: SpanState, e: EventOf<"node.progress">): void {
  const span = m.openSpan(attemptSpanKey(nodeKey(e.node, e.branch), e.attempt));
  if (span) Object.assign(span.attributes, usageAttributes(e), e.api_retries !== undefined ? { "vouch.api_retries": e.api_retries } : {});
}

function checkFinished(m: SpanState, e: EventOf<"check.finished">, at: number): void {
  const key = nodeKey(e.node, e.branch);
  // Its attempt's span (or its node's, for a kind without attempt spans), open or not: a
  // check reported after its attempt was cut off still names where it ran.
  const parent = m.attemptOrNode(e.node, e.branch, e.attempt)?.spanId ?? m.nodeParent(e.node, e.branch);
  const id = inSession.check(m.sessionSpan.traceId, m.sessionId, key, e.attempt, e.name, m.seen.next("check", key, e.attempt, e.name));
  const span = m.span(id, parent, `execute_tool ${bounded(e.name)}`, Math.max(0, at - e.duration_ms), checkAttributes(e));
  m.close(span, at, e.passed ? { code: "ok" } : { code: "unset" });
}

function overrun(m: SpanState, e: EventOf<"cap.overrun">, at: number): void {
  const where = e.scope === "node" && e.node !== undefined ? m.attemptOrNode(e.node, e.branch, e.attempt) : undefined;
  m.event(where, "vouch.cap.overrun", at, {
    "vouch.cap": e.cap,
    "vouch.cap.scope": e.scope,
    "vouch.cap.limit": e.limit,
    "vouch.cap.actual": e.actual,
  });
}

function retrying(m: SpanState, e: EventOf<"node.retrying">, at: number): void {
  const key = nodeKey(e.node, e.branch);
  m.end(attemptSpanKey(key, e.attempt), at, causeStatus(e.cause, e.error ?? e.reason), {
    "vouch.attempt.cause": e.cause,
    ...(e.session_id !== undefined ? { "gen_ai.conversation.id": e.session_id } : {}),
  });
  m.event(m.openSpan(nodeSpanKey(key)), "vouch.node.retrying", at, {
    "vouch.attempt": e.attempt,
    "vouch.attempt.cause": e.cause,
    "vouch.retry.backoff_ms": e.backoff_ms,
  });
}

function limited(m: SpanState, e: EventOf<"node.limited">, at: number): void {
  const key = nodeKey(e.node, e.branch);
  m.end(attemptSpanKey(key, e.attempt), at, { code: "unset" }, { ...usageAttributes(e), "vouch.node.stop_reason": "rate_limited" });
  m.event(m.openSpan(nodeSpanKey(key)), "vouch.node.limited", at, {
    "vouch.harness": e.harness,
    "vouch.attempt": e.attempt,
    ...(e.resets_at !== null ? { "vouch.limit.resets_at": e.resets_at } : {}),
    "vouch.limit.error": bounded(e.error),
  });
}

function nodeFinished(m: SpanState, e: EventOf<"node.finished">, at: number): void {
  const key = nodeKey(e.node, e.branch);
  const status = verdictStatus(e.status, e.error ?? e.cause ?? undefined);
  // The deciding attempt's span: its verdict is the node's.
  m.end(attemptSpanKey(key, e.attempt), at, status, {
    "vouch.verdict": e.status,
    ...(e.stop_reason !== null ? { "vouch.node.stop_reason": e.stop_reason } : {}),
    ...(e.session_id !== undefined ? { "gen_ai.conversation.id": e.session_id } : {}),
  });
  if (m.kindOf(key) === "approval" || e.qualifier === "approved" || e.cause === "rejected")
    m.event(m.openSpan(nodeSpanKey(key)), "vouch.approval", at, {
      "vouch.approval.decision": e.status === "passed" ? "approve" : e.status,
    });
  const attrs = nodeFinishedAttributes(e);
  if (!m.end(nodeSpanKey(key), at, status, attrs)) {
    // Never started in this session (skipped, cancelled, or stopped before it began): a span for its verdict.
    const kind = m.kindOf(key) ?? "node";
    const id = inSession.node(m.sessionSpan.traceId, m.sessionId, key, m.seen.next("node", key));
    const span = m.span(id, m.nodeParent(e.node, e.branch), `node ${e.node}`, at - e.wall_ms, {
      ...nodeAttributes(e, kind),
      ...attrs,
    });
    m.close(span, at, status);
  }
}

function branchStarted(m: SpanState, e: EventOf<"branch.started">, at: number): void {
  const key = branchKey(e.branch.map, e.branch.index);
  const span = m.span(
    inSession.branch(m.sessionSpan.traceId, m.sessionId, key, m.seen.next("branch", key)),
    m.mapSpan(e.branch.map)?.spanId ?? m.sessionId,
    `branch ${e.branch.map}`,
    at,
    { "vouch.branch.map": e.branch.map, "vouch.branch.index": e.branch.index, "vouch.branch.label": bounded(e.label) },
  );
  m.begin(branchSpanKey(e.branch), span);
}

function branchFinished(m: SpanState, e: EventOf<"branch.finished">, at: number): void {
  m.end(branchSpanKey(e.branch), at, verdictStatus(e.status, e.error), {
    "vouch.verdict": e.status,
    ...(e.recovered !== undefined ? { "vouch.branch.recovered": e.recovered } : {}),
  });
}

function branchEvent(m: SpanState, branch: BranchRef): SpanRecord | undefined {
  return m.openSpan(branchSpanKey(branch)) ?? m.mapSpan(branch.map);
}

const HANDLERS: Handlers = {
  "run.started": () => {}, // SpanMapper.push starts the session
  "node.started": nodeStarted,
  "node.progress": nodeProgress,
  "check.finished": checkFinished,
  "cap.overrun": overrun,
  "node.retrying": retrying,
  "node.finished": nodeFinished,
  // What the model claimed beside the verdict (ADR 0068), on its attempt's span.
  "attempt.judged": (m, e, at) =>
    m.event(m.attemptOrNode(e.node, e.branch, e.attempt), "vouch.attempt.judged", at, {
      "vouch.claim": e.claim === undefined || e.claim === null ? "" : bounded(e.claim),
      "vouch.verdict": e.status,
      ...(e.retry_of !== undefined ? { "vouch.retry_of": e.retry_of } : {}),
    }),
  "branch.started": branchStarted,
  "branch.finished": branchFinished,
  "merge.conflict": (m, e, at) =>
    m.event(m.attemptOrNode(e.node, undefined, e.attempt), "vouch.merge.conflict", at, {
      "vouch.merge.git_branch": bounded(e.git_branch),
      "vouch.merge.from": bounded(e.from),
      "vouch.merge.paths": e.paths.slice(0, 32).map(bounded),
    }),
  // The user's repository changed during a sitting (ADR 0044): an event on the attempt that saw it.
  "repo.changed": (m, e, at) =>
    m.event(m.attemptOrNode(e.node, e.branch, e.attempt), "vouch.repo.changed", at, {
      "vouch.repo.changed": e.changed.slice(0, 32).map(bounded),
    }),
  "branch.dispatched": (m, e, at) =>
    m.event(branchEvent(m, e.branch), "vouch.branch.dispatched", at, {
      "vouch.branch.index": e.branch.index,
      "vouch.executor": bounded(e.executor),
      "vouch.job": bounded(e.job),
      "vouch.dispatch": e.dispatch,
    }),
  "branch.cut_off": (m, e, at) => m.event(branchEvent(m, e.branch), "vouch.branch.cut_off", at, jobAttributes(e)),
  "branch.result_refused": (m, e, at) =>
    m.event(branchEvent(m, e.branch), "vouch.branch.result_refused", at, {
      ...jobAttributes(e),
      "vouch.claimed_status": e.status,
      "vouch.reason": bounded(e.reason),
    }),
  "run.paused": (m, e, at) => {
    m.event(undefined, "vouch.run.paused", at, {
      "vouch.pause.reason": e.reason ?? "approval",
      "vouch.pause.approvals": e.approvals.slice(0, 32).map((a) => bounded(nodePath(a.node, a.branch))),
    });
    for (const a of e.approvals) {
      const node = m.openSpan(nodeSpanKey(nodeKey(a.node, a.branch)));
      if (node) m.event(node, "vouch.approval.waiting", at, {});
    }
  },
  "run.waiting": (m, e, at) =>
    m.event(undefined, "vouch.run.waiting", at, {
      "vouch.harness": e.harness,
      "vouch.wait.ms": e.wait_ms,
      "vouch.wait.until": e.until,
    }),
  // Who asked stays in the ledger (user and host): the trace says only that a cancel was asked, and how.
  "run.cancel_requested": (m, e, at) =>
    m.event(undefined, "vouch.run.cancel_requested", at, {
      "vouch.cancel.via": bounded(e.via),
      "vouch.cancel.requested_at": e.requested_at,
    }),
  "run.finished": (m, e, at) => m.endSession(e, at),
  "node.limited": limited,
};
