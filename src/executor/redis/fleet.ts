// What `vouch workers` shows: heartbeats of live workers and the queue's counts.
import { Queue } from "bullmq";
import { z } from "zod";
import { connectChecked } from "./connect.ts";
import { QUEUE, WORKER_PATTERN } from "./keys.ts";
import type { RedisTarget } from "./url.ts";

const beatSchema = z.object({
  name: z.string(),
  pid: z.number(),
  concurrency: z.number(),
  running: z.array(z.string()),
  started: z.string(),
  at: z.string(),
});
export type Heartbeat = z.output<typeof beatSchema>;

export interface Fleet {
  redis: string;
  workers: Heartbeat[];
  jobs: { waiting: number; active: number };
}

export async function fleetOf(target: RedisTarget): Promise<Fleet> {
  const cmd = await connectChecked(target);
  const queueConn = cmd.duplicate();
  queueConn.on("error", () => {});
  const queue = new Queue(QUEUE, { connection: queueConn });
  try {
    const workers: Heartbeat[] = [];
    let cursor = "0";
    do {
      const [next, keys] = await cmd.scan(cursor, "MATCH", WORKER_PATTERN, "COUNT", 200);
      cursor = next;
      for (const key of keys) {
        const raw = await cmd.get(key);
        const parsed = raw === null ? null : beatSchema.safeParse(safeJson(raw));
        if (parsed?.success) workers.push(parsed.data);
      }
    } while (cursor !== "0");
    workers.sort((a, b) => a.name.localeCompare(b.name));
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
