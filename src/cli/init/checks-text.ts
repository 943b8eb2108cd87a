// vouch.checks.yaml as `vouch init` writes it: a check library (ADR 0025) of the
// commands the project already has, each with where it came from, a timeout and,
// for a formatter that lists offending files, expect: empty_output. With nothing
// found, one placeholder check that fails on purpose: without evidence nothing
// may pass, and the failure says what to write.
import type { Finding, ProtectedPath } from "./detected.ts";
import type { NamedCheck } from "./names.ts";
import { comments, rows, scalar } from "./yaml-rows.ts";

export const CHECKS_FILE = "vouch.checks.yaml";

/** The check that stands in when nothing was found. */
export const PLACEHOLDER: NamedCheck = {
  name: "tests",
  kind: "tests",
  prefix: "",
  origin: "a placeholder: vouch init found no test command here",
  run: `echo "no test command yet: write this project's tests into the tests check of ${CHECKS_FILE}" >&2; exit 1`,
  program: "",
  timeout: "2m",
  description: "placeholder: replace run with the command that runs this project's tests",
};

const HEADER = [
  "This project's checks: commands vouch runs itself, after an agent's work, to decide",
  "whether the work is done. A check passes on its exit status (0), or on its output when",
  "it says expect:. What an agent says about its own work never counts as evidence.",
  "",
  "Each check: its name (what a graph's success: { checks: [...] } names), a description,",
  "run (a command for sh, run in the node's folder: an agent's git worktree), timeout (it",
  "is killed and fails past it; at most 10m) and expect (exit_zero when not given).",
  "Checks get PATH, HOME, LANG, TMPDIR and a few more of your variables, nothing else.",
  "",
  "Edit freely: vouch checks lists this file, vouch validate vouch.checks.yaml checks it.",
];

function checkLines(c: NamedCheck, first: boolean): string[] {
  const explain = (what: string) => (first ? what : "");
  const body: [string, string][] = [
    [`description: ${scalar(c.description)}`, explain("shown by vouch checks and in reports")],
    [`run: ${scalar(c.run)}`, explain("the command")],
    [`timeout: ${c.timeout}`, explain("killed, and failed, when it runs longer")],
  ];
  if (c.expect) body.push([`expect: ${c.expect}`, c.expectWhy ?? ""]);
  return [...comments(2, [c.origin]), `  ${c.name}:`, ...rows(4, body)];
}

/** protect: the files the checks run from the tree, repository paths (ADR 0047): a planned graph
 *  may use this library only when it says, and its agents may not change them. */
function protectLines(protect: readonly ProtectedPath[]): string[] {
  const why = "the files these checks run (repository paths): no agent of a planned graph may change them";
  if (protect.length === 0) return rows(0, [["protect: []", `${why}; none found`]]);
  return [
    ...rows(0, [["protect:", why]]),
    ...rows(
      2,
      protect.map((p) => [`- ${scalar(p.glob)}`, p.why]),
    ),
  ];
}

/** @param protect the finding's protected paths, already relative to the repository root */
export function checksText(finding: Finding, checks: readonly NamedCheck[], protect: readonly ProtectedPath[] = finding.protect): string {
  const source =
    finding.found.length > 0
      ? ["Written by vouch init from what it found here:", ...finding.found.map((f) => `  - ${f}`)]
      : [
          "vouch init found no test command here (no package.json scripts, Makefile targets,",
          "Python tests, go.mod, Cargo.toml, deno.json or CI steps). Until you write one, the",
          "tests check below fails on purpose: without evidence nothing can pass.",
        ];
  const lines = [...comments(0, [...HEADER, "", ...source]), ...protectLines(protect), "checks:  # the checks, by name"];
  checks.forEach((c, i) => lines.push(...checkLines(c, i === 0)));
  return `${lines.join("\n")}\n`;
}
