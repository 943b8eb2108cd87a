// Small helpers shared by the adapters' command builders.
import type { AgentAssignment } from "../../../engine/ports.ts";
import type { Guarantees, HarnessCommand } from "../types.ts";

/** A number as a flag value: plain decimal, never exponent form ("1e-7"). */
export function flagNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(12).replace(/0+$/, "").replace(/\.$/, "");
}

/** The wall and idle limits an adapter asks the spawn seam to enforce: the
 *  caps it declares `supervised`, and only those. */
export function supervision(guarantees: Guarantees, a: AgentAssignment): Pick<HarnessCommand, "wallMs" | "idleMs"> {
  const out: Pick<HarnessCommand, "wallMs" | "idleMs"> = {};
  if (guarantees.caps.wall === "supervised" && a.caps.wallMs !== undefined) out.wallMs = a.caps.wallMs;
  if (guarantees.caps.idle === "supervised" && a.caps.idleMs !== undefined) out.idleMs = a.caps.idleMs;
  return out;
}

/** The budget a harness that keeps one natively is given: the smaller of the
 *  node's budget_usd and what is left of the run budget (ADR 0012), so a run
 *  cap reaches a node that has none of its own. Never below zero. */
export function budgetToKeep(a: Pick<AgentAssignment, "caps" | "runBudgetLeftUsd">): number | undefined {
  const left = a.runBudgetLeftUsd === undefined ? undefined : Math.max(0, a.runBudgetLeftUsd);
  if (a.caps.budgetUsd === undefined) return left;
  return left === undefined ? a.caps.budgetUsd : Math.min(a.caps.budgetUsd, left);
}
