// A session's spawn workers (ADR 0081) end with the session: a process that runs sessions one
// after another (the tests, in-process) kept two threads and their heaps per session before
// (test first: 6 sessions, 11 → 21 threads; after the fix flat).
import { afterAll, expect, test } from "vitest";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli.ts";
import type { CliIO } from "../../src/cli/io.ts";

const temp = mkdtempSync(join(tmpdir(), "vouch-session-threads-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const graph = join(temp, "g.yaml");
writeFileSync(graph, `version: 1\nname: g\nnodes:\n  a: { kind: script, run: "true" }\n  b: { kind: script, needs: [a], run: "true" }\n`);

const threads = () => readdirSync("/proc/self/task").length;

async function session(): Promise<number> {
  let err = "";
  const io: CliIO = {
    out: () => {},
    err: (t) => void (err += t),
    stdoutIsTTY: false,
    stdinIsTTY: false,
    env: { VOUCH_HOME: join(temp, "home"), PATH: process.env.PATH, VOUCH_SPAWN_THREADS: "on" },
    cwd: temp,
    streams: process,
  };
  const code = await main(["run", graph, "--plain"], io);
  expect(err).toBe("");
  return code;
}

test("each session's workers end with it: the thread count does not grow per session", async () => {
  expect(await session()).toBe(0);
  const after = threads();
  for (let i = 0; i < 4; i++) expect(await session()).toBe(0);
  // Each leaked pool is two threads: four more sessions would be 8 more. Bun's own helper
  // threads (the collector's, I/O) come and go by a few under load: 3 of slack, not 0.
  expect(threads()).toBeLessThanOrEqual(after + 3);
});
