// The Approvals port outside the TUI: decisions given on the command line
// (`vouch resume RUN --approve NODE`), else "pause" (the run ends with exit 4).
// A rejection the ledger already holds answers first: it is final.
import type { ApprovalRequest, Approvals } from "../engine/ports.ts";
import { nodeKey } from "../engine/events.ts";
import type { Decision } from "../engine/run/decisions.ts";

export type { Decision };

/** `fallback` answers what the flags do not (the TUI, or pause when headless);
 *  `standing` (by nodeKey) answers before both: decisions recorded in the ledger. */
export function flagApprovals(
  decisions: ReadonlyMap<string, Decision>,
  fallback?: Approvals,
  standing: ReadonlyMap<string, Decision> = new Map(),
): Approvals {
  return {
    async decide(request: ApprovalRequest, signal: AbortSignal) {
      const decided = standing.get(nodeKey(request.node, request.branch)) ?? decisions.get(request.node);
      if (decided) return decided;
      return fallback ? fallback.decide(request, signal) : "pause";
    },
  };
}
