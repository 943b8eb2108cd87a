// `vouch report --format codequality` (src/report/ci/codequality.ts, ADR 0058): GitLab's
// Code Quality report, held to the format GitLab documents (test/fixtures/codequality/):
// the issues GitLab can place, one fingerprint each, and any hostile content still one
// valid JSON array of them.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { renderCodeQuality } from "../../src/report/ci/codequality.ts";
import { check, fakeCi } from "./ci-fixtures.ts";
import { validateCodeQuality, validCodeQuality } from "./ci-validate.ts";

describe("GitLab Code Quality", () => {
  test("the schema can say no: a missing fingerprint or an unknown severity", () => {
    expect(
      validateCodeQuality([{ description: "d", check_name: "c", severity: "major", location: { path: "a", lines: { begin: 1 } } }]),
    ).toBe(false);
    expect(
      validateCodeQuality([
        { description: "d", check_name: "c", fingerprint: "0".repeat(32), severity: "high", location: { path: "a", lines: { begin: 1 } } },
      ]),
    ).toBe(false);
  });

  test("located checks at their line, the rest at the graph file, VERIFIED findings at their severity; UNVERIFIABLE and FALSE left out", () => {
    const ci = fakeCi([
      {
        node: "lint",
        checks: [
          check("eslint", { stdout_tail: "src/a.ts:3:7: unused\nsrc/a.ts:9:1: unused" }),
          check("tests", { stdout_tail: "2 failed" }),
        ],
      },
      {
        node: "review",
        kind: "agent",
        status: "passed",
        output: {
          findings: [
            { id: "F1", verdict: "VERIFIED", severity: "error", path: "src/c.js", line: 4, message: "m1" },
            { id: "F2", verdict: "VERIFIED", severity: "note", path: "src/c.js", line: 5, message: "m2" },
            { id: "F3", verdict: "UNVERIFIABLE", path: "src/c.js", line: 6, message: "m3" },
            { id: "F4", verdict: "FALSE", path: "src/c.js", line: 7, message: "m4" },
          ],
        },
      },
    ]);
    const issues = validCodeQuality(renderCodeQuality(ci));
    expect(issues.map((i) => [i.check_name, i.severity, i.location.path, i.location.lines.begin])).toEqual([
      ["vouch/finding", "major", "src/c.js", 4],
      ["vouch/check/eslint", "major", "src/a.ts", 3],
      ["vouch/check/eslint", "major", "src/a.ts", 9],
      ["vouch/check/tests", "major", "graphs/g.yaml", 1],
      ["vouch/node/failed", "major", "graphs/g.yaml", 1],
      ["vouch/finding", "info", "src/c.js", 5],
    ]);
    expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
  });

  test("the same problem twice (same rule, file and text at two lines) gets two fingerprints", () => {
    const ci = fakeCi([{ node: "lint", checks: [check("eslint", { stdout_tail: "src/a.ts:3: same\nsrc/a.ts:4: same" })] }]);
    const issues = validCodeQuality(renderCodeQuality(ci)).filter((i) => i.check_name === "vouch/check/eslint");
    expect(issues).toHaveLength(2);
    expect(issues[0]!.fingerprint).not.toBe(issues[1]!.fingerprint);
  });

  test("a graph outside the repository: problems without a location are left out (GitLab cannot place them)", () => {
    const ci = fakeCi([{ node: "x", checks: [check("tests")] }], {}, { graph_path: "/elsewhere/g.yaml" });
    expect(validCodeQuality(renderCodeQuality(ci))).toEqual([]);
  });

  test("any content: one valid array, paths inside the repository, fingerprints unique", () => {
    const hostile = fc.oneof(
      fc.constantFrom('"},{"x":1', "../../x", "/etc/passwd", "\u0000", "\u001b[2J"),
      fc.string({ unit: "binary", maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ name: hostile, tail: hostile, path: hostile }), { minLength: 1, maxLength: 6 }), (items) => {
        const ci = fakeCi(
          items.map((it, i) => ({
            node: `n${i}`,
            checks: [check(it.name || "c", { stdout_tail: `${it.path}:2: ${it.tail}\n${it.path}:2: ${it.tail}` })],
          })),
        );
        const issues = validCodeQuality(renderCodeQuality(ci));
        expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
      }),
      { numRuns: 200 },
    );
  });
});
