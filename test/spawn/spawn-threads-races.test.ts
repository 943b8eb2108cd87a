// Races across the spawn-worker boundary (ADR 0081), with real processes: a cancel posted before
// the pid came back, the supervisor's killAll in that window, a worker that dies with a child
// running. Each test's counts say the process really went through a worker.
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { runProcess } from "../../src/spawn/process.ts";
import { SpawnThreads } from "../../src/spawn/process/spawn-threads.ts";
import { offThreadPools } from "./off-thread.ts";
import { eventually, groupAlive, killQuietly, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
const leftovers: number[] = [];
afterEach(() => killQuietly(leftovers.splice(0)));
afterAll(() => dir.cleanup());
/** A supervisor whose processes start on a pool of its own, and that pool. */
const offThread = offThreadPools(() => new SpawnThreads(1));

/** Runs `then` once the request is posted, before the worker's pid can have come back: the
 *  barrier runs for the start turn, then right before the request (runProcess), which is posted
 *  in that same synchronous run; a microtask queued there runs after it. */
function rightAfterThePost(supervisor: ProcessSupervisor, then: () => void): void {
  let calls = 0;
  supervisor.setBarrier(() => {
    if (++calls === 2) queueMicrotask(then);
  });
}

describe("the window between the request and the pid", () => {
  test("a cancel posted before the pid came back stops the group", async () => {
    const { supervisor, threads } = offThread();
    const ac = new AbortController();
    let registered = -1;
    rightAfterThePost(supervisor, () => {
      registered = supervisor.liveGroups().length;
      ac.abort();
    });
    const r = await runProcess({ shell: "sleep 30" }, { cwd: dir.path, env: TEST_ENV, supervisor, signal: ac.signal });
    leftovers.push(r.pid!);
    expect(registered).toBe(0);
    expect(r.terminationReason).toBe("cancelled");
    expect(groupAlive(r.pid!)).toBe(false);
    expect(threads.counts).toEqual({ requests: 1, replies: 1, fallbacks: 0 });
  });

  // KNOWN BUG (review r36rt): the second Ctrl-C (Session.exitNow), and the supervisor's exit hook,
  // are killAll then process.exit: a group whose pid has not come back yet is in no registry, so
  // nothing kills it, and it is not in the group journal either. On this thread's path the group
  // is registered in the same synchronous run as Bun.spawn. `test.fails` until that is fixed:
  // then it passes, fails here, and the `.fails` goes.
  test.fails("killAll before the pid came back still stops the group", async () => {
    const { supervisor, threads } = offThread();
    rightAfterThePost(supervisor, () => supervisor.killAll("SIGKILL"));
    const r = await runProcess({ shell: "sleep 2" }, { cwd: dir.path, env: TEST_ENV, supervisor });
    leftovers.push(r.pid!);
    expect(threads.counts.requests).toBe(1);
    expect(r.terminationReason).toBe("cancelled");
  });
});

/** Processes whose command line holds `marker`. */
function holding(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("vouch exiting while a pid is in flight", () => {
  // Before the shared pid slots: 11 of 12 such exits left 1–3 children running.
  test("no child outlives it: the exit hook waits out a start in progress and kills what the slots name", async () => {
    for (let round = 0; round < 3; round++) {
      const marker = `vouch-in-flight-${process.pid}-${round}-${Math.random().toString(36).slice(2)}`;
      const host = Bun.spawn([process.execPath, join(import.meta.dirname, "fixtures", "exit-in-flight-host.ts"), marker], {
        stdout: "ignore",
        stderr: "inherit",
      });
      expect(await host.exited).toBe(130);
      const gone = await eventually(() => holding(marker).length === 0);
      leftovers.push(...holding(marker));
      expect(gone).toBe(true);
    }
  });
});

// The group dies here by either of two hands: the dead worker's own ProcessSupervisor exit hook,
// and SpawnThreads' SIGKILL of the pid (with that SIGKILL removed these still pass).
describe("a worker that dies with a child running", () => {
  const crashing = new URL("./fixtures/crashing-spawn-worker.ts", import.meta.url).href;

  for (const how of ["throws", "exits"] as const) {
    test(`it ${how}: the child's group is killed, the command ends as a failed start, the next runs on this thread`, async () => {
      const { supervisor, threads } = offThread(new SpawnThreads(1, crashing));
      const shell = how === "exits" ? "sleep 30 # EXIT_THE_WORKER" : "sleep 30";
      const r = await runProcess({ shell }, { cwd: dir.path, env: TEST_ENV, supervisor });
      leftovers.push(r.pid!);
      expect(r.terminationReason).toBe("spawn_failed");
      expect(r.spawnError).toContain("its process group was killed");
      expect(await eventually(() => !groupAlive(r.pid!))).toBe(true);
      expect(supervisor.liveGroups()).toEqual([]);
      expect(threads.usable).toBe(false);
      const next = await runProcess({ shell: "exit 6" }, { cwd: dir.path, env: TEST_ENV, supervisor });
      expect(next.exit).toBe(6);
      expect(threads.counts.requests).toBe(1);
    });
  }
});

describe("caps run on the worker's own timers", () => {
  test("an idle cap stops a command that went silent, after its output; the wall cap too", async () => {
    const { supervisor, threads } = offThread();
    const idle = await runProcess({ shell: "echo begun; exec sleep 30" }, { cwd: dir.path, env: TEST_ENV, supervisor, idleMs: 300 });
    leftovers.push(idle.pid!);
    expect(idle).toMatchObject({ terminationReason: "idle", stdoutTail: "begun\n" });
    expect(idle.longestSilenceMs).toBeGreaterThanOrEqual(300);
    expect(groupAlive(idle.pid!)).toBe(false);
    const wall = await runProcess(
      { shell: "while :; do echo tick; sleep 0.05; done" },
      { cwd: dir.path, env: TEST_ENV, supervisor, idleMs: 10_000, wallMs: 300 },
    );
    leftovers.push(wall.pid!);
    expect(wall.terminationReason).toBe("wall");
    expect(threads.counts).toEqual({ requests: 2, replies: 2, fallbacks: 0 });
  });
});
