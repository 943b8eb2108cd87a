// Shared by the spawn tests: stub paths, pid files, and "is this process alive" by pid.
import type { CommandContext } from "../../src/engine/ports.ts";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const STUBS = join(import.meta.dirname, "..", "stubs");
export const stub = (name: string) => join(STUBS, name);

/** A minimal child environment for tests that do not test the environment. */
export const TEST_ENV: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin" };

export function tempDir(prefix = "vouch-spawn-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** True while the process exists and is not a zombie (a dead child nobody reaped yet). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return existsSync(`/proc/${pid}`);
  }
}

/** True while any non-zombie process is in the process group. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
  // The group exists; it only counts if a member is not a zombie.
  return membersOf(pgid).some(alive);
}

function membersOf(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The pids a stub wrote to its pid file, waiting for the file to appear. */
export async function readPids(file: string, timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8").trim();
      if (text) return text.split(/\s+/).map(Number);
    }
    await Bun.sleep(10);
  }
  throw new Error(`no pid file at ${file} after ${timeoutMs} ms`);
}

/** Waits until `check` holds, up to timeoutMs; returns whether it did. */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

/** Kills leftovers after a failed test so one failure does not leak processes into the next. */
export function killQuietly(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Host processes whose command line holds `marker`, zombies left out: a sealed process's own
 *  pids are its namespace's, so tests find its leftovers by what they run, not by a pid file. */
export function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z")
        out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** bubblewrap is on PATH (CI installs it, .ci/run): the sealed tests skip, saying so, without it. */
export const HAVE_BWRAP = Bun.which("bwrap") !== null;

/** A command's context for the spawn tests: run `run-1`, node `n`, attempt 1 in `cwd`, nothing passed
 *  or handed in, an empty state and a live signal; `over` sets the rest. */
export function commandContext(cwd: string, over: Partial<CommandContext> = {}): CommandContext {
  return {
    runId: "run-1",
    node: "n",
    attempt: 1,
    cwd,
    passEnv: [],
    vars: {},
    inputs: [],
    state: { inputs: {}, nodes: {} },
    signal: new AbortController().signal,
    ...over,
  };
}
