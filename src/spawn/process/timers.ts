// The clocks of one process: its wall time and silences (counted from its start,
// not from waiting for its turn), and the wall and idle caps armed on them. A cap
// crossed hands its reason to the termination; the caps are disarmed at the end.
import { MAX_TIMER_MS } from "../../engine/clock.ts";

/** When the process started and when it last printed. */
export class Activity {
  private started = performance.now();
  private last = this.started;
  private longest = 0;

  /** The process starts now: wall time and silences count from here. */
  restart(): void {
    this.started = this.last = performance.now();
  }

  /** Milliseconds since the start. */
  elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  /** Output arrived on either stream. */
  saw(): void {
    const now = performance.now();
    this.longest = Math.max(this.longest, now - this.last);
    this.last = now;
  }

  /** How long nothing was printed, until now. */
  silentFor(): number {
    return performance.now() - this.last;
  }

  /** The longest time with no output, the stretch up to `end` (the leader's exit) included. */
  longestSilence(end: number): number {
    return Math.round(Math.max(this.longest, end - this.last));
  }
}

/** Arms the wall and idle caps; returns what disarms them. */
export function armCaps(
  activity: Activity,
  caps: { wallMs?: number; idleMs?: number },
  crossed: (cap: "wall" | "idle") => void,
): () => void {
  let wallTimer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const wallCap = caps.wallMs;
  if (wallCap !== undefined) {
    // Chained: setTimeout fires at once when given more than MAX_TIMER_MS (~24.8 days).
    const wallStart = performance.now();
    const checkWall = () => {
      const left = wallCap - (performance.now() - wallStart);
      if (left <= 0) crossed("wall");
      else wallTimer = setTimeout(checkWall, Math.min(left, MAX_TIMER_MS));
    };
    wallTimer = setTimeout(checkWall, Math.min(wallCap, MAX_TIMER_MS));
  }
  const idleMs = caps.idleMs;
  if (idleMs !== undefined) {
    // Re-armed from the last output when it fires, not on every chunk.
    const checkIdle = () => {
      const silent = activity.silentFor();
      if (silent >= idleMs) crossed("idle");
      else idleTimer = setTimeout(checkIdle, Math.min(idleMs - silent + 1, MAX_TIMER_MS));
    };
    idleTimer = setTimeout(checkIdle, Math.min(idleMs, MAX_TIMER_MS));
  }
  return () => {
    clearTimeout(wallTimer);
    clearTimeout(idleTimer);
  };
}
