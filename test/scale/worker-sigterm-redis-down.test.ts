// `vouch worker` gets SIGTERM while Redis is down (docs/scale-out.md, "Faults"):
// it must still end — kill the branch it runs, exit 0 — instead of waiting for
// a Redis that is not there. Real redis-server, the real binary; the job is put on
// the queue as a coordinator would (branchJob), so no coordinator is needed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { ensureBinary, tempDir } from "../e2e/helpers.ts";
import { eventually, groupAlive } from "../spawn/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import { QUEUE } from "../../src/executor/redis/keys.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealJob } from "../../src/executor/job-seal.ts";
import { version } from "../../package.json";
import { HAVE_REDIS, RedisServer } from "./redis-server.ts";
import { FLEET_KEY, WorkerProc } from "./fleet.ts";

const MARKER = "28.6427"; // a sleep no other test runs

function jobFor(pids: string) {
  const r = loadGraph(
    "g.yaml",
    `version: 1
name: term
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      work: { kind: script, run: 'echo "$$ $(cut -d" " -f5 /proc/$$/stat)" >> ${pids}; sleep ${MARKER}' }
inputs:
  items: { description: the items }
`,
  );
  if (!r.graph) throw new Error(JSON.stringify(r.problems));
  const ctx = {
    options: { graph: r.graph, runId: "run-term", graphDigest: "d", graphPath: "g.yaml", baseDir: "/tmp", version },
    inputs: { items: [0] },
    limits: { concurrency: 1 },
    resume: null,
  } as unknown as RunContext;
  return branchJob(ctx, "each", r.graph.nodes.each as never, 0, 0, {}, "redis");
}

describe.skipIf(!HAVE_REDIS)("vouch worker and SIGTERM while Redis is down", { timeout: 60_000 }, () => {
  let server: RedisServer;
  beforeAll(async () => {
    await ensureBinary();
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  // Also after a timeout (a worker that never exits): nothing of it is left running.
  let worker: WorkerProc | null = null;
  let group = 0;
  afterEach(() => {
    if (worker && worker.proc.exitCode === null && worker.proc.signalCode === null) worker.kill9();
    if (group > 0 && groupAlive(group)) process.kill(-group, "SIGKILL");
    worker = null;
    group = 0;
  });

  test("it kills the branch it runs and exits 0, leaving no process", { timeout: 30_000 }, async () => {
    const dir = tempDir("worker-term");
    const pids = join(dir.path, "pids");
    const redis = new Redis(server.url);
    const queueConn = redis.duplicate();
    const queue = new Queue(QUEUE, { connection: queueConn });
    try {
      worker = await WorkerProc.start(server.url, "w-term", join(dir.path, ".vouch"), 1);
      await queue.add("branch", sealJob(jobFor(pids), FleetKey.of(FLEET_KEY, "test")), { jobId: "run-term.each.0.1" });
      // The branch's script runs on the worker (bounded by the test's timeout).
      while (!existsSync(pids) || readFileSync(pids, "utf8").trim() === "") await Bun.sleep(50);
      group = Number(readFileSync(pids, "utf8").trim().split(" ")[1]);
      expect(groupAlive(group)).toBe(true);
      await queue.close();
      queueConn.disconnect();
      redis.disconnect();
      await server.down(); // the worker's connections are cut: it is reconnecting from now on
      const code = await worker.term();
      expect(code, worker.stderr).toBe(0);
      expect(worker.stderr).toContain("SIGTERM");
      expect(worker.stderr).toContain("is unreachable: 1 running job(s) not handed back");
      await eventually(() => !groupAlive(group), 5000);
      expect(groupAlive(group)).toBe(false);
      expect(
        spawnSync(["pgrep", "-f", `sleep ${MARKER}`])
          .stdout.toString()
          .trim(),
      ).toBe("");
    } finally {
      await server.ensureUp();
      dir.cleanup();
    }
  });
});
