// The journal of live process groups, kept beside a run's lock while a session
// runs (<home>/locks/<run>.groups). vouch kills its groups on every exit it can
// see (ADR 0004), but not on kill -9: then its sittings' groups live on —
// a harness until it next writes to the dead pipe, a grandchild holding the
// pipe for as long as it likes. The next session of the same run reads the
// journal and SIGKILLs what the dead session left.
//
// Lines: "+ PGID START" when a group starts (START: the leader's start time,
// field 22 of /proc/PGID/stat, so a recycled pid is never taken for it) and
// "- PGID" when it ends. A group is killed only if its leader is the same
// process (same start time), or if the leader is gone and members remain (a
// pid cannot be reused while a process group of that id exists).
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { observeGroups, signalGroup } from "./process-registry.ts";

export interface GroupJournal {
  /** Stops journaling and removes the file (every group has ended by then). */
  stop(): void;
}

/** Field 22 (starttime) of /proc/PID/stat, or null when there is no such process. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Journals every group started from now on into `file`. */
export function startGroupJournal(file: string): GroupJournal {
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
  observeGroups({
    added: (pgid) => write(`+ ${pgid} ${processStartTime(pgid) ?? "?"}\n`),
    removed: (pgid) => write(`- ${pgid}\n`),
  });
  return {
    stop() {
      observeGroups(null);
      if (fd !== null) closeSync(fd);
      fd = null;
      rmSync(file, { force: true });
    },
  };
}

/** Groups a journal lists as started and never ended, with the leader's start time. */
export function unendedGroups(text: string): Map<number, string> {
  const open = new Map<number, string>();
  for (const line of text.split("\n")) {
    const [sign, id, start] = line.split(" ");
    const pgid = Number(id);
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (sign === "+") open.set(pgid, start ?? "?");
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
  for (const [pgid, start] of unendedGroups(text)) {
    const now = processStartTime(pgid);
    if (now !== null && now !== start) continue; // that pid is another process now
    if (signalGroup(pgid, "SIGKILL")) killed.push(pgid);
  }
  rmSync(file, { force: true });
  return killed;
}
