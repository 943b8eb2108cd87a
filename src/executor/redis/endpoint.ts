// The `redis://` and `rediss://` executor (ADR 0026): BullMQ on Redis. Light on
// purpose: BullMQ and ioredis load only when a side is opened. The password comes
// from VOUCH_REDIS_PASSWORD or the file VOUCH_REDIS_PASSWORD_FILE names (ADR 0045).
import type { ExecutorTransport } from "../endpoint.ts";
import { secretFrom } from "../fleet-key.ts";
import { parseRedisUrl } from "./url.ts";

export const redisTransport: ExecutorTransport = (url, flag, env, cwd) => {
  const parsed = parseRedisUrl(url, flag);
  const password = secretFrom(env, "VOUCH_REDIS_PASSWORD", cwd)?.text;
  const target = password === undefined ? parsed : { ...parsed, password };
  return {
    display: target.display,
    open: async (o) => {
      const { RedisExecutor } = await import("./redis-executor.ts");
      return RedisExecutor.open(target, o);
    },
    serve: async (host, o) => {
      const { RedisWorker } = await import("./worker.ts");
      const worker = new RedisWorker(target, host, o);
      await worker.start();
      return worker;
    },
    fleet: async () => {
      const { fleetOf } = await import("./fleet.ts");
      return fleetOf(target);
    },
  };
};
