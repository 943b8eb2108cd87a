// What a branch costs in Redis commands on a fleet (issue 29 item 6, ADR 0079), counted
// by a real redis-server's MONITOR while the real binary runs an N-branch map on one
// worker: a worker reads a job's state once (one MGET), puts the messages of one turn in
// one stream entry, and delivers the result in the pipeline of its last messages; the
// coordinator adds a turn's jobs together. No timing: the branch's failing first node
// skips six others in one turn, so a worker sending each event on its own sends at least
// ten stream entries a branch, and the batched one at most four (about two here).
import { numberedMapGraph } from "./numbered-map.ts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";
import { RedisMonitor, type Seen } from "./redis-monitor.ts";

const BRANCHES = 12;
const SKIPPED = ["b1", "b2", "b3", "b4", "b5", "b6"];
const GRAPH = numberedMapGraph(
  "round-trips",
  BRANCHES,
  [
    `      a: { kind: script, run: "false" }`,
    ...SKIPPED.map((id, i) => `      ${id}: { kind: script, run: "true", needs: [${i < 3 ? "a" : SKIPPED[i - 3]}] }`),
  ].join("\n"),
);

describe.skipIf(!HAVE_REDIS)("Redis commands per fleet branch", { timeout: 120_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  let monitor: RedisMonitor | null = null;
  const workers: WorkerProc[] = [];

  beforeAll(() => {
    dir = tempDir("round-trips");
  });
  afterAll(async () => {
    await monitor?.stop();
    await stopAll(workers);
    dir?.cleanup();
  });

  test("a branch costs a bounded number of commands, whatever its number of events", async () => {
    const home = join(dir.path, ".vouch");
    workers.push(await WorkerProc.start(redis().url, "w-rt", home, 4));
    monitor = await RedisMonitor.start(redis().port);
    const file = join(dir.path, "g.yaml");
    writeFileSync(file, GRAPH);
    const c = new Coordinator(["run", file, "--executor", redis().url, "--concurrency", "4"], home, dir.path);
    const { code, events } = await c.doneWithin(90_000);
    expect(code, c.err).toBe(1); // every branch fails: its first node does
    // Every message arrived: each branch's nine events, in order, then its result.
    const finished = of(events, "branch.finished");
    expect(finished).toHaveLength(BRANCHES);
    for (const b of finished) expect(b.status).toBe("failed");
    const skipped = of(events, "node.finished").filter((e) => e.status === "skipped");
    expect(skipped).toHaveLength(BRANCHES * SKIPPED.length);
    const byJob = new Map<string, number[]>();
    for (const e of events) if (e.remote) byJob.set(e.remote.job, [...(byJob.get(e.remote.job) ?? []), e.remote.seq]);
    expect(byJob.size).toBe(BRANCHES);
    for (const seqs of byJob.values()) expect(seqs).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);

    // Every command of the run is in once the server has reported one sent after them.
    const last = new Redis(redis().url);
    await last.echo("vouch-round-trips-end");
    last.disconnect();
    await monitor.echoed("vouch-round-trips-end");
    const top = monitor.seen.filter((s) => s.source !== "lua");
    const name = (s: Seen) => s.args[0]!.toLowerCase();
    const names = (pred: (s: Seen) => boolean) => top.filter(pred).length;
    // Stream entries a worker wrote (the result goes inside the delivery script, not here).
    const entries = names((s) => name(s) === "xadd" && s.args[1]!.startsWith("vouch:run:"));
    // Per event: 10 a branch (the attempt and nine events). Per turn, however slow the machine:
    // at most 4 (the attempt, node a started, its judgement, its end with the six skips: one
    // turn); 23-26 in all here, about 2 a branch (the attempt rides with node a's start).
    expect(entries).toBeLessThanOrEqual(BRANCHES * 4);
    // A job's state is read once, in one command (not a GET of its done key and another of its cancel key).
    const starts = names((s) => name(s) === "mget" && s.args[1]!.startsWith("vouch:done:"));
    expect(starts).toBe(BRANCHES);
    expect(names((s) => name(s) === "get" && /^vouch:(done|cancel):/.test(s.args[1] ?? ""))).toBe(0);
    // One delivery per branch, by the script's SHA (its text is sent once per connection at most).
    const deliveries = names((s) => (name(s) === "evalsha" || name(s) === "eval") && (s.args[4] ?? "").startsWith("vouch:done:"));
    expect(deliveries).toBe(BRANCHES);
    expect(names((s) => name(s) === "eval" && (s.args[1] ?? "").includes("lease-lost"))).toBeLessThanOrEqual(1);
  });
});
