// Processes started off the engine's thread (issue 29 item 1, ADR 0081), with real processes:
// a supervisor given a pool (startOffThread) starts what nobody streams on a spawn worker. The
// counts say each test's process really went through a worker (one request, one reply), so a
// broken pool that quietly ran everything on this thread fails them.
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { SpawnThreads } from "../../src/spawn/process/spawn-threads.ts";
import { offThreadPools } from "./off-thread.ts";
import { alive, eventually, groupAlive, killQuietly, readPids, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
const leftovers: number[] = [];
afterEach(() => killQuietly(leftovers.splice(0)));
afterAll(() => dir.cleanup());
/** A supervisor whose processes start on a pool of its own, and that pool. */
const offThread = offThreadPools();
const pidFile = (name: string) => join(dir.path, `${name}-${Math.random().toString(36).slice(2)}.pids`);

describe("a process nobody streams starts on a spawn worker", () => {
  test("exit code, both streams and the pid come back; one request, one reply", async () => {
    const { supervisor, threads } = offThread();
    const r = await runProcess({ shell: "echo out; echo err >&2; exit 3" }, { cwd: dir.path, env: TEST_ENV, supervisor });
    expect(r).toMatchObject({ exit: 3, signal: null, terminationReason: "exit", stdoutTail: "out\n", stderrTail: "err\n" });
    expect(r.pid).toBeGreaterThan(0);
    expect(threads.counts).toEqual({ requests: 1, replies: 1, fallbacks: 0 });
  });

  test("stdin, the environment and the working directory cross the boundary", async () => {
    const { supervisor } = offThread();
    const env = { ...TEST_ENV, GREETING: "-n __proto__" };
    const r = await runProcess({ shell: 'printf "%s|%s|" "$GREETING" "$(pwd)"; cat' }, { cwd: dir.path, env, supervisor, stdin: "<in>" });
    expect(r.stdoutTail).toBe(`-n __proto__|${dir.path}|<in>`);
  });

  test("output is bounded in the worker: the tail is kept, every byte counted", async () => {
    const { supervisor } = offThread();
    const r = await runProcess(
      { shell: "head -c 300000 /dev/zero | tr '\\0' x" },
      { cwd: dir.path, env: TEST_ENV, supervisor, keepBytes: 1000 },
    );
    expect(r.stdoutBytes).toBe(300_000);
    expect(r.stdoutTail).toBe("x".repeat(1000));
    expect(r.truncated).toBe(true);
  });

  test("messages per command: one request out, two back (the pid at once, then the result); a cancel adds one", async () => {
    const { supervisor, threads } = offThread();
    await Promise.all(Array.from({ length: 10 }, () => runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV, supervisor })));
    expect(threads.messages).toEqual({ posted: 10, received: 20 });
    const ac = new AbortController();
    supervisor.observe({ added: () => ac.abort(), removed: () => {} });
    await runProcess({ shell: "sleep 30" }, { cwd: dir.path, env: TEST_ENV, supervisor, signal: ac.signal });
    expect(threads.messages).toEqual({ posted: 12, received: 22 });
  });

  test("a wall cap kills the whole group, a grandchild included", async () => {
    const { supervisor, threads } = offThread();
    const file = pidFile("wall");
    const r = await runProcess(
      { shell: `sleep 30 & echo $! > "${file}"; wait` },
      { cwd: dir.path, env: TEST_ENV, supervisor, wallMs: 300 },
    );
    const [grandchild] = await readPids(file);
    leftovers.push(grandchild!);
    expect(r.terminationReason).toBe("wall");
    expect(await eventually(() => !alive(grandchild!))).toBe(true);
    expect(groupAlive(r.pid!)).toBe(false);
    expect(threads.counts.replies).toBe(1);
  });

  test("the group is registered on this thread as soon as it exists: a cancel then stops it", async () => {
    const { supervisor, threads } = offThread();
    const ac = new AbortController();
    const seen: number[] = [];
    supervisor.observe({ added: (pgid) => (seen.push(pgid), ac.abort()), removed: () => {} });
    const r = await runProcess({ shell: "sleep 30" }, { cwd: dir.path, env: TEST_ENV, supervisor, signal: ac.signal });
    expect(r.terminationReason).toBe("cancelled");
    expect(seen).toEqual([r.pid]);
    expect(supervisor.liveGroups()).toEqual([]);
    expect(threads.counts).toEqual({ requests: 1, replies: 1, fallbacks: 0 });
  });

  test("the supervisor kills a worker's group from this thread (a shutdown's killAll)", async () => {
    const { supervisor } = offThread();
    supervisor.observe({ added: () => supervisor.killAll("SIGKILL"), removed: () => {} });
    const r = await runProcess({ shell: "sleep 30" }, { cwd: dir.path, env: TEST_ENV, supervisor });
    expect(r.terminationReason).toBe("cancelled");
    expect(groupAlive(r.pid!)).toBe(false);
  });

  test("a stray in a session of its own dies with a stopped command", async () => {
    const { supervisor } = offThread();
    const file = pidFile("stray");
    const shell = `setsid sh -c 'echo $$ > "${file}.tmp" && mv "${file}.tmp" "${file}"; exec sleep 30' & while [ ! -s "${file}" ]; do sleep 0.01; done; sleep 30`;
    const r = await runProcess({ shell }, { cwd: dir.path, env: TEST_ENV, supervisor, wallMs: 400 });
    const [stray] = await readPids(file);
    leftovers.push(stray!);
    expect(r.terminationReason).toBe("wall");
    expect(r.straysKilled).toBe(1);
    expect(await eventually(() => !alive(stray!))).toBe(true);
  });

  test("a start the system refuses is a failed start, said in the worker's words", async () => {
    const { supervisor } = offThread();
    const script = join(dir.path, "no-shebang");
    await Bun.write(script, "echo hi\n");
    Bun.spawnSync(["chmod", "+x", script]);
    const r = await runProcess({ argv: [script] }, { cwd: dir.path, env: TEST_ENV, supervisor });
    expect(r.terminationReason).toBe("spawn_failed");
    expect(r.spawnError).toContain("#! line");
  });
});

describe("what stays on this thread", () => {
  test("a process whose lines are streamed never goes to a worker", async () => {
    const { supervisor, threads } = offThread();
    const lines: string[] = [];
    const r = await runProcess(
      { shell: "echo a; echo b" },
      { cwd: dir.path, env: TEST_ENV, supervisor, onStdoutLine: (l) => lines.push(l) },
    );
    expect(lines).toEqual(["a", "b"]);
    expect(r.exit).toBe(0);
    expect(threads.counts.requests).toBe(0);
  });

  test("the write-ahead barrier runs before the request is posted, once per start turn", async () => {
    const { supervisor, threads } = offThread();
    const postedAtBarrier: number[] = [];
    supervisor.setBarrier(() => postedAtBarrier.push(threads.counts.requests));
    const rs = await Promise.all(
      Array.from({ length: 8 }, () => runProcess({ shell: "true" }, { cwd: dir.path, env: TEST_ENV, supervisor })),
    );
    expect(rs.map((r) => r.exit)).toEqual(Array(8).fill(0));
    // The turn's barrier, then one (empty) barrier right before each of the eight requests.
    expect(postedAtBarrier).toEqual([0, 0, 1, 2, 3, 4, 5, 6, 7]);
    expect(threads.counts).toEqual({ requests: 8, replies: 8, fallbacks: 0 });
  });

  test("a worker that cannot start: the command runs on this thread instead", async () => {
    const { supervisor, threads } = offThread(new SpawnThreads(1, new URL("./no-such-worker.ts", import.meta.url).href));
    const r = await runProcess({ shell: "echo here; exit 4" }, { cwd: dir.path, env: TEST_ENV, supervisor });
    expect(r).toMatchObject({ exit: 4, stdoutTail: "here\n", terminationReason: "exit" });
    expect(threads.counts).toEqual({ requests: 1, replies: 0, fallbacks: 1 });
    expect(threads.usable).toBe(false);
    const again = await runProcess({ shell: "exit 5" }, { cwd: dir.path, env: TEST_ENV, supervisor });
    expect(again.exit).toBe(5);
    expect(threads.counts.requests).toBe(1);
  });
});

test("a worker ended after it started a child whose pid this thread has not read: the child is killed, never started again here", async () => {
  const out = pidFile("ended-worker");
  const host = Bun.spawn([process.execPath, join(import.meta.dirname, "fixtures", "worker-ended-host.ts"), out], { stderr: "inherit" });
  const printed = JSON.parse(await new Response(host.stdout).text());
  expect(await host.exited).toBe(0);
  const pids = await readPids(out);
  leftovers.push(...pids);
  expect(pids).toHaveLength(1); // before: the request fell back, and the command ran twice
  expect(printed).toMatchObject({ reason: "spawn_failed", fallbacks: 0 });
  // Ended before it stored the pid (the child ran first): the pid is unknown, nothing to kill.
  if (printed.pid) {
    expect(printed.pid).toBe(pids[0]);
    expect(await eventually(() => !alive(pids[0]!))).toBe(true);
  }
});
