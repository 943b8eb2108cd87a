// A checked connection: `vouch run --executor` and `vouch worker` refuse to start
// (exit 2, the URL and the error) when Redis does not answer; later, a coordinator
// rides out an outage up to its bound, then ends the run `error` (reason executor)
// instead of hanging (ADR 0046).
import { Redis } from "ioredis";
import { ExecutorUnreachableError } from "../../engine/errors.ts";
import type { RedisTarget } from "./url.ts";

const CONNECT_TIMEOUT_MS = 5000;

export interface ClientOptions {
  /** A worker and a coordinator ride out a Redis restart: their commands wait while the
   *  connection comes back, and it is tried again for ever (every ≤ 1 s). The coordinator
   *  bounds the outage by time itself (RedisExecutor, ADR 0046) and ends its run `error`
   *  (reason executor) past it. Without: a command fails after two reconnect tries. */
  rideOut?: boolean;
}

export function redisClient(target: RedisTarget, opts: ClientOptions = {}): Redis {
  return new Redis(target.url, {
    lazyConnect: true,
    ...(target.password !== undefined ? { password: target.password } : {}),
    maxRetriesPerRequest: opts.rideOut ? null : 2,
    enableOfflineQueue: true,
    retryStrategy: (times: number) => (opts.rideOut ? Math.min(200 * times, 1000) : times > 10 ? null : Math.min(100 * times, 500)),
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
