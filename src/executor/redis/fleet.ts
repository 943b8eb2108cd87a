// What `vouch workers` shows: heartbeats of live workers and the queue's counts.
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { parseHeartbeat, type FleetView, type Heartbeat } from "../heartbeat.ts";
import { connectChecked } from "./connect.ts";
import { QUEUE, WORKER_PATTERN } from "./keys.ts";
import type { RedisTarget } from "./url.ts";

export interface Fleet extends FleetView {
  redis: string;
}

/** The live workers' heartbeats, by name (what is not a heartbeat is left out). */
export async function liveWorkers(cmd: Redis): Promise<Heartbeat[]> {
  const workers: Heartbeat[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await cmd.scan(cursor, "MATCH", WORKER_PATTERN, "COUNT", 200);
    cursor = next;
    // One read per page of names, not one per worker (ADR 0079).
    const raws = keys.length === 0 ? [] : await cmd.mget(...keys);
    for (const raw of raws) {
      const beat = raw === null || raw === undefined ? null : parseHeartbeat(raw);
      if (beat) workers.push(beat);
    }
  } while (cursor !== "0");
  return workers.sort((a, b) => a.name.localeCompare(b.name));
}

export async function fleetOf(target: RedisTarget): Promise<Fleet> {
  const cmd = await connectChecked(target);
  const queueConn = cmd.duplicate();
  queueConn.on("error", () => {});
  const queue = new Queue(QUEUE, { connection: queueConn });
  try {
    const workers = await liveWorkers(cmd);
    const counts = await queue.getJobCounts("waiting", "active", "prioritized");
    return {
      redis: target.display,
      workers,
      jobs: { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), active: counts.active ?? 0 },
    };
  } finally {
    await queue.close().catch(() => {});
    queueConn.disconnect(); // BullMQ never closes a connection it was handed
    cmd.disconnect();
  }
}
