// A worker's health for Kubernetes probes (docs/scale-out.md), through the binary and a
// real redis-server: `vouch worker --health-file FILE` keeps FILE fresh, and `vouch worker
// --probe live|ready --health-file FILE` answers from it with no server and no connection.
import { afterAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, vouch } from "../e2e/helpers.ts";
import { STALE_MS, unhealthy } from "../../src/cli/worker-health.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { useRedis, WorkerProc } from "./fleet.ts";

describe.skipIf(!HAVE_REDIS)("the worker's health file and probes", { timeout: 60_000 }, () => {
  const redis = useRedis();
  const dir = tempDir("worker-health");
  afterAll(() => dir.cleanup());
  const home = join(dir.path, ".vouch");
  const probe = (kind: string, file: string) => vouch(["worker", "--probe", kind, "--health-file", file], { home, cwd: dir.path });

  test("live and ready while connected; not ready once Redis is gone, still live; a missing file is neither", async () => {
    const file = join(dir.path, "health");
    const w = await WorkerProc.start(redis().url, "w-health", home, 1, {}, ["--health-file", file]);
    try {
      expect((await probe("live", file)).code).toBe(0);
      expect((await probe("ready", file)).code).toBe(0);
      await redis().down();
      // The next heartbeat says not ready (bounded by the test's timeout; one comes every 2 s).
      let ready = await probe("ready", file);
      while (ready.code === 0) ready = await probe("ready", file);
      expect(ready.code).toBe(1);
      expect(ready.stderr).toContain("not ready: the worker is not connected");
      expect((await probe("live", file)).code).toBe(0);
    } finally {
      await redis().ensureUp();
      await w.term();
    }
    const none = await probe("live", join(dir.path, "nothing"));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no health file");
  });

  test("usage mistakes are exit 2", async () => {
    writeFileSync(join(dir.path, "h"), "{}");
    expect((await probe("alive", join(dir.path, "h"))).code).toBe(2);
    const noFile = await vouch(["worker", "--probe", "live"], { home, cwd: dir.path });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain("--health-file");
  });
});

test("a heartbeat older than the bound is not live; junk is not the worker's", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  const at = (ms: number) => JSON.stringify({ at: new Date(now - ms).toISOString(), pid: 1, ready: true });
  expect(unhealthy("live", at(1000), now)).toBeNull();
  expect(unhealthy("ready", at(1000), now)).toBeNull();
  expect(unhealthy("live", at(STALE_MS + 1000), now)).toContain("s old");
  expect(unhealthy("ready", JSON.stringify({ at: new Date(now).toISOString(), ready: false }), now)).toContain("not connected");
  for (const junk of ["", "{", "[]", '{"at":"never"}', "null"]) expect(unhealthy("live", junk, now)).toContain("not the worker's");
});
