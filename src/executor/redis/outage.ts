// A coordinator rides out a Redis restart (ADR 0046): its clients reconnect and their
// commands wait meanwhile, and this tracks, across all of them, since when one has
// been down. The executor ends the run (`error`, reason executor) once the outage is
// longer than its bound; shorter ones are said on stderr and forgotten.
import type { Redis } from "ioredis";

const DOWN_EVENTS = ["close", "reconnecting", "end"] as const;

export class Outage {
  private downSince: number | null = null;
  private stopped = false;

  constructor(
    private readonly clients: readonly Redis[],
    private readonly say: { down(): void; back(ms: number): void },
  ) {
    for (const c of clients) {
      for (const e of DOWN_EVENTS) c.on(e, () => this.down());
      c.on("ready", () => this.maybeBack());
    }
  }

  private down(): void {
    if (this.stopped || this.downSince !== null) return;
    this.downSince = Date.now();
    this.say.down();
  }

  private maybeBack(): void {
    if (this.stopped || this.downSince === null || !this.clients.every((c) => c.status === "ready")) return;
    const ms = Date.now() - this.downSince;
    this.downSince = null;
    this.say.back(ms);
  }

  /** How long a client has been down, 0 while all are up. */
  downFor(now = Date.now()): number {
    return this.downSince === null ? 0 : now - this.downSince;
  }

  /** The executor closes its clients: what they do then is no outage. */
  stop(): void {
    this.stopped = true;
  }
}

/** What the coordinator says when its connection goes and comes back. */
export function outageNotices(
  display: string,
  reconnectMs: number,
  notice: (line: string) => void,
): { down(): void; back(ms: number): void } {
  const bound = Math.round(reconnectMs / 1000);
  return {
    down: () =>
      notice(`vouch: lost the connection to Redis at ${display}; reconnecting (the run ends error if it is not back in ${bound} s)\n`),
    back: (ms) => notice(`vouch: Redis at ${display} is back after ${(ms / 1000).toFixed(1)} s\n`),
  };
}

/** Redis stream ids ("<ms>-<seq>") in order: whether `a` is at or after `b`. */
export function streamIdAtOrAfter(a: string, b: string): boolean {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am > bm || (am === bm && as >= bs);
}
