// Stopping a child's whole process group (ADR 0004, "Killing"): the first cause
// wins — a cap, a cancel, the session's shutdown — and the group gets SIGTERM,
// then SIGKILL after the grace period. Once the leader has exited, the group is
// SIGKILLed anyway, so a grandchild holding a pipe can neither hang the read nor
// outlive the run. Every live group is registered with the session's
// ProcessSupervisor, which kills what is left if vouch itself ends.
import type { TerminationReason } from "../../engine/ports.ts";
import { ProcessSupervisor, signalGroup, signalGroupBelowLeader } from "../process-registry.ts";

/** Time between SIGTERM and SIGKILL to the group. */
export const DEFAULT_GRACE_MS = 2000;

export class GroupTermination {
  /** Why vouch stopped the group; null while nothing did (the leader's own exit counts only then). */
  reason: TerminationReason | null = null;
  private leaderGone = false;
  private killTimer: ReturnType<typeof setTimeout> | undefined;

  /** @param sealed the leader is bubblewrap (ADR 0040): it dies of a SIGTERM and takes its pid
   *  namespace with it at once, so the SIGTERM goes to the rest of the group, which then has its
   *  grace period; the SIGKILL after it goes to the whole group, bubblewrap included. */
  constructor(
    private readonly pgid: number,
    private readonly graceMs: number,
    private readonly sealed = false,
  ) {}

  /** The first cause wins; after the leader exited there is nothing left to stop gracefully. */
  request(why: TerminationReason): void {
    if (this.reason !== null || this.leaderGone) return;
    this.reason = why;
    if (this.sealed) signalGroupBelowLeader(this.pgid, "SIGTERM");
    else signalGroup(this.pgid, "SIGTERM");
    this.killTimer = setTimeout(() => signalGroup(this.pgid, "SIGKILL"), this.graceMs);
  }

  /** The leader exited: no grace is left to wait out, and whatever is left of the group dies now. */
  leaderExited(): void {
    this.leaderGone = true;
    clearTimeout(this.killTimer);
    // Always: grandchildren that kept the pipes open die with their group.
    signalGroup(this.pgid, "SIGKILL");
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
