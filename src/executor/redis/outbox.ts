// What one job sends its coordinator, batched (ADR 0079): a message waits at most
// FLUSH_MS, and every message that came meanwhile goes with it in one stream entry
// (one XADD: stream-entry.ts), so a branch's events cost a round trip per burst, not
// one each. The delivery takes the messages still waiting in the same pipeline, after
// them: the branch's end is one round trip. Writes go one at a time, in order; one
// that fails does not hold up the next (its messages' promises reject).
// A worker keeps one outbox per run for all the run's jobs it holds (ADR 0093: they write
// to one stream), so concurrent jobs share an entry per burst, and the deliveries asked for
// in one turn go in one pipeline; the messages waiting ride in the first delivery's entry.
import type { Redis } from "ioredis";
import type { Delivery } from "../worker-host.ts";
import type { SealedMessage } from "../protocol.ts";
import { defineDeliver, deliveryOf, IN_SCRIPT, queueDeliver, RIDERS_WRITTEN, type DeliverArgs } from "./deliver.ts";
import { entryFields } from "./stream-entry.ts";

/** How long a message may wait for others: what the coordinator's live view lags by, at most. */
export const FLUSH_MS = 20;

interface Waiting {
  m: SealedMessage;
  resolve(): void;
  reject(e: unknown): void;
}

interface Due {
  o: DeliverArgs;
  resolve(d: Delivery): void;
  reject(e: unknown): void;
}

export class Outbox {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private deliveries: Due[] = [];
  private deliveriesDue: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly cmd: Redis,
    private readonly stream: string,
  ) {
    defineDeliver(cmd);
  }

  /** Settles once the entry holding `m` is written. */
  send(m: SealedMessage): Promise<void> {
    const sent = new Promise<void>((resolve, reject) => this.waiting.push({ m, resolve, reject }));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    return sent;
  }

  /** Writes what waits now; settles when every write so far has. */
  sent(): Promise<void> {
    return this.flush().then(() => {});
  }

  /** After every message so far, in the same round trip as the last of them (and as the
   *  other deliveries asked for in this turn). */
  deliver(o: DeliverArgs): Promise<Delivery> {
    const d = new Promise<Delivery>((resolve, reject) => this.deliveries.push({ o, resolve, reject }));
    this.deliveriesDue ??= setImmediate(() => this.writeDeliveries());
    return d;
  }

  private writeDeliveries(): void {
    this.deliveriesDue = null;
    const due = this.deliveries.splice(0);
    const batch = this.take();
    const inScript = batch.length <= IN_SCRIPT;
    const done = this.chain.then(async () => {
      const p = this.cmd.pipeline();
      const fields = entryFields(batch.map((w) => w.m));
      if (!inScript) p.xadd(this.stream, "*", ...fields);
      due.forEach((d, i) => queueDeliver(p, d.o, inScript && i === 0 ? fields : []));
      const replies = (await p.exec()) ?? [];
      const first = inScript ? 0 : 1;
      // The messages' write, first either way: their own XADD, or the first delivery's script.
      if (batch.length > 0) settle(batch, written(replies[0]?.[0] ?? null));
      due.forEach((d, i) => {
        const [err, r] = replies[first + i] ?? [new Error("the delivery got no answer"), null];
        if (err) return d.reject(err);
        try {
          d.resolve(deliveryOf(r));
        } catch (e) {
          d.reject(e);
        }
      });
    });
    this.chain = done.catch((e: unknown) => {
      settle(batch, e);
      for (const d of due) d.reject(e);
    });
  }

  private take(): Waiting[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.waiting.splice(0);
  }

  private flush(): Promise<unknown> {
    const batch = this.take();
    if (batch.length === 0) return this.chain;
    const write = this.chain.then(() => this.cmd.xadd(this.stream, "*", ...entryFields(batch.map((w) => w.m))));
    this.chain = write.then(
      () => settle(batch, null),
      (e: unknown) => settle(batch, e),
    );
    return this.chain;
  }
}

/** The messages' write failed only when their reply is an error the script did not mark as
 *  made after writing them (a delivery's own failure is not theirs). */
function written(err: unknown): unknown {
  return err instanceof Error && err.message.startsWith(RIDERS_WRITTEN) ? null : err;
}

function settle(batch: Waiting[], err: unknown): void {
  for (const w of batch) err ? w.reject(err) : w.resolve();
}
