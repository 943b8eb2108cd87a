// The worker's cancel watch (ADR 0079) with a fake Redis and fake timers: one MGET in flight at
// most while Redis does not answer (a read that hangs is not piled on), and no poll once no job
// is watched (review: neither was held by a test).
import { afterEach, expect, test, vi } from "vitest";
import type { Redis } from "ioredis";
import { CANCEL_POLL_MS, CancelWatch } from "../../src/executor/redis/cancel-watch.ts";

afterEach(() => vi.useRealTimers());

function fakeRedis(answer: () => Promise<(string | null)[]>) {
  const calls: string[][] = [];
  const cmd = { mget: (...keys: string[]) => (calls.push(keys), answer()) } as unknown as Redis;
  return { cmd, calls };
}

test("a read that never answers is the only one: ten intervals later, still one MGET", async () => {
  vi.useFakeTimers();
  const { cmd, calls } = fakeRedis(() => new Promise(() => {}));
  const w = new CancelWatch(cmd);
  watch(w, "a");
  watch(w, "b");
  await vi.advanceTimersByTimeAsync(CANCEL_POLL_MS * 10);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toHaveLength(2);
  w.end();
});

test("once the last job stops being watched, nothing is polled; a stop is said once", async () => {
  vi.useFakeTimers();
  const { cmd, calls } = fakeRedis(async () => ["stop it"]);
  const watchOf = new CancelWatch(cmd);
  const stops: string[] = [];
  const unwatch = watchOf.watch("a", (r) => stops.push(r));
  await vi.advanceTimersByTimeAsync(CANCEL_POLL_MS * 3);
  expect(stops).toEqual(["stop it"]);
  unwatch();
  // No interval is left to keep the worker's process awake.
  expect(vi.getTimerCount()).toBe(0);
  const before = calls.length;
  await vi.advanceTimersByTimeAsync(CANCEL_POLL_MS * 10);
  expect(calls.length).toBe(before);
});

function watch(w: CancelWatch, id: string): () => void {
  return w.watch(id, () => {});
}
