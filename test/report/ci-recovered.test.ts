// A node that did not pass but `exhausted:` recovered counts for its graph (ADR 0006):
// the run passed, so the CI formats must not read it as an error of the run. On main
// (issue 30's formats) it was an error annotation, an error SARIF result and a major
// Code Quality issue while JUnit (issue 27 item 18) already read it as skipped.
// Test first: both tests failed before the fix.
import { expect, test } from "vitest";
import { ensureBinary, tempDir, vouch } from "../e2e/helpers.ts";
import { check, fakeCi } from "./ci-fixtures.ts";
import { recoveredRun } from "./helpers.ts";

test("a recovered node and its failed checks are warnings that say so; a plain failure stays an error", () => {
  const ci = fakeCi([
    { node: "soft", status: "failed", recovered: true, checks: [check("lint")] },
    { node: "hard", status: "failed", checks: [check("test")] },
  ]);
  const of = (node: string) => ci.problems.filter((p) => p.node === node).map((p) => [p.kind, p.level]);
  expect(of("soft")).toEqual([
    ["check", "warning"],
    ["node", "warning"],
  ]);
  expect(of("hard")).toEqual([
    ["check", "error"],
    ["node", "error"],
  ]);
  const soft = ci.problems.filter((p) => p.node === "soft");
  for (const p of soft) expect(p.title).toContain("recovered by exhausted:");
  // Worst first: the real failure leads.
  expect(ci.problems[0]!.node).toBe("hard");
});

test("through dist/vouch: a run that passed with a recovered branch has no error annotation and no error SARIF result", async () => {
  ensureBinary();
  const dir = tempDir("ci-recovered");
  try {
    const run = await recoveredRun(dir.path);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const github = await vouch(["report", "last", "--format", "github"], { home: dir.path, cwd: dir.path });
    expect(github.code, github.stderr).toBe(0);
    expect(github.stdout).not.toMatch(/^::error/m);
    expect(github.stdout).toMatch(/^::warning .*each\[1\]\.one.*recovered by exhausted%3A/m);
    const sarif = await vouch(["report", "last", "--format", "sarif"], { home: dir.path, cwd: dir.path });
    expect(sarif.code, sarif.stderr).toBe(0);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { level: string }[] }[] }).runs[0]!.results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((r) => r.level).filter((l) => l === "error")).toEqual([]);
  } finally {
    dir.cleanup();
  }
}, 60_000);
