// The approvals a watched run waits on, put to the person at `vouch watch`'s live
// view (ADR 0063): an approval node started and not finished is asked on screen;
// `a` or `r` records the decision in the ledger as `vouch approve` would (via
// "watch"); the run's own process takes it from there. The question goes away
// when the run's events say the approval was decided, or the run ended.
import { nodeKey, type VouchEvent } from "../../engine/events.ts";
import type { ApprovalRequest, Approvals } from "../../engine/ports.ts";
import type { Decision } from "../../engine/run/decisions.ts";

export class WatchedApprovals {
  /** By nodeKey: the question on screen and how to withdraw it. */
  private readonly open = new Map<string, AbortController>();

  constructor(
    private readonly ask: Approvals,
    private readonly record: (request: ApprovalRequest, decision: Decision) => void,
  ) {}

  seen(events: readonly VouchEvent[]): void {
    for (const e of events) {
      if (e.type === "node.started" && e.kind === "approval") this.asked(e);
      else if (e.type === "node.finished") this.withdraw(nodeKey(e.node, e.branch));
      else if (e.type === "run.finished" || e.type === "run.paused") this.withdrawAll();
    }
  }

  private asked(e: Extract<VouchEvent, { type: "node.started" }>): void {
    const key = nodeKey(e.node, e.branch);
    this.withdraw(key);
    const controller = new AbortController();
    this.open.set(key, controller);
    const request: ApprovalRequest = {
      node: e.node,
      ...(e.branch ? { branch: e.branch } : {}),
      ...(e.prompt !== undefined ? { prompt: e.prompt } : {}),
      ...(e.round !== undefined ? { round: e.round } : {}),
    };
    this.ask.decide(request, controller.signal).then(
      (d) => {
        if (this.open.get(key) === controller) this.open.delete(key);
        if (d === "approve" || d === "reject") this.record(request, d);
      },
      () => {},
    );
  }

  private withdraw(key: string): void {
    this.open.get(key)?.abort(new Error("decided"));
    this.open.delete(key);
  }

  withdrawAll(): void {
    for (const key of [...this.open.keys()]) this.withdraw(key);
  }
}
