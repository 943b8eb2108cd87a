// A pass's qualifier as every reader says it (ADR 0002, 0044): "verified",
// "self-reported", "exit-only", "approved" — and "verified (fail→pass)" when a
// witnessed check failed on the base before it passed on the result.
import type { Qualifier } from "../engine/events.ts";

export interface QualifierFacts {
  qualifier: Qualifier | null;
  witnessed?: readonly string[];
}

/** The qualifier's words, or null when there is none. */
export function qualifierText(n: QualifierFacts): string | null {
  if (n.qualifier === null) return null;
  return n.witnessed !== undefined && n.witnessed.length > 0 ? `${n.qualifier} (fail→pass)` : n.qualifier;
}
