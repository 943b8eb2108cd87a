// Durations in graph files are strings with units ("90s", "1h30m", "500ms").
// A bare number is refused: "10" could mean seconds or minutes, and a cap
// misread by 60x is worse than an error at load.

/** The longest a check may run. Here, not in schema.ts, so the CommandRunner in
 *  src/spawn can enforce it without loading zod (test/invariants/layers.test.ts). */
export const CHECK_TIMEOUT_CEILING_MS = 600_000;

const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
export const DURATION_PATTERN = "^(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h))+$";
const WHOLE = new RegExp(DURATION_PATTERN);

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds for a duration string, or null when it is not one. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed)) return null;
  let total = 0;
  for (const match of trimmed.matchAll(PART)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  return Math.round(total);
}

/** A graph-language duration as text ("10m", "1m30s", "250ms"): one home for duration
 *  text, src/text/duration.ts, beside the rounded form readers show measured times in. */
export { exactDuration as formatDuration } from "../../text/duration.ts";
