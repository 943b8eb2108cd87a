// Which approvals of a recorded run wait for a decision, and which were decided:
// an approval node.started with no node.finished after it waits (in a live run,
// or one paused or stopped at it: a resume asks it again). Pure, over the events.
import { nodeKey, type BranchRef, type VouchEvent } from "../../engine/events.ts";

export interface ApprovalInstance {
  node: string;
  branch?: BranchRef;
  round: number;
  prompt?: string;
}

export interface DecidedApproval extends ApprovalInstance {
  decision: "approve" | "reject";
  at: string;
}

export function approvalsOf(events: readonly VouchEvent[]): { waiting: ApprovalInstance[]; decided: DecidedApproval[] } {
  const open = new Map<string, ApprovalInstance>();
  const decided = new Map<string, DecidedApproval>();
  for (const e of events) {
    if (e.type === "node.started" && e.kind === "approval") {
      const i: ApprovalInstance = { node: e.node, round: e.round ?? 1 };
      if (e.branch) i.branch = e.branch;
      if (e.prompt !== undefined) i.prompt = e.prompt;
      open.set(nodeKey(e.node, e.branch), i);
    } else if (e.type === "node.finished") {
      const key = nodeKey(e.node, e.branch);
      const i = open.get(key);
      if (!i) continue;
      open.delete(key);
      const d = e.qualifier === "approved" ? "approve" : e.cause === "rejected" ? "reject" : null;
      if (d) decided.set(key, { ...i, decision: d, at: e.t });
    }
  }
  return { waiting: [...open.values()], decided: [...decided.values()] };
}
