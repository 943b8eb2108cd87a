// What `vouch init` tells the user, as lines: what it found and skipped, what it
// wrote, each check's first run, and what to do next. Pure: the command prints
// these (every piece from the project is cleaned first: a script body or a
// check's output may hold escape sequences).
import { formatDuration } from "../../engine/graph/duration.ts";
import { sanitizeInline } from "../../text/sanitize.ts";
import type { Finding } from "./detected.ts";
import type { NamedCheck } from "./names.ts";
import type { Verdict } from "./run-once.ts";

const clean = (s: string) => sanitizeInline(s);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function foundLines(finding: Finding): string[] {
  const lines = finding.found.length > 0 ? ["found:", ...finding.found.map((f) => `  ${clean(f)}`)] : ["found: no test command"];
  if (finding.notes.length > 0) lines.push("skipped:", ...finding.notes.map((n) => `  ${clean(n)}`));
  return lines;
}

const firstLine = (run: string) => run.split("\n").find((l) => l.trim() !== "" && l.trim() !== "set -e") ?? run;

function width(checks: readonly NamedCheck[]): number {
  return Math.max(...checks.map((c) => c.name.length));
}

export function startLine(c: NamedCheck, all: readonly NamedCheck[]): string {
  return `  ${c.name.padEnd(width(all))}  ${clean(firstLine(c.run))}`;
}

export function verdictLines(v: Verdict): string[] {
  if (v.result === "passed") return [`    ✓ passed (${formatDuration(v.ms)})`];
  if (v.result === "not_run") return [`    ! could not run (${clean(v.why)})`];
  return [`    ✗ failed: ${clean(v.why)} (${formatDuration(v.ms)})`, ...v.tail.map((l) => `      │ ${clean(l).slice(0, 200)}`)];
}

/** The lines after the runs: what failing and unrunnable checks mean before any agent ran. */
export function runSummary(verdicts: readonly Verdict[], graphFile: string, checksFile: string): string[] {
  const failed = verdicts.filter((v) => v.result === "failed").map((v) => v.check.name);
  const notRun = verdicts.filter((v) => v.result === "not_run").map((v) => v.check.name);
  const passed = verdicts.length - failed.length - notRun.length;
  const lines = [`${passed} of ${plural(verdicts.length, "check")} passed on the current tree`];
  if (failed.length > 0)
    lines.push(
      `${plural(failed.length, "check")} already ${failed.length === 1 ? "fails" : "fail"} before any agent runs (${failed.join(", ")}):`,
      `  an agent would be judged by ${failed.length === 1 ? "it" : "them"} too. Fix ${failed.length === 1 ? "it" : "them"} first, or take ${failed.length === 1 ? "it" : "them"} out of success: in ${graphFile}.`,
    );
  if (notRun.length > 0)
    lines.push(
      `${plural(notRun.length, "check")} could not run (${notRun.join(", ")}): no evidence either way;`,
      `  install what ${notRun.length === 1 ? "it needs" : "they need"}, or remove ${notRun.length === 1 ? "it" : "them"} from ${checksFile} and ${graphFile}.`,
    );
  return lines;
}

export function nextLines(graphFile: string, checksFile: string): string[] {
  return [
    "next:",
    `  git add ${checksFile} ${graphFile} && git commit -m "vouch: checks and a starter graph"`,
    `  vouch run ${graphFile} -i task="..." --dry-run`,
    `  vouch run ${graphFile} -i task="..."`,
  ];
}
