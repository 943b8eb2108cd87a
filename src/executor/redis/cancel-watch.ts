// A worker's watch on the coordinator's stops (ADR 0030, 0079): one MGET of the cancel
// keys of every job it runs, every POLL_MS, instead of a GET per job: the reads grow
// with time, not with the worker's concurrency. A job whose key is set is stopped once.
import type { Redis } from "ioredis";
import { cancelKey } from "./keys.ts";

export const CANCEL_POLL_MS = 250;

export class CancelWatch {
  private readonly watched = new Map<string, (reason: string) => void>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling = false;

  constructor(private readonly cmd: Redis) {}

  /** Calls `stop` once job `id`'s cancel key is set; the returned function stops watching. */
  watch(id: string, stop: (reason: string) => void): () => void {
    this.watched.set(id, stop);
    this.timer ??= setInterval(() => void this.poll(), CANCEL_POLL_MS);
    return () => {
      if (this.watched.get(id) === stop) this.watched.delete(id);
      if (this.watched.size === 0) this.end();
    };
  }

  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    // One read at a time: while Redis is down a read waits, and no second one piles up.
    if (this.polling || this.watched.size === 0) return;
    this.polling = true;
    try {
      const ids = [...this.watched.keys()];
      const reasons = await this.cmd.mget(...ids.map(cancelKey));
      ids.forEach((id, i) => {
        const reason = reasons[i];
        const stop = this.watched.get(id);
        if (reason === null || reason === undefined || !stop) return;
        this.watched.delete(id);
        stop(reason);
      });
    } catch {
      // The next poll tries again.
    } finally {
      this.polling = false;
    }
  }
}
