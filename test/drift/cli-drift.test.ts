// The drift job (scripts/cli-drift.ts, ADR 0052): its pure part (versions,
// outcomes read from vitest's JSON report, the differences, the report) and its
// schedule (.github/workflows/cli-drift.yml), checked by GitHub's own workflow
// parser as the release workflow is.
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { differences, outcomesOf, report, table, testKey } from "../../scripts/cli-drift/compare.ts";
import { ROOT } from "../e2e/helpers.ts";

const WORKFLOW = readFileSync(join(ROOT, ".github", "workflows", "cli-drift.yml"), "utf8");

const vitestReport = (tests: [string, string, string][]) => ({
  testResults: [...new Set(tests.map((t) => t[0]))].map((file) => ({
    name: `${ROOT}/${file}`,
    assertionResults: tests.filter((t) => t[0] === file).map(([, fullName, status]) => ({ fullName, status })),
  })),
});

describe("the comparison", () => {
  test("a test keeps its name across versions: version numbers are left out", () => {
    expect(testKey("test/contract/codex.test.ts", "codex 0.171.0 through dist/vouch plain answer")).toBe(
      "test/contract/codex.test.ts › codex X.Y.Z through dist/vouch plain answer",
    );
    expect(testKey("f", "gemini 0.62.0-preview.1 x")).toBe(testKey("f", "gemini 0.61.0 x"));
  });

  test("outcomes from vitest's JSON report; pending and todo are skipped", () => {
    const o = outcomesOf(
      vitestReport([
        ["test/contract/a.test.ts", "a passes", "passed"],
        ["test/contract/a.test.ts", "a fails", "failed"],
        ["test/contract/b.test.ts", "b skips", "skipped"],
        ["test/contract/b.test.ts", "b pending", "pending"],
      ]),
      ROOT,
    );
    expect([...o]).toEqual([
      ["test/contract/a.test.ts › a passes", "passed"],
      ["test/contract/a.test.ts › a fails", "failed"],
      ["test/contract/b.test.ts › b skips", "skipped"],
      ["test/contract/b.test.ts › b pending", "skipped"],
    ]);
    expect(() => outcomesOf({ nothing: true }, ROOT)).toThrow(/not a vitest JSON report/);
  });

  test("differences: changed outcomes and tests only one run has; the same outcome is none", () => {
    const pinned = new Map([
      ["a", "passed"],
      ["b", "passed"],
      ["c", "passed"],
    ] as const);
    const newest = new Map([
      ["a", "passed"],
      ["b", "failed"],
      ["d", "passed"],
    ] as const);
    expect(differences(pinned, newest)).toEqual([
      { test: "b", pinned: "passed", newest: "failed" },
      { test: "c", pinned: "passed", newest: "missing" },
      { test: "d", pinned: "missing", newest: "passed" },
    ]);
    expect(differences(pinned, pinned)).toEqual([]);
  });

  test("the report: versions, then the differences or 'no difference'", () => {
    const versions = [
      { package: "@openai/codex", pinned: "0.171.0", newest: "0.171.0" },
      { package: "@google/gemini-cli", pinned: "0.61.0", newest: "0.62.1" },
    ];
    const none = report(versions, [], { tests: 12, failedOnPinned: 0 });
    expect(none).toContain("| @openai/codex | 0.171.0 | 0.171.0 (the same) |");
    expect(none).toContain("| @google/gemini-cli | 0.61.0 | 0.62.1 |");
    expect(none).toContain("no difference (12 tests)");
    const some = report(versions, [{ test: "x | y", pinned: "passed", newest: "failed" }], { tests: 12, failedOnPinned: 1 });
    expect(some).toContain("| x \\| y | passed | failed |");
    expect(some).toContain("1 difference in 12 tests");
    expect(some).toContain("1 test(s) fail on the pinned set too");
    expect(table(["a"], [["multi\nline"]])).toBe("| a |\n| --- |\n| multi line |");
  });

  test("a usage mistake is exit 2 before anything is installed or asked", () => {
    const p = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "bun"), join(ROOT, "scripts", "cli-drift.ts"), "--bogus"], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("cli-drift: unknown option --bogus");
  });
});

describe("the schedule, parsed by GitHub's workflow parser", () => {
  const trace = new NoOperationTraceWriter();
  async function errorsOf(content: string): Promise<string[]> {
    const result = parseWorkflow({ name: "cli-drift.yml", content }, trace);
    if (!result.value) return result.context.errors.getErrors().map((e) => e.message);
    await convertWorkflowTemplate(result.context, result.value);
    return result.context.errors.getErrors().map((e) => e.message);
  }

  test("is valid, and the parser says no to a broken copy", async () => {
    expect(await errorsOf(WORKFLOW)).toEqual([]);
    expect((await errorsOf(WORKFLOW.replace("runs-on:", "runs_on:"))).length).toBeGreaterThan(0);
    expect((await errorsOf(WORKFLOW.replace("cron:", "crom:"))).length).toBeGreaterThan(0);
  });

  test("runs weekly and by hand, read-only, the script with --always-install, the table as summary and artifact", () => {
    const w = parseYaml(WORKFLOW) as {
      on: { schedule: { cron: string }[]; workflow_dispatch: null };
      permissions: Record<string, string>;
      jobs: { drift: { steps: { run?: string; uses?: string; with?: Record<string, string> }[] } };
    };
    expect(w.on.schedule).toEqual([{ cron: "17 6 * * 1" }]);
    expect(Object.keys(w.on)).toEqual(["schedule", "workflow_dispatch"]);
    expect(w.permissions).toEqual({ contents: "read" });
    const runs = w.jobs.drift.steps.map((s) => s.run ?? s.uses ?? "");
    const at = (needle: string) => runs.findIndex((r) => r.includes(needle));
    expect(at("npm run clis")).toBeGreaterThan(-1);
    expect(at("npm run clis")).toBeLessThan(at("scripts/cli-drift.ts --always-install --out drift.md"));
    expect(at("GITHUB_STEP_SUMMARY")).toBeGreaterThan(at("scripts/cli-drift.ts"));
    expect(w.jobs.drift.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))?.with?.path).toBe("drift.md");
  });
});
