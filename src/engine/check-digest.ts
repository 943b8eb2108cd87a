// A check's history key (ADR 0067): its name, a digest of what it runs and how it is
// judged, and the tree it ran on. Two checks with one name but another command (or
// another expectation) are two histories: editing a flaky check starts it afresh.
import { createHash } from "node:crypto";
import type { Expect } from "./graph/schema.ts";

/** The expectation as check.finished writes it: exit_zero, empty_output, exit 3, output_matches /re/. */
export function expectText(e: Expect): string {
  if (typeof e === "string") return e;
  return "exit" in e ? `exit ${e.exit}` : `output_matches /${e.output_matches}/`;
}

/** "sha256:<64 hex>" of the command and the expectation (timeouts and descriptions are left out:
 *  they do not change what a pass means). */
export function commandDigest(run: string, expect: Expect): string {
  return `sha256:${createHash("sha256")
    .update(JSON.stringify([run, expectText(expect)]))
    .digest("hex")}`;
}

/** The first 12 hex digits, for a table that must tell two commands of one name apart. */
export function shortDigest(digest: string | null): string {
  return digest === null ? "(not recorded)" : digest.replace(/^sha256:/, "").slice(0, 12);
}
