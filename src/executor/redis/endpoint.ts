// The `redis://` and `rediss://` executor (ADR 0026): BullMQ on Redis. Light on
// purpose: BullMQ and ioredis load only when a side is opened.
import type { ExecutorTransport } from "../endpoint.ts";
import { parseRedisUrl } from "./url.ts";

export const redisTransport: ExecutorTransport = (url, flag) => {
  const target = parseRedisUrl(url, flag);
  return {
    display: target.display,
    hasPassword: new URL(target.url).password !== "",
    open: async () => {
      const { RedisExecutor } = await import("./redis-executor.ts");
      return RedisExecutor.open(target);
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
