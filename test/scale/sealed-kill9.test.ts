// Nothing of a sealed sitting survives vouch (issue 26, ADR 0040): a script that
// leaves a setsid daemon, a double fork and a nohup child, killed with -9 while
// it runs — the local `vouch run`, and a real `vouch worker` running the branch
// over a real redis-server. Sealed, the sitting's pid namespace dies with the
// process that started bubblewrap (--die-with-parent): every process of it is
// gone (counted). Unsealed, the same daemons outlive the kill (on a worker, the
// one in a session of its own outlives even the worker's group reaper).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanEnv, ensureBinary, tempDir, type TempDir } from "../e2e/helpers.ts";
import { eventually, HAVE_BWRAP, killQuietly, processesWith } from "../spawn/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, stopAll, useRedis, WorkerProc } from "./fleet.ts";

/** Leaves three daemons (each says it runs), then holds until killed: four processes of the sitting
 *  whose command lines hold the marker (each sleeps under half a minute: a failed test leaks nothing long). */
const LEAVER = (marker: string) =>
  `setsid sh -c 'touch up1; exec sleep ${marker}1' </dev/null >/dev/null 2>&1 & (sh -c 'touch up2; exec sleep ${marker}2' </dev/null >/dev/null 2>&1 &); nohup sh -c 'touch up3; exec sleep ${marker}3' >/dev/null 2>&1 & while [ ! -f up1 ] || [ ! -f up2 ] || [ ! -f up3 ]; do sleep 0.01; done; echo held; exec sleep ${marker}9`;

function graph(marker: string, sandbox: "required" | "off", map: boolean): string {
  const node = `kind: script, sandbox: ${sandbox}, run: "${LEAVER(marker).replaceAll('"', '\\"')}"`;
  if (!map) return `version: 1\nname: leave\nnodes:\n  leave: { ${node} }\n`;
  return `version: 1\nname: leave\ninputs:\n  xs: { default: [a] }\nnodes:\n  each:\n    kind: map\n    over: inputs.xs\n    branch:\n      leave: { ${node} }\n`;
}

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("kill9");
}, 120_000);
afterAll(() => dir?.cleanup());

const stamp = () => `27.${process.pid}${Math.floor(Math.random() * 1e6)}`;

/** The sitting's sleeps (bubblewrap's and the init's command lines hold the script, marker included). */
const sleeps = (marker: string) => processesWith(`sleep\0${marker}`);

/** Waits (bounded) until the three daemons and the holder run. */
async function running(marker: string): Promise<number[]> {
  expect(await eventually(() => sleeps(marker).length === 4, 20_000)).toBe(true);
  return sleeps(marker);
}

describe.skipIf(!HAVE_BWRAP)("kill -9 of the local vouch run", () => {
  async function killedRun(sandbox: "required" | "off"): Promise<{ marker: string; after: () => number[] }> {
    const marker = stamp();
    const work = join(dir.path, `local-${sandbox}`);
    Bun.spawnSync(["mkdir", "-p", work]);
    const file = join(work, "g.yaml");
    writeFileSync(file, graph(marker, sandbox, false));
    const p = Bun.spawn([BINARY, "run", file, "--json"], {
      cwd: work,
      env: cleanEnv({ home: join(work, ".vouch") }),
      stdout: "ignore",
      stderr: "ignore",
    });
    await running(marker);
    process.kill(p.pid, "SIGKILL");
    await p.exited;
    return { marker, after: () => sleeps(marker) };
  }

  test("sealed: every process of the sitting is gone (counted)", async () => {
    const r = await killedRun("required");
    expect(await eventually(() => r.after().length === 0, 10_000)).toBe(true);
  }, 60_000);

  test("unsealed (sandbox: off): the same daemons (and the sitting itself) outlive it", async () => {
    const r = await killedRun("off");
    const left = r.after();
    killQuietly(left);
    expect(left.length).toBe(4);
  }, 60_000);
});

describe.skipIf(!HAVE_REDIS || !HAVE_BWRAP)("kill -9 of a vouch worker running the branch", { timeout: 120_000 }, () => {
  const redis = useRedis();
  const workers: WorkerProc[] = [];

  // Each test its own Redis database: a job the killed worker left is no other test's.
  async function killedWorker(sandbox: "required" | "off", db: number): Promise<{ marker: string; coordinator: Coordinator }> {
    const marker = stamp();
    const work = join(dir.path, `fleet-${sandbox}`);
    Bun.spawnSync(["mkdir", "-p", work]);
    const file = join(work, "g.yaml");
    writeFileSync(file, graph(marker, sandbox, true));
    const url = `${redis().url}/${db}`;
    const w = await WorkerProc.start(url, `kill9-${sandbox}`, join(work, ".vouch"), 2);
    workers.push(w);
    const c = new Coordinator(["run", file, "--executor", url], join(work, ".vouch"), work);
    await running(marker);
    w.kill9();
    await w.proc.exited;
    return { marker, coordinator: c };
  }

  test("sealed: the worker's sitting dies with it, every process of it gone (counted)", async () => {
    const { marker, coordinator } = await killedWorker("required", 1);
    try {
      expect(await eventually(() => sleeps(marker).length === 0, 10_000)).toBe(true);
    } finally {
      process.kill(coordinator.proc.pid, "SIGKILL");
      await stopAll(workers);
    }
  });

  test("unsealed (sandbox: off): the setsid daemon outlives the worker", async () => {
    const { marker, coordinator } = await killedWorker("off", 2);
    try {
      // The worker's group reaper (ADR 0046) kills its branches' groups and sessions when it dies, in
      // its own time; a daemon in a session of its own is out of its reach.
      const daemon = sleeps(`${marker}1`);
      killQuietly(sleeps(marker));
      expect(daemon).toHaveLength(1);
    } finally {
      process.kill(coordinator.proc.pid, "SIGKILL");
      await stopAll(workers);
    }
  });
});
