// runProcess under caps, with real processes: the whole group dies, the read
// never hangs on a grandchild, and the first cause of termination is the one reported.
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { alive, eventually, groupAlive, killQuietly, readPids, stub, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
const leftovers: number[] = [];
afterEach(() => killQuietly(leftovers.splice(0)));
afterAll(() => dir.cleanup());
const supervisor = new ProcessSupervisor();
const opts = { cwd: dir.path, env: TEST_ENV, supervisor };
const pidFile = (name: string) => join(dir.path, `${name}-${Math.random().toString(36).slice(2)}.pids`);

describe("wall cap", () => {
  test("a cap longer than a timer can hold (over ~24.8 days) does not fire at once", async () => {
    // setTimeout fires after 1 ms when given more than 2^31-1 ms.
    const r = await runProcess({ shell: "sleep 0.3; echo done" }, { ...opts, wallMs: 700 * 3_600_000, idleMs: 700 * 3_600_000 });
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutTail).toBe("done\n");
  });

  test("`sh -c 'sleep 30 & echo hi; wait'` under a 300 ms cap: back fast, hi read, whole group gone", async () => {
    const t0 = performance.now();
    const r = await runProcess({ shell: "sleep 30 & echo hi; wait" }, { ...opts, wallMs: 300 });
    const took = performance.now() - t0;
    expect(r.terminationReason).toBe("wall");
    expect(r.stdoutTail).toBe("hi\n");
    expect(took).toBeLessThan(1500);
    expect(r.signal).toBe("SIGTERM");
    expect(r.exit).toBeNull();
    expect(r.pid).toBeGreaterThan(0);
    // The leader led its own group: no member of it (the sleep) may be alive.
    expect(await eventually(() => !groupAlive(r.pid!))).toBe(true);
  });

  test("a grandchild holding the pipe is killed by pid, not only its parent", async () => {
    const file = pidFile("wall");
    const r = await runProcess({ argv: [stub("fork-grandchild.sh"), file, "wait", "30"] }, { ...opts, wallMs: 300 });
    const [leader, grandchild] = await readPids(file);
    leftovers.push(leader!, grandchild!);
    expect(r.terminationReason).toBe("wall");
    expect(r.stdoutTail).toBe("hi\n");
    expect(r.pid).toBe(leader);
    expect(alive(leader!)).toBe(false);
    expect(await eventually(() => !alive(grandchild!))).toBe(true);
    expect(supervisor.liveGroups()).not.toContain(leader);
  });
});

describe("grace period", () => {
  test("a child that ignores SIGTERM is SIGKILLed after the grace period, with its sleeping child", async () => {
    const file = pidFile("ignore");
    const r = await runProcess({ argv: [stub("ignore-sigterm.sh"), file, "30"] }, { ...opts, wallMs: 200, graceMs: 400 });
    const [leader, sleeper] = await readPids(file);
    leftovers.push(leader!, sleeper!);
    expect(r.terminationReason).toBe("wall");
    expect(r.signal).toBe("SIGKILL");
    expect(r.stdoutTail).toBe("ready\n");
    // SIGTERM at ~200 ms did nothing; SIGKILL came a grace period later.
    expect(r.wallMs).toBeGreaterThanOrEqual(200 + 400 - 20);
    expect(r.wallMs).toBeLessThan(10_000);
    expect(await eventually(() => !alive(sleeper!) && !alive(leader!))).toBe(true);
  });

  test("a child that honours SIGTERM ends at once, well before the grace period", async () => {
    const r = await runProcess({ argv: ["sleep", "30"] }, { ...opts, wallMs: 100, graceMs: 20_000 });
    expect(r.terminationReason).toBe("wall");
    expect(r.signal).toBe("SIGTERM");
    expect(r.wallMs).toBeLessThan(10_000);
  });
});

describe("leader exits first", () => {
  test("a leader that exits while its grandchild keeps stdout open returns promptly, grandchild dead", async () => {
    const file = pidFile("exit");
    const t0 = performance.now();
    const r = await runProcess({ argv: [stub("fork-grandchild.sh"), file, "exit", "30"] }, opts);
    const took = performance.now() - t0;
    const [leader, grandchild] = await readPids(file);
    leftovers.push(leader!, grandchild!);
    expect(r.terminationReason).toBe("exit");
    expect(r.exit).toBe(0);
    expect(r.signal).toBeNull();
    expect(r.stdoutTail).toBe("hi\n");
    expect(took).toBeLessThan(5000); // the grandchild sleeps 30 s: a hang would show
    expect(await eventually(() => !alive(grandchild!))).toBe(true);
  });

  test("a process that escaped the group (new session) cannot hang the read: bounded drain", async () => {
    const file = pidFile("escape");
    const t0 = performance.now();
    const r = await runProcess({ argv: [stub("escape-group.sh"), file, "30"] }, opts);
    const took = performance.now() - t0;
    const [escaped] = await readPids(file);
    leftovers.push(escaped!);
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutTail).toBe("hi\n");
    expect(took).toBeLessThan(8000);
    // Outside our group by construction: documented limit (ADR 0004), cleaned up by the test.
    expect(alive(escaped!)).toBe(true);
  });
});

describe("idle cap and cancellation", () => {
  test("no output for idleMs kills the group with reason idle", async () => {
    const r = await runProcess({ argv: [stub("print-then-idle.sh"), "30"] }, { ...opts, idleMs: 300 });
    expect(r.terminationReason).toBe("idle");
    expect(r.stdoutTail).toBe("working\n");
    expect(r.longestSilenceMs).toBeGreaterThanOrEqual(280);
    expect(r.wallMs).toBeLessThan(10_000);
  });

  test("steady output keeps an idle cap from firing", async () => {
    // Runs ~1 s, twice the idle cap, printing every 0.1 s.
    const r = await runProcess({ shell: "for i in 1 2 3 4 5 6 7 8 9 10; do echo $i; sleep 0.1; done" }, { ...opts, idleMs: 500 });
    expect(r.terminationReason).toBe("exit");
    expect(r.exit).toBe(0);
    expect(r.stdoutTail).toBe("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
  });

  // Issue 28 item 4: codex's "Reconnecting…" lines came every minute for ever and held the idle cap off.
  test("lines the harness calls quiet are no activity: the idle cap fires through them", async () => {
    const loop = "echo start; while true; do echo reconnecting; sleep 0.05; done";
    const r = await runProcess({ shell: loop }, { ...opts, idleMs: 400, quietLine: (l) => l === "reconnecting" });
    expect(r.terminationReason).toBe("idle");
    expect(r.stdoutTail.startsWith("start\nreconnecting\n")).toBe(true);
    expect(r.longestSilenceMs).toBeGreaterThanOrEqual(400);
    // The same lines without the predicate are output: the cap never fires (stopped by the wall instead).
    const w = await runProcess({ shell: loop }, { ...opts, idleMs: 400, wallMs: 1500 });
    expect(w.terminationReason).toBe("wall");
  });

  test("with a quiet predicate, any other line still counts as activity", async () => {
    const r = await runProcess(
      { shell: "for i in 1 2 3 4 5 6 7 8 9 10; do echo $i; echo reconnecting; sleep 0.1; done" },
      { ...opts, idleMs: 500, quietLine: (l) => l === "reconnecting" },
    );
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutTail.split("\n").filter((l) => l === "reconnecting")).toHaveLength(10);
  });

  test("output on stderr alone counts as activity: not idle", async () => {
    const r = await runProcess({ shell: "for i in 1 2 3 4 5 6 7 8 9 10; do echo $i >&2; sleep 0.1; done" }, { ...opts, idleMs: 500 });
    expect(r.terminationReason).toBe("exit");
    expect(r.stdoutBytes).toBe(0);
    expect(r.stderrTail).toBe("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
  });

  test("an AbortSignal cancels the group: reason cancelled", async () => {
    const file = pidFile("cancel");
    const ac = new AbortController();
    const running = runProcess({ argv: [stub("fork-grandchild.sh"), file, "wait", "30"] }, { ...opts, signal: ac.signal });
    const [leader, grandchild] = await readPids(file);
    leftovers.push(leader!, grandchild!);
    ac.abort();
    const r = await running;
    expect(r.terminationReason).toBe("cancelled");
    expect(await eventually(() => !alive(grandchild!))).toBe(true);
  });

  test("an already aborted signal starts nothing", async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await runProcess({ argv: ["sleep", "30"] }, { ...opts, signal: ac.signal });
    expect(r.terminationReason).toBe("cancelled");
    expect(r.pid).toBeUndefined();
  });

  test("the first cause wins: idle fires first, the wall cap crossed during the grace period does not replace it", async () => {
    const file = pidFile("first");
    const r = await runProcess({ argv: [stub("ignore-sigterm.sh"), file, "30"] }, { ...opts, idleMs: 200, wallMs: 400, graceMs: 600 });
    leftovers.push(...(await readPids(file)));
    expect(r.terminationReason).toBe("idle");
    expect(r.signal).toBe("SIGKILL");
  });

  test("a leader that exits on its own before the wall cap ends with reason exit", async () => {
    const r = await runProcess({ shell: "echo done; exit 7" }, { ...opts, wallMs: 5000 });
    expect(r.terminationReason).toBe("exit");
    expect(r.exit).toBe(7);
  });
});
