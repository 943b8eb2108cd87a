// --wait-limits and --max-wait, shared by `vouch run` and `vouch resume` (ADR 0022).
import { UsageError } from "../engine/errors.ts";
import { parseDuration } from "../engine/graph/duration.ts";

export const LIMIT_OPTIONS = {
  "wait-limits": { type: "boolean" },
  "max-wait": { type: "string" },
} as const;

/** The run options the flags set; --max-wait without --wait-limits would be silently ignored, so it is refused. */
export function limitFlags(values: { "wait-limits"?: boolean; "max-wait"?: string }): { waitLimits?: true; maxWaitMs?: number } {
  const raw = values["max-wait"];
  const maxWaitMs = raw === undefined ? undefined : parseDuration(raw);
  if (maxWaitMs === null || (maxWaitMs !== undefined && maxWaitMs <= 0)) {
    throw new UsageError(`--max-wait takes a duration greater than zero, like 30m or 5h (not "${raw}")`);
  }
  if (maxWaitMs !== undefined && values["wait-limits"] !== true) {
    throw new UsageError("--max-wait only bounds --wait-limits: give both, or neither", "e.g. vouch run GRAPH --wait-limits --max-wait 5h");
  }
  return { ...(values["wait-limits"] === true ? { waitLimits: true as const } : {}), ...(maxWaitMs !== undefined ? { maxWaitMs } : {}) };
}
