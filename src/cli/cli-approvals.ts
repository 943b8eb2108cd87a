// The Approvals port outside the TUI: decisions given on the command line
// (`vouch resume RUN --approve NODE`), else "pause" (the run ends with exit 4).
import type { ApprovalRequest, Approvals } from "../engine/ports.ts";

export type Decision = "approve" | "reject";

/** `fallback` answers what the flags do not (the TUI, or pause when headless). */
export function flagApprovals(decisions: Map<string, Decision>, fallback?: Approvals): Approvals {
  return {
    async decide(request: ApprovalRequest, signal: AbortSignal) {
      const decided = decisions.get(request.node);
      if (decided) return decided;
      return fallback ? fallback.decide(request, signal) : "pause";
    },
  };
}
