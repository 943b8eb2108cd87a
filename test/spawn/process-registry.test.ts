// Engine shutdown kills every live process group before vouch exits, tested on
// a real Bun process (fixtures/shutdown-host.ts) that stands in for vouch.
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { runProcess } from "../../src/spawn/process.ts";
import { alive, eventually, groupAlive, killQuietly, readPids, tempDir, TEST_ENV } from "./helpers.ts";

const HOST = join(import.meta.dirname, "fixtures", "shutdown-host.ts");
const leftovers: number[] = [];
const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  killQuietly(leftovers.splice(0));
  for (const d of dirs.splice(0)) d.cleanup();
});

async function startHost(mode: "graceful" | "exit") {
  const dir = tempDir();
  dirs.push(dir);
  const host = Bun.spawn([process.execPath, HOST, mode, dir.path], { stdout: "inherit", stderr: "inherit" });
  const ready = join(dir.path, "ready");
  expect(await eventually(() => existsSync(ready), 15_000)).toBe(true);
  const groups = readFileSync(ready, "utf8").trim().split(" ").map(Number);
  const pids = [...(await readPids(join(dir.path, "a.pids"))), ...(await readPids(join(dir.path, "b.pids")))];
  leftovers.push(...pids);
  return { host, dir, groups, pids };
}

describe("process registry", () => {
  test("SIGTERM to vouch: every live group is stopped (SIGTERM, then SIGKILL) before it exits", async () => {
    const { host, dir, groups, pids } = await startHost("graceful");
    expect(groups).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);
    host.kill("SIGTERM");
    expect(await host.exited).toBe(143);
    // Both runs ended as cancelled, including the one that ignores SIGTERM.
    expect(readFileSync(join(dir.path, "reasons"), "utf8")).toBe("cancelled cancelled");
    expect(await eventually(() => pids.every((p) => !alive(p)))).toBe(true);
    // A SIGKILLed group is gone when the kernel has reaped it, not at once: under load a member
    // was still there when every listed pid was already dead (a fresh clone's suite, once).
    expect(await eventually(() => groups.every((g) => !groupAlive(g)))).toBe(true);
  });

  test("process.exit with groups still running: the exit hook SIGKILLs them all", async () => {
    const { host, dir, groups, pids } = await startHost("exit");
    expect(await host.exited).toBe(3);
    expect(await eventually(() => pids.every((p) => !alive(p)))).toBe(true);
    // A SIGKILLed group is gone when the kernel has reaped it, not at once: under load a member
    // was still there when every listed pid was already dead (a fresh clone's suite, once).
    expect(await eventually(() => groups.every((g) => !groupAlive(g)))).toBe(true);
  });
});

describe("one supervisor per owner", () => {
  test("each supervisor owns only its own groups: killAll on one leaves the other's running", async () => {
    const d = tempDir();
    dirs.push(d);
    const mine = new ProcessSupervisor();
    const theirs = new ProcessSupervisor();
    const opts = { cwd: d.path, env: TEST_ENV };
    const a = runProcess({ argv: ["sleep", "30"] }, { ...opts, supervisor: mine });
    const b = runProcess({ argv: ["sleep", "30"] }, { ...opts, supervisor: theirs });
    expect(await eventually(() => mine.liveGroups().length === 1 && theirs.liveGroups().length === 1)).toBe(true);
    const [other] = theirs.liveGroups();
    leftovers.push(other!);
    expect(mine.killAll("SIGKILL")).toBe(1);
    expect((await a).terminationReason).toBe("cancelled");
    expect(groupAlive(other!)).toBe(true);
    expect(theirs.killAll("SIGKILL")).toBe(1);
    expect((await b).terminationReason).toBe("cancelled");
  });

  test("its exit hook is installed only while it owns something (no listener per run left behind)", async () => {
    const d = tempDir();
    dirs.push(d);
    const before = process.listenerCount("exit");
    const s = new ProcessSupervisor();
    const seen: number[] = [];
    await runProcess(
      { shell: "echo x" },
      { cwd: d.path, env: TEST_ENV, supervisor: s, onStdoutLine: () => void seen.push(process.listenerCount("exit")) },
    );
    const remove = s.trackFolder(join(d.path, "gone"));
    seen.push(process.listenerCount("exit"));
    await remove();
    expect(seen).toEqual([before + 1, before + 1]);
    expect(process.listenerCount("exit")).toBe(before);
  });
});

describe("the barrier before a start (write-ahead)", () => {
  test("runs before the process exists; a throwing barrier starts nothing", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const marker = join(dir.path, "started");
    const supervisor = new ProcessSupervisor();
    const seen: boolean[] = [];
    supervisor.setBarrier(() => seen.push(existsSync(marker) || supervisor.liveGroups().length > 0));
    const r = await runProcess({ shell: `touch '${marker}'` }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor });
    expect(r.exit).toBe(0);
    expect(existsSync(marker)).toBe(true);
    // At the end of the turn (the commit) and again right before the start (nothing left to commit).
    expect(seen).toEqual([false, false]);

    const second = join(dir.path, "second");
    supervisor.setBarrier(() => {
      throw new Error("the ledger could not commit");
    });
    await expect(runProcess({ shell: `touch '${second}'` }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor })).rejects.toThrow(
      "the ledger could not commit",
    );
    await Bun.sleep(50);
    expect(existsSync(second)).toBe(false);
    expect(supervisor.liveGroups()).toEqual([]);
  });

  test("eight processes asking to start in one turn share one commit; events queued in that turn after the ask are in the next one, before the start", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const supervisor = new ProcessSupervisor();
    let queued = 0;
    const commits: number[] = [];
    const queuedAtStart: number[] = [];
    supervisor.setBarrier(() => {
      if (queued > 0) commits.push(queued);
      queued = 0;
    });
    supervisor.observe({ added: () => queuedAtStart.push(queued), removed: () => {} });
    // As the engine does: a node.started queued, then its process asked for, eight times in one turn.
    const runs = Array.from({ length: 8 }, (_, i) => {
      queued++;
      return runProcess({ shell: `exit ${i}` }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor });
    });
    const results = await Promise.all(runs);
    expect(results.map((r) => r.exit)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(commits).toEqual([8]);
    expect(queuedAtStart).toEqual(Array(8).fill(0));

    // Events queued in the turn after the ask (another node finishing) are committed before the start too.
    queued++;
    const late = runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor });
    queued++;
    expect((await late).exit).toBe(0);
    expect(commits).toEqual([8, 2]);
    expect(queuedAtStart).toEqual(Array(9).fill(0));
  });

  test("an event queued after the turn's commit, before a waiting start resumes (another node's continuation), is committed before that start", async () => {
    // Review of ADR 0032: the turn's commit runs in setImmediate; the starts resume as
    // microtasks after it, and anything queued in between must not be left uncommitted.
    const dir = tempDir();
    dirs.push(dir);
    const supervisor = new ProcessSupervisor();
    let queued = 0;
    let sneaked = false;
    const queuedAtStart: number[] = [];
    supervisor.setBarrier(() => {
      queued = 0;
      if (!sneaked) {
        sneaked = true;
        queueMicrotask(() => queued++); // runs before the awaiting start's continuation
      }
    });
    supervisor.observe({ added: () => queuedAtStart.push(queued), removed: () => {} });
    queued++;
    expect((await runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor })).exit).toBe(0);
    expect(sneaked).toBe(true);
    expect(queuedAtStart).toEqual([0]);
  });

  test("a cancellation while a start waits for its turn's commit starts nothing", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const supervisor = new ProcessSupervisor();
    supervisor.setBarrier(() => {});
    const started: number[] = [];
    supervisor.observe({ added: (pgid) => started.push(pgid), removed: () => {} });
    const ac = new AbortController();
    const run = runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV, wallMs: 10_000, supervisor, signal: ac.signal });
    ac.abort();
    const r = await run;
    expect(r.terminationReason).toBe("cancelled");
    expect(started).toEqual([]);
  });
});
