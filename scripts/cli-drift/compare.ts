// The pure part of the drift job (scripts/cli-drift.ts, ADR 0052): the versions
// table, the contract suite's outcomes read from vitest's JSON report, and the
// table of tests whose outcome differs between the pinned set and the newest.

/** One package: what clis/package.json pins and what the registry calls latest. */
export interface VersionRow {
  package: string;
  pinned: string;
  newest: string;
}

export type Outcome = "passed" | "failed" | "skipped" | "missing";

/** A test's outcome by its name (file › full name, version numbers left out). */
export type Outcomes = ReadonlyMap<string, Outcome>;

export interface DiffRow {
  test: string;
  pinned: Outcome;
  newest: Outcome;
}

interface VitestJson {
  testResults?: { name?: unknown; assertionResults?: { fullName?: unknown; status?: unknown }[] }[];
}

/** A test's name with version numbers left out: "codex 0.171.0 through dist/vouch" names the same test on 0.172.0. */
export function testKey(file: string, fullName: string): string {
  return `${file} › ${fullName}`.replace(/\b\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\b/g, "X.Y.Z");
}

/** The outcomes in a vitest JSON report (`--reporter=json`); files relative to `root`. */
export function outcomesOf(report: unknown, root: string): Map<string, Outcome> {
  const out = new Map<string, Outcome>();
  const files = (report as VitestJson | null)?.testResults;
  if (!Array.isArray(files)) throw new Error("not a vitest JSON report (no testResults)");
  for (const f of files) {
    const file = typeof f.name === "string" ? f.name.replace(`${root}/`, "") : "?";
    for (const a of f.assertionResults ?? []) {
      if (typeof a.fullName !== "string") continue;
      out.set(testKey(file, a.fullName), statusOf(a.status));
    }
  }
  return out;
}

function statusOf(status: unknown): Outcome {
  if (status === "passed") return "passed";
  if (status === "failed") return "failed";
  return "skipped"; // skipped, pending, todo
}

/** The tests whose outcome differs, in name order; a test only one run has is "missing" in the other. */
export function differences(pinned: Outcomes, newest: Outcomes): DiffRow[] {
  const names = [...new Set([...pinned.keys(), ...newest.keys()])].sort();
  return names
    .map((test) => ({ test, pinned: pinned.get(test) ?? "missing", newest: newest.get(test) ?? "missing" }))
    .filter((r) => r.pinned !== r.newest);
}

/** A Markdown table (GitHub renders it; a terminal reads it as is). Cells have their `|` escaped. */
export function table(head: string[], rows: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const line = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** The report: the versions, then the differences or "no difference". */
export function report(versions: VersionRow[], diff: DiffRow[], counts: { tests: number; failedOnPinned: number }): string {
  const out = [
    "## Agent CLIs: pinned and newest",
    "",
    table(
      ["package", "pinned", "newest"],
      versions.map((v) => [v.package, v.pinned, v.newest === v.pinned ? `${v.newest} (the same)` : v.newest]),
    ),
    "",
    "## The contract suite on the newest against the pinned",
    "",
  ];
  if (diff.length === 0) out.push(`no difference (${counts.tests} tests)`);
  else
    out.push(
      table(
        ["test", "pinned", "newest"],
        diff.map((d) => [d.test, d.pinned, d.newest]),
      ),
      "",
      `${diff.length} difference${diff.length === 1 ? "" : "s"} in ${counts.tests} tests`,
    );
  if (counts.failedOnPinned > 0)
    out.push("", `note: ${counts.failedOnPinned} test(s) fail on the pinned set too: that is no drift, but the suite is not green`);
  return `${out.join("\n")}\n`;
}
