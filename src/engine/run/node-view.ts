// How a finished node looks to templates and conditions (`nodes.<id>`), to
// commands (the state file) and in node.finished.
import type { BranchRef, Cause, EventOf, NodeStatus, Qualifier } from "../events.ts";
import type { NodeResult } from "./contract.ts";

/** Keys are present only when they hold something: a template naming a missing one is an error. */
export interface NodeView {
  status: NodeStatus;
  qualifier?: Qualifier;
  cause?: Cause;
  output?: unknown;
  error?: string;
  results?: unknown[];
  recovered?: boolean;
}

export function viewOf(
  r: Pick<NodeResult, "status" | "qualifier" | "cause" | "output" | "error" | "results">,
  recovered = false,
): NodeView {
  const v: NodeView = { status: r.status };
  if (r.qualifier !== null) v.qualifier = r.qualifier;
  if (r.cause !== null) v.cause = r.cause;
  if (r.output !== undefined) v.output = r.output;
  if (r.error !== undefined) v.error = r.error;
  if (r.results !== undefined) v.results = r.results;
  if (recovered) v.recovered = true;
  return v;
}

/** Template and condition data: the frame's inputs, the nodes (a branch also sees the scope around
 *  its map), and in a branch its item (also under the map's `as` name) and index. */
export function templateData(
  inputs: Record<string, unknown>,
  views: Record<string, NodeView>,
  place?: { item: unknown; index: number; as?: string; outer: Record<string, NodeView> },
): Record<string, unknown> {
  if (!place) return { inputs, nodes: views };
  const s: Record<string, unknown> = { inputs, nodes: { ...place.outer, ...views }, item: place.item, index: place.index };
  if (place.as) s[place.as] = place.item;
  return s;
}

/** The state file's shape: {inputs, nodes: {id: {status, output, results?}}, item?, index?}. */
export function stateOf(
  inputs: Record<string, unknown>,
  nodes: Record<string, NodeView>,
  place?: { item: unknown; index: number },
): unknown {
  const out: Record<string, { status: NodeStatus; output?: unknown; results?: unknown[] }> = Object.create(null) as Record<string, never>;
  for (const [id, v] of Object.entries(nodes)) {
    const s: { status: NodeStatus; output?: unknown; results?: unknown[] } = { status: v.status };
    if (v.output !== undefined) s.output = v.output;
    if (v.results !== undefined) s.results = v.results;
    out[id] = s;
  }
  return place ? { inputs, nodes: out, item: place.item, index: place.index } : { inputs, nodes: out };
}

export interface FinishExtras {
  recovered?: boolean;
  fallback?: string;
  round?: number;
}

export function finishedEvent(
  node: string,
  branch: BranchRef | undefined,
  r: NodeResult,
  x: FinishExtras = {},
): Omit<EventOf<"node.finished">, "v" | "run" | "t" | "seq"> {
  const e: Omit<EventOf<"node.finished">, "v" | "run" | "t" | "seq"> = {
    type: "node.finished",
    node,
    attempt: r.attempt,
    status: r.status,
    qualifier: r.qualifier,
    stop_reason: r.stopReason,
    cause: r.cause,
    cost_usd: r.costUsd,
    turns: r.turns,
    wall_ms: Math.max(0, r.wallMs),
  };
  if (branch) e.branch = branch;
  if (r.tokens !== undefined) e.tokens = r.tokens;
  if (r.evidence !== undefined) e.evidence = r.evidence;
  if (r.output !== undefined) e.output = r.output;
  if (r.error !== undefined) e.error = r.error;
  if (r.resultTail !== undefined) e.result_tail = r.resultTail;
  if (x.recovered) e.recovered = true;
  if (x.fallback !== undefined) e.fallback = x.fallback;
  if (x.round !== undefined) e.round = x.round;
  if (r.sessionId !== undefined) e.session_id = r.sessionId;
  // Only when it says more than cost_usd: a reader takes cost_usd as the session's total otherwise.
  if (r.sessionId !== undefined && r.sessionCostUsd !== undefined && r.sessionCostUsd !== r.costUsd) e.session_cost_usd = r.sessionCostUsd;
  if (r.apiRetries !== undefined) e.api_retries = r.apiRetries;
  if (r.workspace !== undefined) e.workspace = r.workspace;
  if (r.seal !== undefined) {
    e.sealed = r.seal.sealed;
    if (r.seal.reason !== undefined) e.unsealed_reason = r.seal.reason;
  }
  return e;
}
