import { readdirSync, readFileSync } from "node:fs";

// Every live process group started by runProcess, so that vouch's own
// shutdown (Ctrl-C, SIGTERM, process.exit) kills them all: a detached child
// no longer gets the terminal's Ctrl-C, so nobody else would (ADR 0004, "Killing").

export interface LiveGroup {
  /** Process group id (= the leader's pid). */
  pgid: number;
  /** Starts the graceful stop: SIGTERM, SIGKILL after the grace period; reason "cancelled". */
  cancel(): void;
  /** Resolves when the leader has exited and the group was killed. */
  done: Promise<void>;
}

const live = new Map<number, LiveGroup>();
let exitHookInstalled = false;

/** Told of every group as it starts and ends (the CLI keeps a journal of live
 *  groups, so a session killed with -9 can be cleaned up by the next one). */
export interface GroupObserver {
  added(pgid: number): void;
  removed(pgid: number): void;
}
let observer: GroupObserver | null = null;

/** Installs (or, with null, removes) the one observer. */
export function observeGroups(o: GroupObserver | null): void {
  observer = o;
}

/** Sends a signal to a whole process group; false when no such group is left.
 *  Never throws: it runs from timers and exit hooks, where a throw would kill vouch. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone. EPERM would mean the id now belongs to someone else's group.
    return false;
  }
}

/**
 * Sends a signal to every process left in the given sessions (a child started
 * detached leads a new session: sid = pgid = its pid). A descendant that moved
 * to a process group of its own with setpgid — GNU `timeout` does, and so does
 * a shell's job control — is out of reach of signalGroup but still in the
 * session. One scan of /proc (Linux; elsewhere nothing is found). Never throws.
 * Returns how many processes were signalled.
 */
export function signalSessions(sids: ReadonlySet<number>, signal: NodeJS.Signals): number {
  if (sids.size === 0) return 0;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return 0;
  }
  let count = 0;
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // Fields after "(comm) ": state ppid pgrp session ...
    const sid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ", 4)[3]);
    if (!sids.has(sid)) continue;
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/** Called by runProcess once the group exists; the returned function unregisters it. */
export function registerGroup(group: LiveGroup): () => void {
  if (!exitHookInstalled) {
    // Last resort: whatever path ends vouch (process.exit after a second Ctrl-C,
    // an uncaught error), no group it started survives it. Synchronous by necessity.
    process.once("exit", () => killAllGroups("SIGKILL"));
    exitHookInstalled = true;
  }
  live.set(group.pgid, group);
  observer?.added(group.pgid);
  return () => {
    if (live.get(group.pgid) === group) {
      live.delete(group.pgid);
      observer?.removed(group.pgid);
    }
  };
}

/** Process group ids of the live groups. */
export function liveGroups(): number[] {
  return [...live.keys()];
}

/**
 * Sends `signal` to every live group at once, synchronously (usable in an
 * "exit" handler). Each group's run ends with terminationReason "cancelled".
 * Returns how many groups were signalled.
 */
export function killAllGroups(signal: NodeJS.Signals = "SIGKILL"): number {
  let count = 0;
  for (const group of live.values()) {
    group.cancel();
    if (signalGroup(group.pgid, signal)) count++;
  }
  // And what left a group for one of its own inside the child's session.
  signalSessions(new Set(live.keys()), signal);
  return count;
}

/**
 * The graceful engine shutdown: every live group gets SIGTERM, then SIGKILL
 * after its grace period; resolves when all are reaped, or after `timeoutMs`
 * when whatever is left is SIGKILLed at once.
 */
export async function shutdownAllGroups(timeoutMs = 5000): Promise<void> {
  const groups = [...live.values()];
  if (groups.length === 0) return;
  for (const group of groups) group.cancel();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.all(groups.map((g) => g.done)), deadline]);
  clearTimeout(timer);
  killAllGroups("SIGKILL");
}
