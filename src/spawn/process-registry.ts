import { readdirSync, readFileSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";

// The ProcessSupervisor: what one owner (a CLI session) has running — every live
// process group started by runProcess and every handover folder not removed yet —
// so that its shutdown (Ctrl-C, SIGTERM, process.exit) kills them all and leaves
// no folder behind: a detached child no longer gets the terminal's Ctrl-C, so
// nobody else would (ADR 0004, "Killing"). No module state: the composition root makes one
// per session and hands it to the runners.

export interface LiveGroup {
  /** Process group id (= the leader's pid). */
  pgid: number;
  /** Starts the graceful stop: SIGTERM, SIGKILL after the grace period; reason "cancelled". */
  cancel(): void;
  /** Resolves when the leader has exited and the group was killed. */
  done: Promise<void>;
}

/** Told of every group as it starts and ends (the CLI keeps a journal of live
 *  groups, so a session killed with -9 can be cleaned up by the next one). */
export interface GroupObserver {
  added(pgid: number): void;
  removed(pgid: number): void;
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
 * Sends a signal to every member of process group `pgid` but its leader (one scan of
 * /proc; Linux). A sealed process's leader is bubblewrap, which a SIGTERM kills along with
 * its whole pid namespace: the members get the SIGTERM and their grace period instead.
 * Never throws; returns how many were signalled.
 */
export function signalGroupBelowLeader(pgid: number, signal: NodeJS.Signals): number {
  return signalWhere((fields) => Number(fields[2]) === pgid, signal, pgid);
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
  return signalWhere((fields) => sids.has(Number(fields[3])), signal);
}

/** Signals every process whose /proc stat fields after "(comm) " (state ppid pgrp session …)
 *  match, vouch itself and `spare` excepted. */
function signalWhere(match: (fields: string[]) => boolean, signal: NodeJS.Signals, spare?: number): number {
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
    if (pid === process.pid || pid === spare) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // Fields after "(comm) ": state ppid pgrp session ...
    if (!match(stat.slice(stat.lastIndexOf(")") + 2).split(" ", 4))) continue;
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

export class ProcessSupervisor {
  private readonly live = new Map<number, LiveGroup>();
  private readonly folders = new Set<string>();
  private observer: GroupObserver | null = null;
  // Last resort, installed only while something is owned: whatever path ends vouch
  // (process.exit after a second Ctrl-C, an uncaught error), no group it started
  // survives it and no handover folder is left in TMPDIR. Synchronous by necessity.
  private readonly onExit = () => {
    this.killAll("SIGKILL");
    for (const d of this.folders) rmSync(d, { recursive: true, force: true });
  };
  private hooked = false;
  private barrier: (() => void) | null = null;
  private turn: Promise<void> | null = null;

  /** What must happen before any process starts: the session commits every queued event
   *  (write-ahead: the ledger knows of every node process that ran, ADR 0009). */
  setBarrier(fn: (() => void) | null): void {
    this.barrier = fn;
  }

  /** Called by runProcess right before it starts a process; a throw (the ledger's) stops the start. */
  beforeStart(): void {
    this.barrier?.();
  }

  /**
   * Resolves at the end of this turn of the event loop, once the barrier has run there for
   * every process asking to start in this turn: their events share one commit instead of one
   * each (ADR 0032). runProcess still calls beforeStart() right before each start, which finds
   * nothing queued unless something was emitted since. Null when there is no barrier (nothing
   * to wait for). Rejects with the barrier's error: then nothing of this turn starts.
   */
  startTurn(): Promise<void> | null {
    if (this.barrier === null) return null;
    this.turn ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        this.turn = null;
        try {
          this.barrier?.();
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
    return this.turn;
  }

  /** Installs (or, with null, removes) the one observer. */
  observe(o: GroupObserver | null): void {
    this.observer = o;
  }

  /** Called by runProcess once the group exists; the returned function unregisters it. */
  register(group: LiveGroup): () => void {
    this.live.set(group.pgid, group);
    this.hook();
    this.observer?.added(group.pgid);
    return () => {
      if (this.live.get(group.pgid) === group) {
        this.live.delete(group.pgid);
        this.observer?.removed(group.pgid);
        this.unhookWhenIdle();
      }
    };
  }

  /** A handover folder just made; the returned function removes it (and forgets it). */
  trackFolder(dir: string): () => Promise<void> {
    this.folders.add(dir);
    this.hook();
    return async () => {
      await rm(dir, { recursive: true, force: true });
      this.folders.delete(dir);
      this.unhookWhenIdle();
    };
  }

  /** Process group ids of the live groups. */
  liveGroups(): number[] {
    return [...this.live.keys()];
  }

  /**
   * Sends `signal` to every live group at once, synchronously (usable in an
   * "exit" handler). Each group's run ends with terminationReason "cancelled".
   * Returns how many groups were signalled.
   */
  killAll(signal: NodeJS.Signals = "SIGKILL"): number {
    let count = 0;
    for (const group of this.live.values()) {
      group.cancel();
      if (signalGroup(group.pgid, signal)) count++;
    }
    // And what left a group for one of its own inside the child's session.
    signalSessions(new Set(this.live.keys()), signal);
    return count;
  }

  /**
   * The graceful shutdown: every live group gets SIGTERM, then SIGKILL after its
   * grace period; resolves when all are reaped, or after `timeoutMs` when
   * whatever is left is SIGKILLed at once.
   */
  async shutdownAll(timeoutMs = 5000): Promise<void> {
    const groups = [...this.live.values()];
    if (groups.length === 0) return;
    for (const group of groups) group.cancel();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all(groups.map((g) => g.done)), deadline]);
    clearTimeout(timer);
    this.killAll("SIGKILL");
  }

  private hook(): void {
    if (this.hooked) return;
    process.on("exit", this.onExit);
    this.hooked = true;
  }

  private unhookWhenIdle(): void {
    if (!this.hooked || this.live.size > 0 || this.folders.size > 0) return;
    process.off("exit", this.onExit);
    this.hooked = false;
  }
}
