// A worker's SIGTERM must end even while Redis is down (docs/scale-out.md, "Faults"):
// BullMQ's close waits for the running jobs to be handed back, and a worker's
// connection retries a command for ever, so every wait of the stop is cut short
// once the connection is (or goes) down. Nothing is lost by not waiting: a job
// that could not be handed back goes to another worker when this one's lock runs out.
import type { Redis } from "ioredis";

const DOWN_EVENTS = ["close", "reconnecting", "end"] as const;

/** Resolves when `p` settles, or at once when `conn` is not (or stops being) ready. */
export function unlessDown(p: Promise<unknown> | undefined, conn: Redis | null): Promise<void> {
  if (!p) return Promise.resolve();
  const settled = p.then(
    () => {},
    () => {},
  );
  if (!conn || conn.status !== "ready") return Promise.race([settled, Promise.resolve()]);
  let off = () => {};
  const down = new Promise<void>((resolve) => {
    const on = () => resolve();
    for (const e of DOWN_EVENTS) conn.once(e, on);
    off = () => {
      for (const e of DOWN_EVENTS) conn.off(e, on);
    };
  });
  return Promise.race([settled, down]).finally(off);
}

/** Whether a stop could not reach Redis (what the worker then says). */
export function isDown(conn: Redis | null): boolean {
  return conn === null || conn.status !== "ready";
}

const CLOSE_WAIT_MS = 2000;

/** Waits for `p` at most CLOSE_WAIT_MS (the coordinator's close); the timer never keeps the process alive. */
export async function boundedWait(p: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS);
    timer.unref?.();
  });
  await Promise.race([p.then(() => undefined), limit]);
  clearTimeout(timer);
}
