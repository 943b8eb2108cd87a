// The TRACEPARENT a child process gets while a run exports traces (ADR 0059): a sitting's
// CLI and a script node's command nest under their attempt's span, a check under its own
// span. The ids are the ones span-mapper.ts gives those spans when their events arrive
// (after the process ran), counted the same way: one process per node.started of an
// attempt, one per check.finished.
import { nodeKey, type BranchRef } from "../engine/events.ts";
import { formatTraceparent, inSession, Occurrences, sessionSpanId, type TraceRoot } from "./trace-ids.ts";

/** Who a child process runs for. `check` is set for a check's command. */
export interface ChildOf {
  node: string;
  branch?: BranchRef;
  attempt: number;
  check?: string;
}

export type ChildTrace = (who: ChildOf) => Record<string, string>;

/** The child-side ids of one session: the session whose run.started gets seq `startSeq`. */
export function childTrace(root: TraceRoot, startSeq: number): ChildTrace {
  const session = sessionSpanId(root.traceId, startSeq);
  const seen = new Occurrences();
  return (who) => {
    const key = nodeKey(who.node, who.branch);
    const spanId =
      who.check === undefined
        ? inSession.attempt(root.traceId, session, key, who.attempt, seen.next("attempt", key, who.attempt))
        : inSession.check(root.traceId, session, key, who.attempt, who.check, seen.next("check", key, who.attempt, who.check));
    const vars: Record<string, string> = { TRACEPARENT: formatTraceparent({ traceId: root.traceId, spanId }) };
    if (root.traceState !== undefined) vars.TRACESTATE = root.traceState;
    return vars;
  };
}
