// What a worker writes to a run's stream per branch (issue 29 item 6, ADR 0093), counted by a
// real redis-server's MONITOR while the real binary runs a map on one worker. The jobs of a run
// on a worker share one outbox, and a branch's last messages ride inside the delivery script's
// own entry (not an XADD of their own before it). No timing: each branch sleeps far past the
// outbox's 20 ms, so its first messages (the attempt, node.started) always leave on the timer
// and its last ones (attempt.judged, node.finished) always wait for the delivery. A worker with
// one outbox per job and the last messages XADDed before the delivery sends exactly 2 XADDs a
// branch and makes 3 entries (16 and 24 here); this one at most 1 and 2, however slow the machine.
import { numberedMapGraph } from "./numbered-map.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";
import { RedisMonitor, type Seen } from "./redis-monitor.ts";

const BRANCHES = 8;
const GRAPH = numberedMapGraph("worker-writes", BRANCHES, `      work: { kind: script, run: "sleep 0.3" }`);

describe.skipIf(!HAVE_REDIS)("a worker's stream writes per fleet branch", { timeout: 120_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  let monitor: RedisMonitor | null = null;
  const workers: WorkerProc[] = [];

  beforeAll(() => {
    dir = tempDir("worker-writes");
  });
  afterAll(async () => {
    await monitor?.stop();
    await stopAll(workers);
    dir?.cleanup();
  });

  test("at most one XADD of its own and two entries a branch, every event still in order", async () => {
    const home = join(dir.path, ".vouch");
    workers.push(await WorkerProc.start(redis().url, "w-wr", home, BRANCHES));
    monitor = await RedisMonitor.start(redis().port);
    const file = join(dir.path, "g.yaml");
    writeFileSync(file, GRAPH);
    const c = new Coordinator(["run", file, "--executor", redis().url, "--concurrency", String(BRANCHES)], home, dir.path);
    const { code, events } = await c.doneWithin(90_000);
    expect(code, c.err).toBe(0);
    expect(of(events, "branch.finished").map((b) => b.status)).toEqual(Array(BRANCHES).fill("passed"));
    const byJob = new Map<string, number[]>();
    for (const e of events) if (e.remote) byJob.set(e.remote.job, [...(byJob.get(e.remote.job) ?? []), e.remote.seq]);
    expect(byJob.size).toBe(BRANCHES);
    for (const seqs of byJob.values()) expect(seqs).toEqual([0, 1, 2]);

    const last = new Redis(redis().url);
    await last.echo("vouch-worker-writes-end");
    last.disconnect();
    await monitor.echoed("vouch-worker-writes-end");
    const xadds = (pred: (s: Seen) => boolean) =>
      monitor!.seen.filter((s) => pred(s) && s.args[0]!.toLowerCase() === "xadd" && s.args[1]!.startsWith("vouch:run:")).length;
    // The worker's own XADDs (the coordinator writes none to the stream).
    expect(xadds((s) => s.source !== "lua")).toBeLessThanOrEqual(BRANCHES);
    // Every entry of the stream: the worker's and the delivery script's.
    expect(xadds(() => true)).toBeLessThanOrEqual(BRANCHES * 2);
  });
});
