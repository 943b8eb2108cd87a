// A coordinator never waits in silence, nor for ever (issue 27, item 9; ADR 0046),
// through the real binary: with live jobs and no progress it says on stderr what it
// waits for, and a first SIGTERM ends `vouch resume` even when the job it re-attached to
// belongs to a worker that was killed (its lock still held, nobody to hear the stop).
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const QUIET = { VOUCH_EXECUTOR_QUIET_MS: "1000" };

function graph(run: string): string {
  return `version: 1
name: waiting
nodes:
  items: { kind: script, run: "echo [0]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: ${JSON.stringify(run)}, output: { format: json } }
`;
}

/** Resolves once the coordinator's stderr holds `text`; rejects when it ends first, or when a
 *  minute passed (the notice is due after one second of quiet: silence is the failure). */
async function said(c: Coordinator, text: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!c.err.includes(text)) {
    if (c.proc.exitCode !== null || c.proc.signalCode !== null) throw new Error(`the coordinator ended: ${c.err}`);
    if (Date.now() > deadline) throw new Error(`nothing on stderr said ${JSON.stringify(text)} in a minute: ${JSON.stringify(c.err)}`);
    await Bun.sleep(20);
  }
}

describe.skipIf(!HAVE_REDIS)("a coordinator waiting on workers", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  const coordinators: Coordinator[] = [];
  afterEach(async () => {
    for (const c of coordinators.splice(0)) c.kill();
    await stopAll(workers);
    spawnSync(["pkill", "-9", "-f", "sleep 88.642"]);
    dir.cleanup();
  });

  test("with no live worker it says what it waits for, and a first SIGTERM ends it", async () => {
    dir = tempDir("waiting");
    writeFileSync(join(dir.path, "g.yaml"), graph("echo '{}'"));
    const c = new Coordinator(["run", "g.yaml", "--executor", redis().url], join(dir.path, ".vouch"), dir.path, QUIET);
    coordinators.push(c);
    await said(c, "waiting on 1 branch job");
    expect(c.err).toContain("1 queued");
    expect(c.err).toContain("no live worker");
    expect(c.err).toContain(`vouch worker ${redis().url}`);
    process.kill(c.proc.pid, "SIGTERM");
    const { code, events } = await c.doneWithin(60_000);
    expect(code).toBe(130);
    expect(of(events, "branch.finished")).toMatchObject([{ status: "cancelled" }]);
  });

  test("a first SIGTERM ends `vouch resume` re-attached to the job of a killed worker", async () => {
    dir = tempDir("waiting");
    const home = join(dir.path, ".vouch");
    writeFileSync(join(dir.path, "g.yaml"), graph("sleep 88.642; echo '{}'"));
    // A long lock: the killed worker's job stays active, its lock held, for a minute.
    const w0 = await WorkerProc.start(redis().url, "w0", home, 1, { VOUCH_WORKER_LOCK_MS: "60000" });
    workers.push(w0);
    const first = new Coordinator(["run", "g.yaml", "--executor", redis().url], home, dir.path);
    coordinators.push(first);
    await first.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "w0"));
    first.kill();
    await first.done();
    w0.kill9();
    await w0.proc.exited;
    const resumed = new Coordinator(["resume", "last"], home, dir.path, QUIET);
    coordinators.push(resumed);
    await resumed.until((evs) => of(evs, "branch.dispatched").length > 0);
    process.kill(resumed.proc.pid, "SIGTERM");
    const { code, events } = await resumed.doneWithin(60_000);
    expect(code, resumed.err).toBe(130);
    const finished = of(events, "branch.finished");
    expect(finished).toHaveLength(1);
    expect(finished[0]!.status).toBe("cancelled");
    expect(finished[0]!.error).toContain("no worker");
    // Meanwhile it said what it waited for: the job running on no live worker.
    expect(resumed.err).toContain("on no live worker");
  });
});
