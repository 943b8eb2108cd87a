// A descendant that moves to a process group of its own (setpgid, not setsid)
// leaves the group vouch signals but stays in the child's session. The common
// case is GNU `timeout`, which does exactly that: a check like
// `timeout 120 npm test` used to survive its own timeout, a wall cap and
// Ctrl-C, and ran on after the run (found by review; ADR 0004 said only a
// setsid could escape). vouch now also kills what is left of the child's
// session when the child was stopped, or when something still holds its pipes.
import { afterAll, afterEach, expect, test } from "vitest";
import { join } from "node:path";
import { runProcess } from "../../src/spawn/process.ts";
import { alive, eventually, killQuietly, readPids, tempDir, TEST_ENV } from "./helpers.ts";

const dir = tempDir();
const leftovers: number[] = [];
afterEach(() => killQuietly(leftovers.splice(0)));
afterAll(() => dir.cleanup());
const opts = { cwd: dir.path, env: TEST_ENV };
const pidFile = (name: string) => join(dir.path, `${name}-${Math.random().toString(36).slice(2)}.pid`);
/** `timeout` puts itself and the command in a new process group of the same session. */
const escaping = (file: string) => `timeout 60 sh -c 'echo $$ > ${file}; exec sleep 30'`;

test("wall cap: a `timeout`-wrapped command holding the pipe dies with the child", async () => {
  const file = pidFile("wall");
  const r = await runProcess({ shell: `${escaping(file)}; :` }, { ...opts, wallMs: 300 });
  const [pid] = await readPids(file);
  leftovers.push(pid!);
  expect(r.terminationReason).toBe("wall");
  expect(await eventually(() => !alive(pid!), 500)).toBe(true);
});

test("wall cap: the same with its output redirected (no pipe held) dies too", async () => {
  const file = pidFile("quiet");
  const r = await runProcess({ shell: `${escaping(file)} >/dev/null 2>&1; :` }, { ...opts, wallMs: 300 });
  const [pid] = await readPids(file);
  leftovers.push(pid!);
  expect(r.terminationReason).toBe("wall");
  expect(await eventually(() => !alive(pid!), 500)).toBe(true);
});

test("cancel: a `timeout`-wrapped command dies with the child", async () => {
  const file = pidFile("cancel");
  const c = new AbortController();
  const running = runProcess({ shell: `${escaping(file)} >/dev/null 2>&1; :` }, { ...opts, signal: c.signal });
  const [pid] = await readPids(file);
  leftovers.push(pid!);
  c.abort();
  expect((await running).terminationReason).toBe("cancelled");
  expect(await eventually(() => !alive(pid!), 500)).toBe(true);
});

test("the leader exits on its own while an escaped background command holds stdout: killed, read ends", async () => {
  const file = pidFile("exit");
  const t0 = performance.now();
  const r = await runProcess({ shell: `${escaping(file)} & while [ ! -s ${file} ]; do sleep 0.01; done; echo hi` }, opts);
  const [pid] = await readPids(file);
  leftovers.push(pid!);
  expect(r.terminationReason).toBe("exit");
  expect(r.stdoutTail).toBe("hi\n");
  expect(performance.now() - t0).toBeLessThan(5000);
  expect(await eventually(() => !alive(pid!), 500)).toBe(true);
});
