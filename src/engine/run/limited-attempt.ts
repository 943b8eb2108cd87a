// An agent attempt cut off by a usage or rate limit (ADR 0022): recorded as
// node.limited (no verdict, no retry spent), then parked — its process slot
// let go — until the driver lifts the limit (--wait-limits) or the run pauses
// or stops.
import type { Sitting } from "../ports.ts";
import type { SlotHold } from "./slot-hold.ts";
import { head } from "./node-env.ts";
import type { NodeEnv } from "./contract.ts";

/** The reset as events carry it: ISO 8601 UTC, or null. */
export function resetIso(resetsAt: number | null | undefined): string | null {
  return resetsAt === null || resetsAt === undefined ? null : new Date(resetsAt).toISOString();
}

export function emitLimited(env: NodeEnv, attempt: number, harness: string, sitting: Sitting): void {
  env.run.emitter.emit({
    type: "node.limited",
    node: env.id,
    ...(env.branch ? { branch: env.branch } : {}),
    attempt,
    harness,
    resets_at: resetIso(sitting.resetsAt),
    error: head(sitting.error ?? `${harness} hit a usage or rate limit`, 500),
    cost_usd: sitting.costUsd,
    turns: sitting.turns,
    tokens: sitting.tokens,
    ...(sitting.sessionId !== undefined ? { session_id: sitting.sessionId } : {}),
    // A resumed run counts the session's next sitting from this total (resume.ts).
    ...(sitting.sessionId !== undefined && sitting.sessionCostUsd !== undefined && sitting.sessionCostUsd !== sitting.costUsd
      ? { session_cost_usd: sitting.sessionCostUsd }
      : {}),
  });
}

/** Lets the slot go, waits for the harness's limit to lift, takes a slot again.
 *  False when the run stopped meanwhile (the caller returns the stopped result). */
export async function parkOnLimit(env: NodeEnv, slot: SlotHold, harness: string): Promise<boolean> {
  slot.give();
  const outcome = await env.run.usageLimits.park({ node: env.id, harness, ...(env.branch ? { branch: env.branch } : {}) }, env.signal);
  if (outcome === "stop") return false;
  return slot.take();
}
