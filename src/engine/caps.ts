// Node caps (defaults merged key by key with the node's) and overrun
// detection: a cap is a threshold noticed after it is crossed (docs/architecture.md §6).
import type { Caps } from "./graph/schema.ts";
import type { SittingCaps } from "./ports.ts";
import type { CapName } from "./events.ts";

export function mergeCaps(defaults: Caps | undefined, node: Caps | undefined): Caps {
  return { ...(defaults ?? {}), ...(node ?? {}) };
}

export function toSittingCaps(caps: Caps): SittingCaps {
  const out: SittingCaps = {};
  if (caps.turns !== undefined) out.turns = caps.turns;
  if (caps.budget_usd !== undefined) out.budgetUsd = caps.budget_usd;
  if (caps.wall !== undefined) out.wallMs = caps.wall;
  if (caps.idle !== undefined) out.idleMs = caps.idle;
  return out;
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
