// A delivery whose script fails must not take the messages of another job of the run with it
// (a review of ADR 0093: they rode in its entry and were lost, the other job still delivered).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Redis } from "ioredis";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealMessage, type StreamMessage } from "../../src/executor/protocol.ts";
import { eventsKey, lockKey } from "../../src/executor/redis/keys.ts";
import { Outbox } from "../../src/executor/redis/outbox.ts";
import { openEntry } from "../../src/executor/redis/stream-entry.ts";
import { HAVE_REDIS, RedisServer } from "./redis-server.ts";

const KEY = FleetKey.of("outbox-test-key-0123456789abcdef0123", "test");
const RUN = "20260101-000000-0utb0x";
const A = `${RUN}.each.a.1`;
const B = `${RUN}.each.b.1`;
const seal = (m: StreamMessage) => sealMessage(RUN, m, KEY);
const attempt = (job: string, n: number): StreamMessage => ({ kind: "attempt", job, worker: "w", attempt: n });
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
const args = (job: string, token: string) => ({
  job,
  run: RUN,
  token,
  worker: "w",
  result: seal(resultOf(job)),
  refused: seal(refusedOf(job)),
});

describe.skipIf(!HAVE_REDIS)("shared outbox", { timeout: 60_000 }, () => {
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

  test("job A's failing delivery script does not lose job B's messages", async () => {
    await cmd.flushall();
    await cmd.hset(lockKey(A), "x", "1"); // A's script fails: GET on a hash (WRONGTYPE)
    await cmd.set(lockKey(B), "token-b");
    const box = new Outbox(cmd, eventsKey(RUN));
    const bSend = box.send(seal(attempt(B, 1))).then(
      () => "written",
      (e: Error) => `rejected: ${e.message}`,
    );
    const aDeliver = box.deliver(args(A, "token-a")).then(
      (d) => d,
      (e: Error) => `rejected: ${e.message}`,
    );
    const bDeliver = box.deliver(args(B, "token-b"));
    const got = { bSend: await bSend, aDeliver: await aDeliver, bDeliver: await bDeliver };
    const entries = (await cmd.xrange(eventsKey(RUN), "-", "+")).map(([, f]) => openEntry(f, RUN, KEY));
    expect(got.bDeliver).toBe("delivered");
    expect(got.bSend).toBe("written");
    expect(entries).toEqual([[attempt(B, 1)], [resultOf(B)]]);
  });
});

describe.skipIf(!HAVE_REDIS)("shared outbox paths", { timeout: 60_000 }, () => {
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
  for (const n of [255, 256, 257])
    for (const path of ["lease-lost", "already"]) {
      test(`${path} of A carries B's ${n} messages`, async () => {
        await cmd.flushall();
        await cmd.set(lockKey(A), "token-a");
        await cmd.set(lockKey(B), "token-b");
        if (path === "already") await cmd.set(`vouch:done:${A}`, "other");
        const box = new Outbox(cmd, eventsKey(RUN));
        const ms = Array.from({ length: n }, (_, i) => attempt(B, i + 1));
        const sends = ms.map((m) => box.send(seal(m)));
        const got = await Promise.all([box.deliver(args(A, path === "lease-lost" ? "bad" : "token-a")), box.deliver(args(B, "token-b"))]);
        await Promise.all(sends);
        const entries = (await cmd.xrange(eventsKey(RUN), "-", "+")).map(([, f]) => openEntry(f, RUN, KEY));
        expect(got).toEqual([path, "delivered"]);
        expect(entries.flat()).toEqual([...ms, ...(path === "lease-lost" ? [refusedOf(A)] : []), resultOf(B)]);
      });
    }
});
