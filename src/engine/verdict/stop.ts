// Why the run (or a part of it) is stopping, and what work that a stop cut off
// ends as (ADR 0002, "ERROR is never FAIL"). Pure. The handlers and the
// executor read RunStop through the engine's node contract
// (src/engine/run/contract.ts, ADR 0036); it is defined here because the
// verdict decides what it means, and the verdict never imports src/engine/run/.
import type { Cause, NodeStatus } from "../events.ts";

/** Every reason a run, a sub-graph or a map stops early. */
export const RUN_STOPS = ["interrupted", "budget", "wall", "fail_fast", "graph_budget", "graph_wall", "executor"] as const;

/** Why the run itself is stopping, when it is: a sitting cancelled by it is an error, not an interruption. */
export type RunStop = (typeof RUN_STOPS)[number];

const STOP_SET: ReadonlySet<string> = new Set(RUN_STOPS);

/** A text (a Redis cancel key's value, say) that names a stop. */
export function isRunStop(text: string): text is RunStop {
  return STOP_SET.has(text);
}

export interface StopOutcome {
  status: NodeStatus;
  cause: Cause;
  error: string;
}

/** What work cut off by a stop ends as: the run's budget or wall cap make it an
 *  error (vouch stopped it, the node did nothing wrong but reached no verdict);
 *  Ctrl-C and a map's fail_fast make it cancelled. */
export function stopOutcome(runStop: RunStop | null, detail?: string): StopOutcome {
  if (runStop === "budget") return { status: "error", cause: "run_budget", error: "stopped: the run budget was crossed" };
  if (runStop === "wall") return { status: "error", cause: "run_wall", error: "stopped: the run wall time was crossed" };
  // A sub-graph's own caps (ADR 0024): the work inside it stops as a cap stop of its graph node.
  if (runStop === "graph_budget") return { status: "error", cause: "cap_stop", error: "stopped: the sub-graph's budget_usd was crossed" };
  if (runStop === "graph_wall") return { status: "error", cause: "cap_stop", error: "stopped: the sub-graph's wall time was crossed" };
  // The executor (Redis) was lost: vouch could not see the branch through, the node reached no verdict.
  if (runStop === "executor") return { status: "error", cause: "executor_lost", error: "stopped: the branch executor was lost" };
  return { status: "cancelled", cause: "cancelled", error: detail ? `cancelled: ${detail}` : "cancelled" };
}
