// What the starter graph's agent node says for each harness: the settings that
// let it edit files (and, where the harness has a tool list, run the tests), and
// only the caps that harness can keep: a cap it cannot keep is refused before a
// run starts (docs/architecture.md §6), so codex, gemini and the command harness
// get no budget_usd, and the command harness no turns. Each harness's own lines are
// its adapter's `starter` (src/spawn/harness/NAME/adapter.ts), so a new harness
// brings them in its folder; the run-wide caps follow from whether it keeps a budget.
import { UsageError } from "../../engine/errors.ts";
import { didYouMean } from "../../engine/graph/did-you-mean.ts";
import { HARNESS_NAMES } from "../../engine/graph/schema.ts";
import type { HarnessName } from "../../engine/ports.ts";
import { harnessNamed } from "../../spawn/harness/registry.ts";
import type { StarterRow } from "../../spawn/harness/types.ts";

/** One line of YAML (without indentation) and the comment that explains it. */
export type Row = StarterRow;

export interface HarnessSettings {
  harnessComment: string;
  /** tools / permission_mode lines. */
  rows: Row[];
  /** The sitting's caps as a flow mapping, with the comment saying them in words. */
  caps: Row;
  /** The run-wide caps line. */
  runCaps: Row;
}

export function harnessSettings(harness: HarnessName): HarnessSettings {
  const h = harnessNamed(harness);
  const runCaps: Row =
    h.guarantees.caps.budget_usd !== "none"
      ? ["caps: { budget_usd: 5, wall: 45m }", "the whole run stops (an error, never a pass) past $5 or 45 minutes"]
      : ["caps: { wall: 45m }", `the whole run stops (an error, never a pass) past 45 minutes (${harness} reports no cost)`];
  return { harnessComment: h.starter.comment, rows: [...h.starter.rows], caps: h.starter.caps, runCaps };
}

/** --harness NAME: one of the known harnesses, or a usage error with the closest name. */
export function initHarness(value: string | undefined): HarnessName {
  if (value === undefined) return "claude";
  if ((HARNESS_NAMES as readonly string[]).includes(value)) return value as HarnessName;
  throw new UsageError(
    `--harness "${value}" is not a harness${didYouMean(value, HARNESS_NAMES)}; the harnesses: ${HARNESS_NAMES.join(", ")}`,
    "see: vouch harnesses",
  );
}
