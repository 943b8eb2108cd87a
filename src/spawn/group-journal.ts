// The journal of live process groups, kept beside a run's lock while a session
// runs (<home>/locks/<run>.groups). vouch kills its groups on every exit it can
// see (ADR 0004), but not on kill -9: then its sittings' groups live on —
// a harness until it next writes to the dead pipe, a grandchild holding the
// pipe for as long as it likes. The next session of the same run reads the
// journal and SIGKILLs what the dead session left.
//
// Lines: "+ PGID T" when a group starts, T = the time since boot in clock ticks
// (1/100 s, the unit of /proc/PID/stat's start time) as vouch saw it right after
// the spawn; "- PGID" when it ends. Reading the child's own start time at spawn
// would block until its exec is done (~1 ms each, measured: it doubled the main
// thread's cost of a spawn), so the reaper compares instead: the leader is ours
// if its start time is within 1 s of T. A recycled pid would need the whole pid
// space to wrap within that second. A group whose leader is gone is killed if
// members remain (a pid is not reused while a process group of that id exists).
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { signalGroup, signalSessions, type ProcessSupervisor } from "./process-registry.ts";

/** Start times within this many clock ticks of the journal's T are the same process. */
const SAME_PROCESS_TICKS = 100;

export interface GroupJournal {
  /** Stops journaling and removes the file (every group has ended by then). */
  stop(): void;
}

/** Field 22 (starttime, clock ticks since boot) of /proc/PID/stat, or null when there is no such process. */
export function processStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const start = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null;
  }
}

/** A clock in ticks since boot: /proc/uptime once, then the monotonic clock. */
function bootClock(): () => number {
  let uptimeMs = 0;
  try {
    uptimeMs = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
  } catch {
    // Not Linux: no /proc, nothing to compare with either.
  }
  const at = performance.now();
  return () => Math.round((uptimeMs + performance.now() - at) / 10);
}

/** Journals every group the supervisor starts from now on into `file`. */
export function startGroupJournal(file: string, supervisor: ProcessSupervisor): GroupJournal {
  let fd: number | null = null;
  try {
    fd = openSync(file, "w", 0o600);
  } catch {
    // No journal (an unwritable or full disk): only the clean-up after a kill -9 is lost.
  }
  const write = (line: string) => {
    if (fd === null) return;
    try {
      writeSync(fd, line);
    } catch {
      // A journal that cannot be written only loses the clean-up after a kill -9.
    }
  };
  const ticks = bootClock();
  supervisor.observe({
    added: (pgid) => write(`+ ${pgid} ${ticks()}\n`),
    removed: (pgid) => write(`- ${pgid}\n`),
  });
  return {
    stop() {
      supervisor.observe(null);
      if (fd !== null) closeSync(fd);
      fd = null;
      rmSync(file, { force: true });
    },
  };
}

/** Groups a journal lists as started and never ended, with T (ticks since boot at the start). */
export function unendedGroups(text: string): Map<number, number> {
  const open = new Map<number, number>();
  for (const line of text.split("\n")) {
    const [sign, id, start] = line.split(" ");
    const pgid = Number(id);
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (sign === "+" && Number.isFinite(Number(start))) open.set(pgid, Number(start));
    else if (sign === "-") open.delete(pgid);
  }
  return open;
}

/** SIGKILLs the groups a dead session's journal left open; returns their ids.
 *  Call only while holding the run's lock (the session that wrote it is dead). */
export function reapGroupJournal(file: string): number[] {
  if (!existsSync(file)) return [];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const killed: number[] = [];
  const ours = new Set<number>();
  for (const [pgid, start] of unendedGroups(text)) {
    const now = processStartTime(pgid);
    if (now !== null && Math.abs(now - start) > SAME_PROCESS_TICKS) continue; // that pid is another process now
    ours.add(pgid);
    if (signalGroup(pgid, "SIGKILL")) killed.push(pgid);
  }
  // What left those groups for its own (setpgid) is still in their sessions (sid = pgid).
  signalSessions(ours, "SIGKILL");
  rmSync(file, { force: true });
  return killed;
}
