// A session's notifications (ADR 0064): the committed events (and the approvals a
// person is asked) become notifications for the targets that chose them; each is
// delivered in the background within its target's timeout. A delivery that fails
// or hangs never changes the run: its target is named in one warning (later
// failures of it are not said again), and the session waits for what is under
// way only at its end, bounded by the timeouts.
import { nodeKey, type VouchEvent } from "../../engine/events.ts";
import type { ApprovalRequest } from "../../engine/ports.ts";
import type { NotifyEvent } from "../../engine/graph/notify-schema.ts";
import type { EventOutput } from "../../tui/output.ts";
import { approvalNotice, endNotice, limitNotice, type Notification } from "./payload.ts";
import type { NotifyTarget } from "./targets.ts";

/** Delivers one notification to one target: null when it went, else why not. */
export type Deliver = (target: NotifyTarget, payload: string) => Promise<string | null>;

export class Notifications {
  private readonly pending = new Set<Promise<void>>();
  private readonly warned = new Set<NotifyTarget>();
  /** Approvals already told of (nodeKey + round): the live view's ask and run.paused are one approval. */
  private readonly told = new Set<string>();
  private graph = "";

  constructor(
    private readonly runId: string,
    private readonly targets: readonly NotifyTarget[],
    private readonly deliver: Deliver,
    private readonly warn: (line: string) => void,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  get any(): boolean {
    return this.targets.length > 0;
  }

  /** A person is asked to decide an approval now (the live view, or --wait-approvals). */
  asked(r: ApprovalRequest): void {
    this.approval(r, false);
  }

  seen(e: VouchEvent): void {
    if (e.type === "run.started") this.graph = e.graph;
    else if (e.type === "run.paused" && e.reason === "rate_limited" && e.harness !== undefined)
      this.send(limitNotice(this.facts(), e.harness, e.resets_at ?? null, false));
    else if (e.type === "run.paused") for (const a of e.approvals) this.approval(a, true);
    else if (e.type === "run.waiting") this.send(limitNotice(this.facts(), e.harness, e.resets_at, true));
    else if (e.type === "run.finished") {
      this.send(endNotice(this.facts(), "run_finished", e));
      if (e.status === "failed") this.send(endNotice(this.facts(), "run_failed", e));
      if (e.status === "error") this.send(endNotice(this.facts(), "run_errored", e));
    }
  }

  /** Waits for every delivery under way (each is bounded by its target's timeout). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private approval(r: Pick<ApprovalRequest, "node" | "branch" | "prompt" | "round">, paused: boolean): void {
    const key = `${nodeKey(r.node, r.branch)}\u0000${r.round ?? 1}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.send(approvalNotice(this.facts(), r, paused));
  }

  private facts() {
    return { run: this.runId, graph: this.graph, at: this.now() };
  }

  private send(n: Notification): void {
    const payload = `${JSON.stringify(n)}\n`;
    for (const t of this.targets) if (t.on.has(n.event as NotifyEvent)) this.track(t, payload, n.event);
  }

  /** One target's notifications go one after another, in the order they happened. */
  private readonly queues = new Map<NotifyTarget, Promise<unknown>>();

  private track(t: NotifyTarget, payload: string, event: string): void {
    const before = this.queues.get(t) ?? Promise.resolve();
    const delivered = before.then(() => this.deliver(t, payload));
    this.queues.set(
      t,
      delivered.catch(() => {}),
    );
    const p = delivered
      .catch((e: unknown) => (e as Error)?.message ?? String(e))
      .then((why) => {
        if (why === null || this.warned.has(t)) return;
        this.warned.add(t);
        this.warn(
          `vouch: notify ${t.label} (${event}) failed: ${why}; the run is not affected, and later failures of this notifier are not reported\n`,
        );
      })
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }
}

/** The session's output, telling `n` of every event it shows (after the ledger committed it). */
export function notifyingOutput(output: EventOutput, n: Notifications): EventOutput {
  if (!n.any) return output;
  const many = output.pushMany?.bind(output);
  return {
    push(e) {
      output.push(e);
      n.seen(e);
    },
    ...(many
      ? {
          pushMany(events: readonly VouchEvent[]) {
            many(events);
            for (const e of events) n.seen(e);
          },
        }
      : {}),
    close: () => output.close(),
  };
}
