// Node caps (defaults merged key by key with the node's), the wall and idle caps
// every agent sitting gets unless it says otherwise, and overrun detection: a cap
// is a threshold noticed after it is crossed (docs/architecture.md §6).
import type { Caps } from "./graph/schema.ts";
import type { SittingCaps } from "./ports.ts";
import type { CapName } from "./events.ts";

/**
 * The wall and idle caps of an agent sitting that names none (ADR 0050). Without
 * them a CLI that never ends — codex against an unreachable endpoint prints
 * "Reconnecting…" for ever — held its node, and the run, for ever. An hour of
 * work and a quarter of an hour without progress are generous for one sitting
 * (an agent's own test run can be silent for minutes); `wall: none` / `idle: none`
 * removes one, a duration replaces it.
 */
export const DEFAULT_SITTING_CAPS = { wallMs: 60 * 60_000, idleMs: 15 * 60_000 } as const;

export function mergeCaps(defaults: Caps | undefined, node: Caps | undefined): Caps {
  return { ...(defaults ?? {}), ...(node ?? {}) };
}

/** An agent sitting's caps: what the graph set, the default wall and idle caps where it
 *  set none (DEFAULT_SITTING_CAPS), nothing where it said `none`. */
export function toSittingCaps(caps: Caps): SittingCaps {
  const out: SittingCaps = {};
  if (caps.turns !== undefined) out.turns = caps.turns;
  if (caps.budget_usd !== undefined) out.budgetUsd = caps.budget_usd;
  const wall = caps.wall ?? DEFAULT_SITTING_CAPS.wallMs;
  const idle = caps.idle ?? DEFAULT_SITTING_CAPS.idleMs;
  if (wall !== "none") out.wallMs = wall;
  if (idle !== "none") out.idleMs = idle;
  return out;
}

/** The caps of `caps` that come from DEFAULT_SITTING_CAPS (`--dry-run` says so). */
export function defaultedCaps(caps: Caps): ("wall" | "idle")[] {
  return (["wall", "idle"] as const).filter((c) => caps[c] === undefined);
}

/** What a sitting used; null or absent = unknown (an unknown is never an overrun).
 *  Units: turns, USD, milliseconds (as in SittingCaps). */
export interface CapReading {
  turns?: number | null;
  costUsd?: number | null;
  wallMs?: number | null;
  idleMs?: number | null;
}

export interface Overrun {
  cap: CapName;
  limit: number;
  actual: number;
}

/** Every cap whose actual is strictly above its limit, in the order turns, budget_usd, wall, idle. */
export function overruns(caps: SittingCaps, r: CapReading): Overrun[] {
  const out: Overrun[] = [];
  const test = (cap: CapName, limit: number | undefined, actual: number | null | undefined) => {
    if (limit !== undefined && actual !== undefined && actual !== null && actual > limit) out.push({ cap, limit, actual });
  };
  test("turns", caps.turns, r.turns);
  test("budget_usd", caps.budgetUsd, r.costUsd);
  test("wall", caps.wallMs, r.wallMs);
  test("idle", caps.idleMs, r.idleMs);
  return out;
}

/** Reports each cap at most once (per attempt: make a new one per attempt). */
export class OverrunOnce {
  private readonly seen = new Set<CapName>();
  fresh(list: Overrun[]): Overrun[] {
    const out = list.filter((o) => !this.seen.has(o.cap));
    out.forEach((o) => this.seen.add(o.cap));
    return out;
  }
}
