// Every live process group started by runProcess, so that vouch's own
// shutdown (Ctrl-C, SIGTERM, process.exit) kills them all: a detached child
// no longer gets the terminal's Ctrl-C, so nobody else would (TOOLCHAIN.md).

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
