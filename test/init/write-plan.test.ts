// What `vouch init` writes is valid whatever the project holds: generated
// script bodies, workflow commands and folder names go through the texts, and
// vouch's own loader must accept both files every time (a text it refused would
// be an InitBugError). The git rules run against a fake GitPort here; the binary
// tests run them against real repositories.
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { loadChecksFile } from "../../src/engine/graph/checks-file.ts";
import { refusingGit, type GitPort } from "../../src/engine/ports.ts";
import { compileGlob } from "../../src/engine/workspace/glob.ts";
import { HARNESS_NAMES } from "../../src/engine/graph/schema.ts";
import type { DetectedCheck, Finding } from "../../src/cli/init/detected.ts";
import { graphName, literalGlob, refuseInvalid, writePlan, InitBugError } from "../../src/cli/init/write-plan.ts";
import { scalar } from "../../src/cli/init/yaml-rows.ts";
import type { HarnessName } from "../../src/engine/ports.ts";

// A real folder (the workspace rules look for it); the repository around it is the fake git's.
const ROOT = mkdtempSync(join(tmpdir(), "vouch-init-plan-"));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));
const git: GitPort = {
  ...refusingGit,
  repoRoot: async () => dirname(ROOT),
  resolveCommit: async () => "a".repeat(40),
  hasUncommittedChanges: async () => false,
};

const check = (over: Partial<DetectedCheck>): DetectedCheck => ({
  kind: "tests",
  prefix: "npm",
  origin: "package.json",
  run: "npm run test",
  program: "npm",
  timeout: "10m",
  description: "the tests",
  ...over,
});

const finding = (checks: DetectedCheck[], over: Partial<Finding> = {}): Finding => ({
  checks,
  found: ["x"],
  notes: [],
  protect: [],
  ...over,
});

async function valid(f: Finding, harness: HarnessName = "claude", repoPrefix = "project/", folderName = "project") {
  const plan = writePlan(f, { root: ROOT, repoPrefix, folderName, harness });
  await refuseInvalid(plan, ROOT, git);
  return plan;
}

describe("the written texts", () => {
  test("every harness gets a graph vouch loads, with only the caps that harness keeps", async () => {
    for (const h of HARNESS_NAMES) {
      const plan = await valid(finding([check({})]), h);
      const graph = parse(plan.files[1]!.text) as { caps: object; nodes: { implement: { harness: string; caps: object } } };
      expect(graph.nodes.implement.harness).toBe(h);
      const priced = h === "claude" || h === "replay";
      expect("budget_usd" in graph.caps).toBe(priced);
      expect("budget_usd" in graph.nodes.implement.caps).toBe(priced);
      expect("turns" in graph.nodes.implement.caps).toBe(h !== "command");
    }
  });

  test("nothing detected: one placeholder check that fails on purpose, and a graph that names it", async () => {
    const plan = await valid(finding([], { found: [] }));
    expect(plan.checks.map((c) => c.name)).toEqual(["tests"]);
    expect(plan.files[0]!.text).toContain("exit 1");
    expect(plan.files[1]!.text).toContain("success: { checks: [tests] }");
  });

  test("the graph protects the paths under the folder's place in the repository", async () => {
    const plan = await valid(finding([check({})], { protect: [{ glob: "test/**", why: "the tests" }] }), "claude", "pkgs/a[1]*/");
    const graph = parse(plan.files[1]!.text) as { nodes: { implement: { workspace: { protect: string[] } } } };
    expect(graph.nodes.implement.workspace.protect).toEqual([
      "pkgs/a[[]1][*]/test/**",
      "pkgs/a[[]1][*]/vouch.checks.yaml",
      "pkgs/a[[]1][*]/vouch.graph.yaml",
    ]);
    const glob = compileGlob("pkgs/a[[]1][*]/test/**");
    expect(glob.ok && glob.test("pkgs/a[1]*/test/x.js")).toBe(true);
    expect(glob.ok && glob.test("pkgs/a1x/test/x.js")).toBe(false);
  });

  // Issue 27 item 5 (ADR 0047): a planned graph may use a library only when it says what its checks run.
  test("the checks file says which files its checks run (protect:), at the same repository paths", async () => {
    const plan = await valid(finding([check({})], { protect: [{ glob: "test/**", why: "the tests" }] }), "claude", "pkgs/a/");
    expect(loadChecksFile("vouch.checks.yaml", plan.files[0]!.text)).toMatchObject({ problems: [], protect: ["pkgs/a/test/**"] });
    const none = await valid(finding([check({})]));
    expect(loadChecksFile("vouch.checks.yaml", none.files[0]!.text)).toMatchObject({ problems: [], protect: [] });
  });

  test("a text vouch refuses is never written: a bad timeout is an InitBugError naming the place", async () => {
    await expect(valid(finding([check({ timeout: "20m" })]))).rejects.toThrow(InitBugError);
    await expect(valid(finding([check({ timeout: "20m" })]))).rejects.toThrow(/vouch\.checks\.yaml:\d+:\d+: .*10m/);
  });

  test("the graph's name is the folder's in plain characters", () => {
    expect(graphName("my app (v2)")).toBe("my-app-v2-implement");
    expect(graphName("…")).toBe("project-implement");
    expect(literalGlob("a*b?c[d]")).toBe("a[*]b[?]c[[]d]");
  });
});

describe("whatever the project holds", () => {
  const text = fc.string({ unit: "binary", maxLength: 80 });
  const command = text.filter((s) => s.trim() !== "" && !s.includes("{{") && !s.includes("\u0000"));

  test("descriptions, origins and commands read back exactly, and both files load", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ description: text, origin: text, run: command }), { minLength: 1, maxLength: 4 }),
        async (rows) => {
          const plan = await valid(finding(rows.map((r) => check({ ...r, kind: "lint" }))));
          const checks = (parse(plan.files[0]!.text) as { checks: Record<string, { description: string; run: string }> }).checks;
          expect(Object.values(checks).map((c) => c.run)).toEqual(rows.map((r) => r.run));
          expect(Object.values(checks).map((c) => c.description)).toEqual(rows.map((r) => r.description));
        },
      ),
      { numRuns: 150 },
    );
  });

  test("any folder name gives a graph that loads", () => {
    fc.assert(
      fc.property(text, (folder) => {
        const plan = writePlan(finding([check({})]), { root: ROOT, repoPrefix: "", folderName: folder, harness: "claude" });
        const loaded = loadGraph(join(ROOT, "vouch.graph.yaml"), plan.files[1]!.text, {
          readChecks: () => ({ text: plan.files[0]!.text }),
        });
        expect(loaded.problems).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  test("scalar() reads back as the same string", () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(parse(`v: ${scalar(s)}`)).toEqual({ v: s });
      }),
      { numRuns: 500 },
    );
  });
});
