// The process slot an agent or script node holds from its first attempt to its
// last check (docs/architecture.md §4 step 7), let go while the attempt is
// parked on a usage limit (ADR 0022) and taken again after.
import { AbortedWhileWaiting } from "../scheduler/slots.ts";
import type { NodeEnv } from "./contract.ts";

/** The node's process slot: held from the first attempt to the last check, let go while parked on a limit. */
export class SlotHold {
  private release: (() => void) | null = null;
  constructor(private readonly env: NodeEnv) {}

  /** False when the run stopped before a slot was free. */
  async take(): Promise<boolean> {
    try {
      this.release = await this.env.frame.acquire(this.env.signal);
    } catch (e) {
      if (e instanceof AbortedWhileWaiting) return false;
      throw e;
    }
    if (!this.env.signal.aborted) return true;
    this.give();
    return false;
  }

  give(): void {
    this.release?.();
    this.release = null;
  }
}
