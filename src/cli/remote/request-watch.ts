// The running session's side of requests (ADR 0062): it polls the ledger's
// `requests` table by id — one indexed query per poll — and hands a cancel to
// the session and a decision to the approval waiting for it. A cancel recorded
// before this session started (its id at or below the one seen at start) is not
// this session's: it never stops a resume.
import type { BranchRef } from "../../engine/events.ts";
import type { CancelRequest, DecisionRequest, RunRequests } from "../../ledger/index.ts";

/** How often the session looks: a cancel or a decision is taken within about this long. */
export const REQUEST_POLL_MS = 250;

interface Waiter {
  node: string;
  map: string;
  index: number;
  round: number;
  resolve(r: DecisionRequest): void;
}

export interface RequestWatchOptions {
  pollMs?: number;
  /** A poll failed (the ledger cannot be read): said once, then the watch stops. */
  onError(e: unknown): void;
}

export class RequestWatch {
  private readonly startId: number;
  private lastId: number;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly waiters = new Set<Waiter>();
  private failed = false;

  constructor(
    private readonly requests: RunRequests,
    private readonly runId: string,
    private readonly onCancel: (r: CancelRequest) => void,
    private readonly opts: RequestWatchOptions,
  ) {
    this.startId = requests.lastId(runId);
    this.lastId = this.startId;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.poll(), this.opts.pollMs ?? REQUEST_POLL_MS);
    // The watch never keeps the process alive: the run does.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** One look at the table (the timer's; tests call it directly). */
  poll(): void {
    if (this.failed) return;
    let rows;
    try {
      rows = this.requests.after(this.runId, this.lastId);
    } catch (e) {
      this.failed = true;
      this.stop();
      return this.opts.onError(e);
    }
    for (const r of rows) {
      this.lastId = Math.max(this.lastId, r.id);
      if (r.kind === "cancel") {
        if (r.id > this.startId) this.onCancel(r);
      } else this.answer(r);
    }
  }

  /** The decision recorded for an approval instance, now or when one is recorded. */
  decision(node: string, branch: BranchRef | undefined, round: number, signal: AbortSignal): Promise<DecisionRequest> {
    const recorded = this.requests.decisionFor(this.runId, node, branch, round);
    if (recorded) return Promise.resolve(recorded);
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<DecisionRequest>((resolve, reject) => {
      const waiter: Waiter = {
        node,
        map: branch?.map ?? "",
        index: branch?.index ?? -1,
        round,
        resolve: (r) => {
          signal.removeEventListener("abort", onAbort);
          resolve(r);
        },
      };
      const onAbort = () => {
        this.waiters.delete(waiter);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  private answer(r: DecisionRequest): void {
    for (const w of [...this.waiters]) {
      if (w.node !== r.node || w.map !== (r.branch?.map ?? "") || w.index !== (r.branch?.index ?? -1) || w.round !== r.round) continue;
      this.waiters.delete(w);
      w.resolve(r);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
