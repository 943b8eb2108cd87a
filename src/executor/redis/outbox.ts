// What one job sends its coordinator, batched (ADR 0079): a message waits at most
// FLUSH_MS, and every message that came meanwhile goes with it in one stream entry
// (one XADD: stream-entry.ts), so a branch's events cost a round trip per burst, not
// one each. The delivery takes the messages still waiting in the same pipeline, after
// them: the branch's end is one round trip. Writes go one at a time, in order; one
// that fails does not hold up the next (its messages' promises reject).
import type { Redis } from "ioredis";
import type { Delivery } from "../worker-host.ts";
import type { SealedMessage } from "../protocol.ts";
import { defineDeliver, deliveryOf, queueDeliver, type DeliverArgs } from "./deliver.ts";
import { entryFields } from "./stream-entry.ts";

/** How long a message may wait for others: what the coordinator's live view lags by, at most. */
export const FLUSH_MS = 20;

interface Waiting {
  m: SealedMessage;
  resolve(): void;
  reject(e: unknown): void;
}

export class Outbox {
  private waiting: Waiting[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

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

  /** After every message so far, in the same round trip as the last of them. */
  deliver(o: DeliverArgs): Promise<Delivery> {
    const batch = this.take();
    const done = this.chain.then(async () => {
      const p = this.cmd.pipeline();
      if (batch.length > 0) p.xadd(this.stream, "*", ...entryFields(batch.map((w) => w.m)));
      queueDeliver(p, o);
      const replies = (await p.exec()) ?? [];
      if (batch.length > 0) settle(batch, replies[0]?.[0] ?? null);
      const [err, r] = replies[replies.length - 1] ?? [new Error("the delivery got no answer"), null];
      if (err) throw err;
      return deliveryOf(r);
    });
    this.chain = done.catch((e: unknown) => settle(batch, e));
    return done;
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

function settle(batch: Waiting[], err: unknown): void {
  for (const w of batch) err ? w.reject(err) : w.resolve();
}
