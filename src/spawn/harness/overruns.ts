// Caps are thresholds noticed after they are crossed (docs/architecture.md §6).
// Which caps a finished sitting overran is the engine's decision (`overruns` in
// src/engine/caps.ts); this is the spawn side's: whether the engine's own
// backstop must kill a live sitting whose streamed turns or cost went past a cap.
import type { Overrun } from "../../engine/caps.ts";
import type { SittingCaps, SittingProgress } from "../../engine/ports.ts";
import type { Guarantees } from "./types.ts";

/** How far past a natively kept cap the stream may go before the engine kills
 *  the sitting: the harness's own cap gets the first chance to stop it cleanly
 *  (with a proper result); the backstop catches a harness that does not. */
export interface BackstopMargins {
  /** Extra turns allowed past a native turns cap. */
  turnsMargin: number;
  /** Extra cost allowed past a native budget, as a fraction of it (0.25 = 25 %). */
  costMarginRatio: number;
}

export const DEFAULT_BACKSTOP: BackstopMargins = { turnsMargin: 2, costMarginRatio: 0.25 };

export interface BackstopBreach extends Overrun {
  cap: "turns" | "budget_usd";
  /** The value the actual passed: limit plus margin (native) or the limit itself (supervised). */
  threshold: number;
}

/** Whether the live progress calls for a kill. A `supervised` cap is the
 *  engine's to keep, so it has no margin; a `native` cap gets the margins, or
 *  no backstop at all when margins is null; `observed` and `none` never kill. */
export function backstopBreach(
  caps: SittingCaps,
  progress: SittingProgress,
  guarantees: Guarantees,
  margins: BackstopMargins | null,
): BackstopBreach | null {
  const turnsLimit = caps.turns;
  if (turnsLimit !== undefined && progress.turns !== undefined) {
    const threshold = thresholdFor(guarantees.caps.turns, turnsLimit, margins ? turnsLimit + margins.turnsMargin : null);
    if (threshold !== null && progress.turns > threshold) {
      return { cap: "turns", limit: turnsLimit, actual: progress.turns, threshold };
    }
  }
  const budget = caps.budgetUsd;
  if (budget !== undefined && progress.costUsd !== undefined) {
    const threshold = thresholdFor(guarantees.caps.budget_usd, budget, margins ? budget * (1 + margins.costMarginRatio) : null);
    if (threshold !== null && progress.costUsd > threshold) {
      return { cap: "budget_usd", limit: budget, actual: progress.costUsd, threshold };
    }
  }
  return null;
}

function thresholdFor(guarantee: Guarantees["caps"]["turns"], limit: number, nativeThreshold: number | null): number | null {
  if (guarantee === "supervised") return limit;
  if (guarantee === "native") return nativeThreshold;
  return null;
}
