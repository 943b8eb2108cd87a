// `--wait DURATION` of the commands that ask a live run something and wait for its
// answer (cancel, approve, reject): a duration with a unit, or 0 for not waiting.
import { parseDuration } from "../engine/graph/duration.ts";
import { UsageError } from "../engine/errors.ts";

export function waitFlag(value: string | undefined, defaultMs: number): number {
  if (value === undefined) return defaultMs;
  if (value === "0") return 0;
  const ms = parseDuration(value);
  if (ms === null || ms < 0) throw new UsageError(`--wait takes a duration with a unit, like 30s or 5m, or 0 to not wait (not "${value}")`);
  return ms;
}
