// How every reader tells a check's record apart (ADR 0043, 0044): a witness's
// run on the base (tree: base) must fail there, so its failure is the expected
// outcome and its pass is what went wrong (the check was vacuous). The records
// keep the check's own words; readers say which run a row is.
import type { CheckRecord } from "./views.ts";

/** What a reader shows as gone wrong: a check that did not pass — but a base run that passed. */
export function checkWentWrong(c: Pick<CheckRecord, "passed" | "tree">): boolean {
  return c.tree === "base" ? c.passed : !c.passed;
}

/** The check's name as a row says it: "tests", "tests (on the base)" for a witness's base run,
 *  "tests (rerun 2)" for a rerun after a failure on the same tree (ADR 0066). */
export function checkLabel(c: Pick<CheckRecord, "name" | "tree"> & { rerun?: number | undefined }): string {
  const base = c.tree === "base" ? `${c.name} (on the base)` : c.name;
  return c.rerun === undefined ? base : `${base} (rerun ${c.rerun})`;
}
