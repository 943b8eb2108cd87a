// Feedback (ADR 0002): a node with `feedback:` that did not pass (or whose
// `when` holds) sends its chain — every node from `feedback.to` to it — back to
// run again, at most `max` times, quoting why into the head's next prompt. Pure:
// the scope applies the loop this returns.
import { evaluateCondition } from "../condition.ts";
import type { ScopeNode } from "../scheduler/scope-index.ts";
import { quoteFeedback } from "../verdict/retry.ts";
import type { NodeResult } from "./contract.ts";
import { viewOf, type NodeView } from "./node-view.ts";

export interface FeedbackLoop {
  /** The chain, in topological order (the owner included). */
  chain: readonly string[];
  /** The head that runs again first, and the quote its prompt gets. */
  to: string;
  quote: string;
  /** The owner's result this round, as the head may read it. */
  view: NodeView;
}

export interface FeedbackAsk {
  id: string;
  node: ScopeNode;
  result: NodeResult;
  chain: readonly string[] | undefined;
  /** Loops the owner sent back so far, and the round it is in. */
  loops: number;
  round: number;
  /** The run, sub-graph or map is stopping: nothing loops. */
  stopping: boolean;
  scope: () => Record<string, unknown>;
}

/** The loop to make, or null when the result stands. */
export function feedbackLoop(a: FeedbackAsk): FeedbackLoop | null {
  const fb = "feedback" in a.node ? a.node.feedback : undefined;
  if (!fb || !a.chain || a.stopping || a.result.status === "cancelled") return null;
  if (a.loops >= fb.max) return null;
  const view = viewOf(a.result);
  const holds = fb.when
    ? evaluateCondition(fb.when, { ...a.scope(), nodes: { ...(a.scope().nodes as object), [a.id]: view } })
    : a.result.status !== "passed";
  if (!holds) return null;
  return { chain: a.chain, to: fb.to, quote: quoteFeedback(a.id, a.round, a.result), view };
}
