// A cap's value and an overrun as every reader says them (the TUI, the plain lines,
// `vouch show`): the limit is a graph-language value, so durations are exact.
import type { CapName } from "../engine/events.ts";
import { exactDuration } from "../text/duration.ts";
import { usd } from "../text/money.ts";

/** A cap value in its unit: turns as a count, budget in dollars, wall and idle (milliseconds) as durations. */
export function capValue(cap: CapName, value: number): string {
  if (cap === "budget_usd") return usd(value);
  if (cap === "turns") return String(value);
  return exactDuration(value);
}

/** "turns 2/1", "budget_usd $0.0047/$0.001", "wall 12s/10s": actual over limit. */
export function overrunText(o: { cap: CapName; limit: number; actual: number }): string {
  return `${o.cap} ${capValue(o.cap, o.actual)}/${capValue(o.cap, o.limit)}`;
}
