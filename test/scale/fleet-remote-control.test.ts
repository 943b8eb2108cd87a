// Operating a fleet run from other processes (issue 31) through the real binary: a
// real redis-server, two `vouch worker`s, a coordinator `vouch run --executor`.
// `vouch watch` follows it from the coordinator's ledger (the workers' events are
// recorded there), `vouch cancel` stops it with its jobs cancelled on the workers,
// `vouch resume` finishes it re-running no passed branch, `vouch approve` decides
// its approval. Each branch waits for a file the test creates: no sleeping.
import { afterEach, describe, expect, test } from "vitest";
import { join } from "node:path";
import { BINARY, cleanEnv, parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { finishedBranches, gatedMapGraph, release, writeGraph } from "../e2e/remote-helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

describe.skipIf(!HAVE_REDIS)("cancel, watch, resume and approve a run on a fleet", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  const live: Coordinator[] = [];
  const home = () => join(dir.path, ".vouch");
  // The fleet key as every coordinator of the fleet holds it (a resume reconnects to the run's executor).
  const v = (args: string[]) => vouch(args, { home: home(), cwd: dir.path, env: FLEET_ENV });

  afterEach(async () => {
    for (const c of live.splice(0)) {
      if (c.proc.exitCode === null) c.proc.kill("SIGKILL");
      await c.proc.exited;
    }
    await stopAll(workers);
    dir.cleanup();
  });

  async function fleet(): Promise<void> {
    dir = tempDir("fleet-remote");
    for (const name of ["wa", "wb"]) workers.push(await WorkerProc.start(redis().url, name, home(), 2));
  }

  const jobsRunning = async () => {
    const r = await v(["workers", redis().url, "--json"]);
    return (JSON.parse(r.stdout) as { jobs: { active: number; waiting: number } }).jobs;
  };

  test("watch follows it from the ledger; cancel during the map stops the workers' jobs; resume finishes it, no passed branch re-run", async () => {
    await fleet();
    const graph = writeGraph(dir.path, gatedMapGraph(dir.path, { items: 6, concurrency: 4, gate: false, name: "fleet-gated" }));
    const run = new Coordinator(["run", graph, "--executor", redis().url], home(), dir.path);
    live.push(run);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "work"));
    const id = run.events()[0]!.run;
    const watch = Bun.spawn([BINARY, "watch", id, "--json"], {
      cwd: dir.path,
      env: cleanEnv({ home: home() }),
      stdout: "pipe",
      stderr: "pipe",
    });
    release(dir.path, 1);
    release(dir.path, 2);
    await run.until((e) => finishedBranches(e).length === 2 && of(e, "node.started").filter((s) => s.node === "work").length === 6);

    const cancelled = await v(["cancel", id]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`run ${id} cancelled: interrupted (exit 130)`);
    const { code, events } = await run.done();
    expect(code).toBe(130);
    expect(of(events, "run.cancel_requested")).toHaveLength(1);
    // The branches ran on the workers (their events came back with `remote`) and were cancelled there.
    const work = of(events, "node.finished").filter((f) => f.node === "work");
    expect(work.filter((f) => f.status === "passed").every((f) => f.remote !== undefined)).toBe(true);
    expect(
      work
        .filter((f) => f.status === "cancelled")
        .map((f) => f.branch!.index)
        .sort(),
    ).toEqual([2, 3, 4, 5]);
    // The workers let go of the cancelled jobs: none is active (asked again until so, at most 300 times).
    let active = (await jobsRunning()).active;
    for (let i = 0; i < 300 && active > 0; i++) active = (await jobsRunning()).active;
    expect(active).toBe(0);

    // watch ended with the run, with its exit code, having printed the run's own lines.
    const [watched, watchCode] = await Promise.all([new Response(watch.stdout).text(), watch.exited]);
    expect(watchCode).toBe(130);
    expect(watched).toBe(run.out);

    release(dir.path, "all");
    const resumed = await v(["resume", id, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = parseNdjson(resumed.stdout);
    expect(of(again, "run.started")[0]!.executor).toContain("redis://127.0.0.1");
    expect(
      of(again, "node.started")
        .filter((s) => s.node === "work")
        .map((s) => s.branch!.index)
        .sort(),
    ).toEqual([2, 3, 4, 5]);
    expect(of(again, "run.finished")[0]).toMatchObject({ status: "passed", exit_code: 0 });
  });

  test("--wait-approvals: the top-level approval after a fleet map is decided with vouch approve", async () => {
    await fleet();
    release(dir.path, "all");
    const graph = writeGraph(dir.path, gatedMapGraph(dir.path, { items: 3, name: "fleet-approve" }));
    const run = new Coordinator(["run", graph, "--executor", redis().url, "--wait-approvals"], home(), dir.path);
    live.push(run);
    await run.until((e) => of(e, "node.started").some((s) => s.node === "gate"));
    const id = run.events()[0]!.run;
    const ok = await v(["approve", id, "gate", "--note", "fleet done"]);
    expect(ok.code, ok.stderr).toBe(0);
    const { code, events } = await run.done();
    expect(code).toBe(0);
    expect(of(events, "node.finished").find((f) => f.node === "gate")!.evidence?.[0]?.detail).toMatch(/\(vouch approve\): fleet done$/);
  });
});
