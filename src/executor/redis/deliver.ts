// A result is delivered in one step on the Redis server (ADR 0046): the attempt must
// still hold the job's BullMQ lock (its lease: a worker frozen past its lock, whose job
// another worker took, holds it no more), no attempt may have delivered before, and the
// result goes on the run's stream in the same script that marks the job delivered. So a
// worker killed between the two can leave no job marked delivered without its result,
// and an attempt cut off cannot decide the branch. An attempt that lost the lease puts
// its refusal on the stream instead: the coordinator records it.
//
// The script is sent once per connection and called by its SHA after (ioredis's
// defineCommand), and it rides in the same pipeline as the job's last unsent messages
// (outbox.ts, ADR 0079): the branch's end is one round trip. Those messages (up to
// IN_SCRIPT of them) are its arguments after the seventh and go in the entry of the result
// or refusal, before it (ADR 0093: one entry and one command fewer a branch); on every path,
// as when they were XADDed before the script — a GET or SET that fails too (pcall), whose
// error then says RIDERS_WRITTEN.
import type { ChainableCommander, Redis } from "ioredis";
import type { Delivery } from "../worker-host.ts";
import type { SealedMessage } from "../protocol.ts";
import { doneKey, eventsKey, KEEP_SECONDS, lockKey } from "./keys.ts";

/** The start of the script's error when its GET or SET failed after the messages riding in it
 *  were written (ADR 0093's review): those messages, of any job of the run, are not lost. */
export const RIDERS_WRITTEN = "VOUCH-RIDERS-WRITTEN";

const SCRIPT = `
local fields = {}
for i = 8, #ARGV do fields[#fields + 1] = ARGV[i] end
local function add(text, mac)
  fields[#fields + 1] = "m"; fields[#fields + 1] = text; fields[#fields + 1] = "h"; fields[#fields + 1] = mac
  redis.call("XADD", KEYS[3], "*", unpack(fields))
end
local function riders()
  if #fields > 0 then redis.call("XADD", KEYS[3], "*", unpack(fields)) end
end
local function failed(r)
  if type(r) == "table" and r.err then
    riders()
    return redis.error_reply("${RIDERS_WRITTEN} " .. r.err)
  end
end
local lease = redis.pcall("GET", KEYS[1])
local bad = failed(lease)
if bad then return bad end
if lease ~= ARGV[1] then
  add(ARGV[6], ARGV[7])
  return "lease-lost"
end
local set = redis.pcall("SET", KEYS[2], ARGV[2], "EX", ARGV[3], "NX")
bad = failed(set)
if bad then return bad end
if not set then
  riders()
  return "already"
end
add(ARGV[4], ARGV[5])
return "delivered"
`;

/** Messages that may ride in the script's entry: Lua's unpack takes some 8,000 values at
 *  most (4 a message); more go in an XADD of their own before the script. */
export const IN_SCRIPT = 256;

const COMMAND = "vouchDeliver";

export interface DeliverArgs {
  job: string;
  run: string;
  token: string;
  worker: string;
  result: SealedMessage;
  refused: SealedMessage;
}

type WithDeliver = { [COMMAND](...args: string[]): unknown };

/** Makes the delivery script a command of `cmd` and of its pipelines (once per client). */
export function defineDeliver(cmd: Redis): void {
  if (!(COMMAND in cmd)) cmd.defineCommand(COMMAND, { numberOfKeys: 3, lua: SCRIPT });
}

/** Queues the delivery on `p` (a pipeline of a client defineDeliver was called on), with
 *  `before` (entryFields of at most IN_SCRIPT messages) in its entry ahead of the result. */
export function queueDeliver(p: ChainableCommander, o: DeliverArgs, before: readonly string[] = []): void {
  const keys = [lockKey(o.job), doneKey(o.job), eventsKey(o.run)];
  const args = [o.token, o.worker, String(KEEP_SECONDS), o.result.text, o.result.mac, o.refused.text, o.refused.mac, ...before];
  (p as unknown as WithDeliver)[COMMAND](...keys, ...args);
}

/** What the script answered, as a Delivery; anything else is a fault. */
export function deliveryOf(r: unknown): Delivery {
  if (r === "delivered" || r === "already" || r === "lease-lost") return r;
  throw new Error(`the delivery script answered ${JSON.stringify(r)}`);
}
