// A job the coordinator cancelled while a worker was fetching it (ADR 0030): the
// coordinator could no longer remove it, so its cancel key is all that stops it.
// The real `vouch worker` takes a job whose cancel key is already set and must run
// nothing. Before, it started the branch and looked at the key one poll later: the
// test's script ran (its marker file appeared) and the branch ended error.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { ensureBinary, tempDir } from "../e2e/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import { cancelKey, eventsKey, QUEUE } from "../../src/executor/redis/keys.ts";
import type { StreamMessage } from "../../src/executor/protocol.ts";
import { openEntry } from "../../src/executor/redis/stream-entry.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealJob } from "../../src/executor/job-seal.ts";
import { version } from "../../package.json";
import { HAVE_REDIS, RedisServer } from "./redis-server.ts";
import { FLEET_KEY, WorkerProc } from "./fleet.ts";

const KEY = FleetKey.of(FLEET_KEY, "test");

function jobFor(runId: string, marker: string) {
  const r = loadGraph(
    "g.yaml",
    `version: 1
name: cancelled
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      work: { kind: script, run: "touch ${marker}; sleep 29.9792", timeout: 60s }
inputs:
  items: { description: the items }
`,
  );
  if (!r.graph) throw new Error(JSON.stringify(r.problems));
  const ctx = {
    options: { graph: r.graph, runId, graphDigest: "d", graphPath: "g.yaml", baseDir: "/tmp", version },
    inputs: { items: [0] },
    limits: { concurrency: 1 },
    resume: null,
  } as unknown as RunContext;
  return branchJob(ctx, "each", r.graph.nodes.each as never, 0, 0, {}, "redis");
}

/** The messages of the run's stream until the job's result (bounded by the test's timeout). */
async function untilResult(redis: Redis, runId: string): Promise<StreamMessage[]> {
  const got: StreamMessage[] = [];
  let last = "0";
  for (;;) {
    const res = (await redis.xread("BLOCK", 1000, "STREAMS", eventsKey(runId), last)) as [string, [string, string[]][]][] | null;
    for (const [, entries] of res ?? []) {
      for (const [id, fields] of entries) {
        last = id;
        for (const m of openEntry(fields, runId, KEY)) {
          if (m) got.push(m);
          if (m?.kind === "result") return got;
        }
      }
    }
  }
}

describe.skipIf(!HAVE_REDIS)("a worker taking a job that was cancelled before it was taken", { timeout: 60_000 }, () => {
  let server: RedisServer;
  beforeAll(async () => {
    await ensureBinary();
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("runs nothing and delivers the branch as cancelled", async () => {
    const dir = tempDir("cancelled-job");
    const redis = new Redis(server.url);
    const queue = new Queue(QUEUE, { connection: redis.duplicate() });
    let worker: WorkerProc | null = null;
    try {
      const marker = join(dir.path, "started");
      const job = jobFor("run-cancelled", marker);
      // As the coordinator does at a stop; the job was already being fetched, so it stays queued.
      await redis.set(cancelKey(job.jobId), "budget");
      await queue.add("branch", sealJob(job, KEY), { jobId: job.jobId });
      worker = await WorkerProc.start(server.url, "w-late", join(dir.path, ".vouch"), 1);
      const messages = await untilResult(redis, job.runId);
      const result = messages.find((m) => m.kind === "result");
      expect(result).toMatchObject({
        kind: "result",
        outcome: { status: "cancelled", error: "cancelled before it started", worker: "w-late" },
      });
      expect(messages.filter((m) => m.kind === "event")).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await worker?.term();
      await queue.close();
      redis.disconnect();
      dir.cleanup();
    }
  });
});
