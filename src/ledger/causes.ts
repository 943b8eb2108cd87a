// Which node status a cause belongs to (the grouping of CAUSES in src/engine/events.ts).
import type { Cause, NodeStatus } from "../engine/events.ts";

const FAILED: ReadonlySet<Cause> = new Set<Cause>([
  "nonzero_exit",
  "output_invalid",
  "result_mismatch",
  "check_failed",
  "rejected",
  "end_failure",
  "map_failed",
  "tampered",
  "merge_conflict",
  "nothing_to_merge",
  "vacuous_check",
]);
const SKIPPED: ReadonlySet<Cause> = new Set<Cause>(["not_chosen", "condition_false", "upstream_not_passed", "fallback_unused"]);

/** failed when the evidence said no; error when no verdict was reached (ERROR is never FAIL). */
export function statusOfCause(cause: Cause): NodeStatus {
  if (FAILED.has(cause)) return "failed";
  if (SKIPPED.has(cause)) return "skipped";
  if (cause === "cancelled") return "cancelled";
  return "error";
}
