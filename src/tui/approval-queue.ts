// The Approvals port as the TUI answers it: decide() puts the request on screen
// and waits for `a` or `r`. When the user quits, every waiting and later
// request answers "pause", so the run ends paused (exit 4) instead of hanging.
import type { ApprovalRequest, Approvals } from "../engine/ports.ts";
import type { PendingApprovalView } from "./view-rows.ts";

export type Decision = "approve" | "reject" | "pause";

export interface ApprovalQueue extends Approvals {
  /** Waiting requests, oldest first. */
  pending(): readonly PendingApprovalView[];
  /** Answer one waiting request; false when it is no longer waiting. */
  answer(id: number, decision: "approve" | "reject"): boolean;
  /** The user left: answer "pause" now and to every later request. */
  pauseAll(): void;
  subscribe(listener: () => void): () => void;
}

export function createApprovalQueue(): ApprovalQueue {
  const waiting = new Map<number, { view: PendingApprovalView; resolve: (d: Decision) => void }>();
  const listeners = new Set<() => void>();
  let nextId = 1;
  let paused = false;
  const changed = () => listeners.forEach((l) => l());

  return {
    decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision> {
      if (paused) return Promise.resolve("pause");
      if (signal.aborted) return Promise.reject(signal.reason);
      return new Promise<Decision>((resolve, reject) => {
        const id = nextId++;
        const view: PendingApprovalView = { id, node: request.node };
        if (request.branch) view.branch = request.branch;
        if (request.prompt !== undefined) view.prompt = request.prompt;
        const onAbort = () => {
          if (waiting.delete(id)) changed();
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.set(id, {
          view,
          resolve: (d) => {
            signal.removeEventListener("abort", onAbort);
            resolve(d);
          },
        });
        changed();
      });
    },
    pending: () => [...waiting.values()].map((w) => w.view),
    answer(id, decision) {
      const w = waiting.get(id);
      if (!w) return false;
      waiting.delete(id);
      w.resolve(decision);
      changed();
      return true;
    },
    pauseAll() {
      paused = true;
      for (const w of waiting.values()) w.resolve("pause");
      waiting.clear();
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
