// A worker's writes to a real redis-server (ADR 0079): the messages of one turn go in
// one stream entry, the delivery carries what still waits in the same pipeline (before
// the result, in order), a write that fails does not hold up the next, and one read
// watches the stops of every running job.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Redis } from "ioredis";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealMessage, type StreamMessage } from "../../src/executor/protocol.ts";
import { CancelWatch } from "../../src/executor/redis/cancel-watch.ts";
import { cancelKey, eventsKey, lockKey } from "../../src/executor/redis/keys.ts";
import { IN_SCRIPT } from "../../src/executor/redis/deliver.ts";
import { Outbox } from "../../src/executor/redis/outbox.ts";
import { openEntry } from "../../src/executor/redis/stream-entry.ts";
import { HAVE_REDIS, RedisServer } from "./redis-server.ts";
import { RedisMonitor } from "./redis-monitor.ts";

const KEY = FleetKey.of("outbox-test-key-0123456789abcdef0123", "test");
const RUN = "20260101-000000-0utb0x";
const JOB = `${RUN}.each.0.1`;
const attempt = (n: number, job = JOB): StreamMessage => ({ kind: "attempt", job, worker: "w", attempt: n });
const seal = (m: StreamMessage) => sealMessage(RUN, m, KEY);
const resultOf = (job: string): StreamMessage => ({
  kind: "result",
  job,
  outcome: {
    worker: "w",
    attempt: 1,
    status: "passed",
    output: null,
    error: null,
    counts: { passed: 1, failed: 0, error: 0, skipped: 0, cancelled: 0 },
    costUnknown: 0,
  },
});
const refusedOf = (job: string): StreamMessage => ({ kind: "refused", job, worker: "w", attempt: 1, status: "passed", reason: "lost" });
const deliverArgs = (job: string, token: string) => ({
  job,
  run: RUN,
  token,
  worker: "w",
  result: seal(resultOf(job)),
  refused: seal(refusedOf(job)),
});

describe.skipIf(!HAVE_REDIS)("the outbox and the cancel watch", { timeout: 60_000 }, () => {
  let server: RedisServer;
  let cmd: Redis;
  beforeAll(async () => {
    server = await RedisServer.start();
    cmd = new Redis(server.url);
  });
  afterAll(async () => {
    cmd?.disconnect();
    await server?.stop();
  });

  const entries = async () => (await cmd.xrange(eventsKey(RUN), "-", "+")).map(([, f]) => openEntry(f, RUN, KEY));

  test("one turn's messages are one entry; the delivery follows what waits, in one pipeline", async () => {
    await cmd.flushall();
    const box = new Outbox(cmd, eventsKey(RUN));
    const first = [box.send(seal(attempt(1))), box.send(seal(attempt(2))), box.send(seal(attempt(3)))];
    await Promise.all(first);
    expect(await entries()).toEqual([[attempt(1), attempt(2), attempt(3)]]);
    // The job's lease, as BullMQ holds it: the delivery checks it.
    await cmd.set(lockKey(JOB), "token-1");
    void box.send(seal(attempt(4)));
    const result = resultOf(JOB);
    const refused = refusedOf(JOB);
    const args = deliverArgs(JOB, "token-1");
    expect(await box.deliver(args)).toBe("delivered");
    // What waited rides in the result's entry, before it (ADR 0093).
    expect(await entries()).toEqual([
      [attempt(1), attempt(2), attempt(3)],
      [attempt(4), result],
    ]);
    // Delivered once: a second attempt at it does nothing but write what waited.
    const again = new Outbox(cmd, eventsKey(RUN));
    void again.send(seal(attempt(5)));
    expect(await again.deliver(args)).toBe("already");
    expect((await entries()).at(-1)).toEqual([attempt(5)]);
    // Another token holds the lease: the refusal goes instead, after what waited.
    await cmd.del(`vouch:done:${JOB}`);
    const lost = new Outbox(cmd, eventsKey(RUN));
    void lost.send(seal(attempt(6)));
    expect(await lost.deliver({ ...args, token: "token-2" })).toBe("lease-lost");
    expect((await entries()).at(-1)).toEqual([attempt(6), refused]);
  });

  test("deliveries asked for in one turn go together; past IN_SCRIPT messages, what waits has its own entry", async () => {
    await cmd.flushall();
    const jobs = ["a", "b"].map((j) => `${RUN}.each.${j}.1`);
    await cmd.set(lockKey(jobs[0]!), "token-a");
    const box = new Outbox(cmd, eventsKey(RUN));
    const many = Array.from({ length: IN_SCRIPT + 1 }, (_, i) => attempt(i + 1));
    // The monitor first, then the sends and the deliveries in one turn: started after the sends,
    // it could miss their XADD (flushed while it attached: seen under load).
    const monitor = await RedisMonitor.start(server.port);
    for (const m of many) void box.send(seal(m));
    const got = await Promise.all([box.deliver(deliverArgs(jobs[0]!, "token-a")), box.deliver(deliverArgs(jobs[1]!, "wrong"))]);
    await cmd.echo("outbox-deliveries-end");
    await monitor.echoed("outbox-deliveries-end");
    await monitor.stop();
    expect(got).toEqual(["delivered", "lease-lost"]);
    expect(await entries()).toEqual([many, [resultOf(jobs[0]!)], [refusedOf(jobs[1]!)]]);
    // One XADD of the messages, two script calls, nothing between them (one pipeline).
    const top = monitor.seen.filter((s) => s.source !== "lua").map((s) => s.args[0]!.toLowerCase());
    expect(top.slice(0, 3)).toEqual(["xadd", "evalsha", "evalsha"]);
  });

  test("a write that fails rejects its messages and does not hold up the next", async () => {
    await cmd.flushall();
    await cmd.set(eventsKey(RUN), "not a stream"); // XADD to it fails (WRONGTYPE)
    const box = new Outbox(cmd, eventsKey(RUN));
    await expect(box.send(seal(attempt(1)))).rejects.toThrow(/WRONGTYPE/);
    await cmd.del(eventsKey(RUN));
    await box.send(seal(attempt(2)));
    await box.sent();
    expect(await entries()).toEqual([[attempt(2)]]);
  });

  test("one MGET watches every running job's stop; each stop is said once", async () => {
    await cmd.flushall();
    const watch = new CancelWatch(cmd);
    const stops: string[] = [];
    const jobs = ["a", "b", "c"].map((j) => `${RUN}.each.${j}.1`);
    const unwatch = jobs.map((id) => watch.watch(id, (r) => stops.push(`${id}:${r}`)));
    const monitor = await RedisMonitor.start(server.port);
    const reads = () => monitor.seen.filter((s) => s.args[0]?.toLowerCase() === "mget").map((s) => s.args.slice(1));
    await cmd.set(cancelKey(jobs[1]!), "interrupted");
    while (stops.length === 0) await Bun.sleep(20);
    // Read again with the stop said: it is not said twice.
    const seen = reads().length;
    while (reads().length < seen + 2) await Bun.sleep(20);
    await monitor.stop();
    for (const u of unwatch) u();
    expect(stops).toEqual([`${jobs[1]}:interrupted`]);
    expect(reads()[0]).toEqual(jobs.map(cancelKey));
    expect(reads().at(-1)).toEqual([jobs[0], jobs[2]].map((id) => cancelKey(id!)));
  });

  // A delivery whose script fails must not take the messages of another job of the run with
  // it (a review of ADR 0093: they rode in its entry and were lost, the other job delivered).
  const A = `${RUN}.each.a.1`;
  const B = `${RUN}.each.b.1`;

  test("job A's failing delivery script does not lose job B's messages", async () => {
    await cmd.flushall();
    await cmd.hset(lockKey(A), "x", "1"); // A's script fails: GET on a hash (WRONGTYPE)
    await cmd.set(lockKey(B), "token-b");
    const box = new Outbox(cmd, eventsKey(RUN));
    const bSend = box.send(seal(attempt(1, B))).then(
      () => "written",
      (e: Error) => `rejected: ${e.message}`,
    );
    const aDeliver = box.deliver(deliverArgs(A, "token-a")).then(
      (d) => d,
      (e: Error) => `rejected: ${e.message}`,
    );
    const bDeliver = box.deliver(deliverArgs(B, "token-b"));
    const got = { bSend: await bSend, aDeliver: await aDeliver, bDeliver: await bDeliver };
    expect(got.bDeliver).toBe("delivered");
    expect(got.bSend).toBe("written");
    expect(got.aDeliver).toMatch(/^rejected: VOUCH-RIDERS-WRITTEN .*WRONGTYPE/);
    expect(await entries()).toEqual([[attempt(1, B)], [resultOf(B)]]);
  });

  for (const n of [IN_SCRIPT - 1, IN_SCRIPT, IN_SCRIPT + 1])
    for (const path of ["lease-lost", "already"])
      test(`${path} of A carries B's ${n} messages`, async () => {
        await cmd.flushall();
        await cmd.set(lockKey(A), "token-a");
        await cmd.set(lockKey(B), "token-b");
        if (path === "already") await cmd.set(`vouch:done:${A}`, "other");
        const box = new Outbox(cmd, eventsKey(RUN));
        const ms = Array.from({ length: n }, (_, i) => attempt(i + 1, B));
        const sends = ms.map((m) => box.send(seal(m)));
        const got = await Promise.all([
          box.deliver(deliverArgs(A, path === "lease-lost" ? "bad" : "token-a")),
          box.deliver(deliverArgs(B, "token-b")),
        ]);
        await Promise.all(sends);
        expect(got).toEqual([path, "delivered"]);
        expect((await entries()).flat()).toEqual([...ms, ...(path === "lease-lost" ? [refusedOf(A)] : []), resultOf(B)]);
      });
});
