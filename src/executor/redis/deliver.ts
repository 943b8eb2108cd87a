// A result is delivered in one step on the Redis server (ADR 0046): the attempt must
// still hold the job's BullMQ lock (its lease: a worker frozen past its lock, whose job
// another worker took, holds it no more), no attempt may have delivered before, and the
// result goes on the run's stream in the same script that marks the job delivered. So a
// worker killed between the two can leave no job marked delivered without its result,
// and an attempt cut off cannot decide the branch. An attempt that lost the lease puts
// its refusal on the stream instead: the coordinator records it.
import type { Redis } from "ioredis";
import type { Delivery } from "../worker-host.ts";
import type { SealedMessage } from "../protocol.ts";
import { doneKey, eventsKey, KEEP_SECONDS, lockKey } from "./keys.ts";

const SCRIPT = `
if redis.call("GET", KEYS[1]) ~= ARGV[1] then
  redis.call("XADD", KEYS[3], "*", "m", ARGV[6], "h", ARGV[7])
  return "lease-lost"
end
if not redis.call("SET", KEYS[2], ARGV[2], "EX", ARGV[3], "NX") then
  return "already"
end
redis.call("XADD", KEYS[3], "*", "m", ARGV[4], "h", ARGV[5])
return "delivered"
`;

export async function deliverOnce(
  cmd: Redis,
  o: { job: string; run: string; token: string; worker: string; result: SealedMessage; refused: SealedMessage },
): Promise<Delivery> {
  const keys = [lockKey(o.job), doneKey(o.job), eventsKey(o.run)];
  const args = [o.token, o.worker, String(KEEP_SECONDS), o.result.text, o.result.mac, o.refused.text, o.refused.mac];
  const r = await cmd.eval(SCRIPT, keys.length, ...keys, ...args);
  if (r === "delivered" || r === "already" || r === "lease-lost") return r;
  throw new Error(`the delivery script answered ${JSON.stringify(r)}`);
}
