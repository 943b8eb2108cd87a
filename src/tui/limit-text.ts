// The live countdown of a --wait-limits wait, for the TUI and the plain lines
// (the phrase itself: src/engine/limit-phrase.ts).
import { duration } from "../text/duration.ts";
import { line, seg, type Line } from "./lines.ts";
import { resetClock } from "../engine/limit-phrase.ts";

import { limitPhrase } from "../engine/limit-phrase.ts";

export { limitPhrase };

/** "waiting for the claude usage limit, resets 15:00 UTC · 5h 55m left" (the live countdown). */
export function waitingPhrase(harness: string, resetsAt: string | null, until: string, now: number): string {
  const left = Math.max(0, Date.parse(until) - now);
  const when = resetsAt ? `resets ${resetClock(resetsAt, now)}` : `reset time unknown, trying again ${resetClock(until, now)}`;
  return `waiting for the ${harness} usage limit, ${when} · ${Number.isNaN(left) ? "?" : duration(left)} left`;
}

/** "⏸ paused: claude usage limit, resets 15:00 UTC" and, `indent` in, how to go on. */
export function limitPausedLines(harness: string, resetsAt: string | null | undefined, run: string, now: number, indent: string): Line[] {
  return [
    line([seg(`⏸ paused: ${limitPhrase(harness, resetsAt, now)}`, "warn", true)]),
    line([seg(`${indent}vouch resume ${run}`), seg("  (add --wait-limits to wait for the reset)", "muted")]),
  ];
}
