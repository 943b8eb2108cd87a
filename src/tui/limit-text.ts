// The live countdown of a --wait-limits wait, for the TUI and the plain lines
// (the phrase itself: src/engine/limit-phrase.ts).
import { formatMs } from "./format.ts";
import { resetClock } from "../engine/limit-phrase.ts";

export { limitPhrase } from "../engine/limit-phrase.ts";

/** "waiting for the claude usage limit, resets 15:00 UTC · 5h 55m left" (the live countdown). */
export function waitingPhrase(harness: string, resetsAt: string | null, until: string, now: number): string {
  const left = Math.max(0, Date.parse(until) - now);
  const when = resetsAt ? `resets ${resetClock(resetsAt, now)}` : `reset time unknown, trying again ${resetClock(until, now)}`;
  return `waiting for the ${harness} usage limit, ${when} · ${Number.isNaN(left) ? "?" : formatMs(left)} left`;
}
