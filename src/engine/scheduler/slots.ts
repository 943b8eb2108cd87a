// A counting semaphore with a FIFO queue: the run's process slots
// (`concurrency`). Waiters leave the queue when their signal aborts.

export class AbortedWhileWaiting extends Error {
  override readonly name = "AbortedWhileWaiting";
}

export class Slots {
  private used = 0;
  private readonly queue: { grant: () => void; signal?: AbortSignal }[] = [];
  private head = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Resolves with a release function; rejects with AbortedWhileWaiting if the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new AbortedWhileWaiting("aborted"));
    if (this.used < this.limit && this.head === this.queue.length) {
      this.used++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry, this.head);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new AbortedWhileWaiting("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      this.grantNext();
    };
  }

  private grantNext(): void {
    while (this.used < this.limit && this.head < this.queue.length) {
      const next = this.queue[this.head++]!;
      this.used++;
      next.grant();
    }
    // Drop the consumed prefix now and then so the queue does not grow for ever.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
