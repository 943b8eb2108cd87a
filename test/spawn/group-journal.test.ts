// The journal of live process groups (src/spawn/group-journal.ts): what a
// session killed -9 left running is killed by the next session — and never a
// process that merely got a recycled pid.
import { afterEach, expect, test } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processStartTime, reapGroupJournal, startGroupJournal, unendedGroups } from "../../src/spawn/group-journal.ts";
import { ProcessSupervisor } from "../../src/spawn/process-registry.ts";
import { runProcess } from "../../src/spawn/process.ts";
import { alive, eventually, killQuietly, TEST_ENV, tempDir } from "./helpers.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
const pids: number[] = [];
afterEach(() => {
  killQuietly(pids.splice(0));
  for (const d of dirs.splice(0)) d.cleanup();
});

/** A `sleep` leading its own process group, as runProcess starts children. */
function groupLeader(): number {
  const p = Bun.spawn(["sleep", "30"], { detached: true, stdio: ["ignore", "ignore", "ignore"] });
  pids.push(p.pid);
  return p.pid;
}

test("unendedGroups: started and never ended, last word wins", () => {
  expect([...unendedGroups("+ 100 5\n+ 200 6\n- 100\n+ 300 7\ngarbage\n+ 1 1\n- 999\n+ 400 ?\n")]).toEqual([
    [200, 6],
    [300, 7],
  ]);
});

test("a session journals each group it starts, with a time within a tick or two of the leader's start time, and its end; stop() removes the file", async () => {
  const d = tempDir();
  dirs.push(d);
  const file = join(d.path, "r.groups");
  const supervisor = new ProcessSupervisor();
  const journal = startGroupJournal(file, supervisor);
  const running = runProcess({ shell: "sleep 0.3" }, { cwd: d.path, env: TEST_ENV, supervisor });
  expect(await eventually(() => /^\+ \d+ \d+\n$/.test(readFileSync(file, "utf8")))).toBe(true);
  const [, pid, t] = readFileSync(file, "utf8").trim().split(" ").map(Number);
  const start = processStartTime(pid!);
  const r = await running;
  expect(r.pid).toBe(pid);
  console.log(`[journal] leader start ${start} ticks since boot, journal says ${t}`);
  expect(Math.abs(start! - t!)).toBeLessThanOrEqual(5);
  expect(readFileSync(file, "utf8")).toBe(`+ ${pid} ${t}\n- ${pid}\n`);
  journal.stop();
  expect(() => readFileSync(file)).toThrow();
});

test("reap kills a group left open whose leader is the same process, and removes the journal", async () => {
  const d = tempDir();
  dirs.push(d);
  const pid = groupLeader();
  const file = join(d.path, "r.groups");
  writeFileSync(file, `+ ${pid} ${processStartTime(pid)}\n`);
  expect(reapGroupJournal(file)).toEqual([pid]);
  expect(await eventually(() => !alive(pid))).toBe(true);
  expect(reapGroupJournal(file)).toEqual([]); // the file is gone
});

test("reap spares a live process whose start time differs (a recycled pid) and groups that ended", async () => {
  const d = tempDir();
  dirs.push(d);
  const other = groupLeader();
  const ended = groupLeader();
  const victim = groupLeader();
  const file = join(d.path, "r.groups");
  // `other` started long after the journal's time for it: another process has that pid now.
  // `victim` is journalled truly: it is reaped, and once it is seen dead the
  // signals of the same reap have been delivered (no guessed sleep).
  writeFileSync(
    file,
    `+ ${other} ${processStartTime(other)! - 500}\n+ ${ended} ${processStartTime(ended)}\n- ${ended}\n+ ${victim} ${processStartTime(victim)}\n`,
  );
  expect(reapGroupJournal(file)).toEqual([victim]);
  expect(await eventually(() => !alive(victim))).toBe(true);
  expect(alive(other)).toBe(true);
  expect(alive(ended)).toBe(true);
});
