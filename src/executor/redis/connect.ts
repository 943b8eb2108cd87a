// A checked connection: `vouch run --executor` and `vouch worker` refuse to start
// (exit 2, the URL and the error) when Redis does not answer; later, a connection
// that stays down ends the run as `error` (reason executor) instead of hanging.
import { Redis } from "ioredis";
import { ExecutorUnreachableError } from "../../engine/errors.ts";
import type { RedisTarget } from "./url.ts";

/** How long a lost connection may try to come back before the run gives up on it. */
export const RECONNECT_TRIES = 10;
const CONNECT_TIMEOUT_MS = 5000;

export interface ClientOptions {
  /** A blocking reader waits as long as Redis tells it to; others fail fast. */
  blocking?: boolean;
  /** A worker outlives Redis restarts: it reconnects for ever. A coordinator gives up
   *  after RECONNECT_TRIES (about 5 s) and ends its run `error` (reason executor). */
  forever?: boolean;
}

export function redisClient(target: RedisTarget, opts: ClientOptions = {}): Redis {
  return new Redis(target.url, {
    lazyConnect: true,
    maxRetriesPerRequest: opts.blocking || opts.forever ? null : 2,
    enableOfflineQueue: true,
    retryStrategy: (times: number) =>
      opts.forever ? Math.min(200 * times, 2000) : times > RECONNECT_TRIES ? null : Math.min(100 * times, 500),
  });
}

export async function connectChecked(target: RedisTarget, opts: ClientOptions = {}): Promise<Redis> {
  const client = redisClient(target, opts);
  let first: ((e: Error) => void) | null = null;
  // The first error at start is the answer (ioredis would otherwise retry quietly);
  // later ones are reported through the commands that fail.
  client.on("error", (e: Error) => first?.(e));
  try {
    await new Promise<void>((resolve, reject) => {
      first = reject;
      const timer = setTimeout(() => reject(new Error(`no answer in ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
      client
        .connect()
        .then(() => client.ping())
        .then(() => resolve(), reject)
        .finally(() => clearTimeout(timer));
    });
    first = null;
    return client;
  } catch (e) {
    client.disconnect();
    throw new ExecutorUnreachableError(
      `cannot reach Redis at ${target.display}: ${(e as Error).message}`,
      "start Redis (or correct the URL) and run the command again",
    );
  }
}
