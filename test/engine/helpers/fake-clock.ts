// Virtual time for engine tests: sleep() registers a timer; drive() fires the
// earliest timer whenever the system has gone idle (a macrotask turn passed
// with nothing settling), so backoff and wall caps run without real waiting.
import type { Clock } from "../../../src/engine/ports.ts";

interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

export class FakeClock implements Clock {
  t = Date.UTC(2026, 10, 29, 12, 0, 0);
  private timers: Timer[] = [];
  private seq = 0;

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        fire: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Move time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.t + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > until) break;
      this.fireTimer(next);
    }
    this.t = until;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq)) best = x;
    return best;
  }

  private fireTimer(x: Timer): void {
    this.timers = this.timers.filter((y) => y !== x);
    this.t = Math.max(this.t, x.at);
    x.fire();
  }

  /** Run until the promise settles, firing timers only when nothing else can move. */
  async drive<T>(p: Promise<T>, maxIdleTurns = 2000): Promise<T> {
    let settled = false;
    p.then(
      () => (settled = true),
      () => (settled = true),
    );
    let idle = 0;
    while (!settled) {
      await new Promise((r) => setImmediate(r));
      if (settled) break;
      const next = this.earliest();
      if (next) {
        idle = 0;
        this.fireTimer(next);
      } else if (++idle > maxIdleTurns) {
        throw new Error("FakeClock.drive: nothing settles and no timer is pending (the run is stuck)");
      }
    }
    return p;
  }
}
