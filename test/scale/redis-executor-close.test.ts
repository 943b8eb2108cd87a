// The coordinator's executor ends on every path when Redis dies: a real redis-server,
// killed by pid while the executor's blocking XREAD waits. The defect this holds: close()
// while the blocking client was between reconnect tries awaited that XREAD for ever
// (ioredis's disconnect() settles nothing it queued then), so `vouch run` recorded
// run.finished (error, executor) and never exited. A close that hangs fails here by the
// test's timeout; no duration is asserted.
import { afterEach, describe, expect, test } from "vitest";
import type { Redis } from "ioredis";
import { RedisExecutor } from "../../src/executor/redis/redis-executor.ts";
import { parseRedisUrl } from "../../src/executor/redis/url.ts";
import type { BranchJob } from "../../src/engine/ports.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { HAVE_REDIS, RedisServer } from "./redis-server.ts";

/** The executor's three connections (private: what this test checks is that each ended). */
type Clients = { cmd: Redis; blocking: Redis; queueConn: Redis };
const clientsOf = (ex: RedisExecutor) => ex as unknown as Clients;

function job(n: number): BranchJob {
  return {
    runId: "close-test",
    jobId: `close-test-${n}`,
    dispatch: 1,
    map: "each",
    index: n,
    item: n,
    graph: {},
    graphDigest: "",
    graphPath: "",
    inputs: {},
    upstream: {},
  } as unknown as BranchJob;
}

/** Outages longer than half a second end the run: the second test waits for that. */
const OPEN = { key: FleetKey.of("close-test-key-0123456789abcdef0123", "t"), notice: () => {}, quietMs: 60_000, reconnectMs: 500 };

const hooks = () => ({ signal: new AbortController().signal, stopReason: () => null, onAttempt: () => {}, onEvent: () => {} });

/** Resolves on the client's next `event` (ioredis emits "reconnecting" before each retry wait). */
const next = (client: Redis, event: string) => new Promise<void>((resolve) => client.once(event, () => resolve()));

type Inner = { reconnectTimeout: unknown; stream?: { destroyed: boolean; once(e: "close", f: () => void): void } };
const inner = (c: Redis) => c as unknown as Inner;

/** Resolves once the client's socket is gone. disconnect() only half-closes (end()) a socket
 *  that is still connecting; it is destroyed a moment later, so it is checked then, not right
 *  after close(). A client whose retry wait close() cleared keeps the status "reconnecting"
 *  (ioredis settles nothing then) but has no timer and no socket: what is asserted below. */
const socketGone = (c: Redis) =>
  new Promise<void>((resolve) => {
    const s = inner(c).stream;
    if (!s || s.destroyed) resolve();
    else s.once("close", () => resolve());
  });

/** Nothing left that keeps the process alive: no retry timer, no socket. */
async function noConnectionLeft(clients: Redis[]): Promise<void> {
  await Promise.all(clients.map(socketGone));
  // A second look after a turn: no retry was planned when the socket closed.
  await new Promise((r) => setImmediate(r));
  expect(clients.map((c) => [c.status === "ready", inner(c).reconnectTimeout ?? null, inner(c).stream?.destroyed ?? true])).toEqual(
    Array(clients.length).fill([false, null, true]),
  );
}

describe.skipIf(!HAVE_REDIS)("RedisExecutor.close with Redis gone", { timeout: 30_000 }, () => {
  let redis: RedisServer | null = null;
  afterEach(async () => {
    await redis?.stop();
    redis = null;
  });

  test("Redis killed while the reader blocks: close() ends with the blocking client between reconnect tries, no connection left", async () => {
    redis = await RedisServer.start();
    const ex = await RedisExecutor.open(parseRedisUrl(redis.url, "--executor"), OPEN);
    const { cmd, blocking, queueConn } = clientsOf(ex);
    const outcome = ex.run(job(0), hooks()).catch((e: unknown) => e);
    void outcome;
    const retrying = next(blocking, "reconnecting");
    await redis.down();
    await retrying; // the window: the XREAD is queued, the client waits to try again
    expect(blocking.status).toBe("reconnecting");
    await ex.close();
    await noConnectionLeft([cmd, blocking, queueConn]);
  });

  test("Redis killed and given up on (down past the bound): close() still ends, no connection left", async () => {
    redis = await RedisServer.start();
    const ex = await RedisExecutor.open(parseRedisUrl(redis.url, "--executor"), OPEN);
    const { cmd, blocking, queueConn } = clientsOf(ex);
    const outcome = ex.run(job(1), hooks()).catch((e: unknown) => e);
    await redis.down();
    // The run is told: the job rejects with the executor lost (the engine ends the run `error`, reason executor).
    expect((await outcome) as Error).toMatchObject({ name: expect.stringMatching(/ExecutorLost/) });
    await ex.close();
    await noConnectionLeft([cmd, blocking, queueConn]);
  });
});
