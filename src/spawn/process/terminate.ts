// Stopping a child's whole process group (ADR 0004, "Killing"): the first cause
// wins — a cap, a cancel, the session's shutdown — and the group gets SIGTERM,
// then SIGKILL after the grace period. Once the leader has exited, the group is
// SIGKILLed anyway, so a grandchild holding a pipe can neither hang the read nor
// outlive the run. Every live group is registered with the session's
// ProcessSupervisor, which kills what is left if vouch itself ends.
import type { TerminationReason } from "../../engine/ports.ts";
import { ProcessSupervisor, signalGroup, signalGroupBelowLeader } from "../process-registry.ts";
import { findStrays, mergeStrays, signalStrays, type Strays } from "./strays.ts";

/** Time between SIGTERM and SIGKILL to the group. */
export const DEFAULT_GRACE_MS = 2000;

export class GroupTermination {
  /** Why vouch stopped the group; null while nothing did (the leader's own exit counts only then). */
  reason: TerminationReason | null = null;
  /** Processes outside the group that were killed with it (strays.ts). */
  private readonly killed = new Set<number>();
  private leaderGone = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;
  private strays: Strays = { pids: new Set(), sessions: new Set() };

  /** @param sealed the leader is bubblewrap (ADR 0040): it dies of a SIGTERM and takes its pid
   *  namespace with it at once, so the SIGTERM goes to the rest of the group, which then has its
   *  grace period; the SIGKILL after it goes to the whole group, bubblewrap included.
   *  @param marker the child's VOUCH_SITTING value: its processes are found wherever they went (strays.ts)
   *  @param gentle the child stops its own children (ProcessOptions.stopsItsChildren): no SIGTERM to
   *  its strays, which would race its own stop of them; they get the SIGKILL if they outlive it */
  constructor(
    private readonly pgid: number,
    private readonly graceMs: number,
    private readonly sealed = false,
    private readonly marker?: string,
    private readonly gentle = false,
  ) {}

  /** The first cause wins; after the leader exited there is nothing left to stop gracefully. */
  request(why: TerminationReason): void {
    if (this.reason !== null || this.leaderGone) return;
    this.reason = why;
    // Before the kill, while the parent chain still leads to the child: its detached descendants.
    this.strays = findStrays(this.pgid, this.marker);
    if (this.sealed) signalGroupBelowLeader(this.pgid, "SIGTERM");
    else signalGroup(this.pgid, "SIGTERM");
    if (!this.gentle) signalStrays(this.strays, "SIGTERM").forEach((p) => this.killed.add(p));
    this.killTimer = setTimeout(() => {
      signalGroup(this.pgid, "SIGKILL");
      this.killStrays();
    }, this.graceMs);
  }

  /** The leader exited: no grace is left to wait out, and whatever is left of the group dies now. */
  leaderExited(): void {
    this.leaderGone = true;
    clearTimeout(this.killTimer);
    // Always: grandchildren that kept the pipes open die with their group.
    signalGroup(this.pgid, "SIGKILL");
    // A stopped child's strays, and a marked child's whatever its end: none outlives the sitting.
    if (this.reason !== null || this.marker !== undefined) this.killStrays();
  }

  private killStrays(): void {
    // Found again: a process started since the snapshot still carries the marker.
    const all = mergeStrays(this.strays, findStrays(this.pgid, this.marker));
    signalStrays(all, "SIGKILL").forEach((p) => this.killed.add(p));
  }

  /** How many processes outside the group were signalled to end with it. */
  get straysKilled(): number {
    return this.killed.size;
  }
}

/** Registers the live group with its owner (the session's supervisor, else one of its own, which
 *  still kills it if vouch exits first); `release` unregisters it once it is reaped. */
export function registerGroup(supervisor: ProcessSupervisor | undefined, pgid: number, cancel: () => void): { release(): void } {
  let markDone!: () => void;
  const done = new Promise<void>((resolve) => (markDone = resolve));
  const unregister = (supervisor ?? new ProcessSupervisor()).register({ pgid, cancel, done });
  return {
    release: () => {
      unregister();
      markDone();
    },
  };
}
