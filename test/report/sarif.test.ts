// `vouch report --format sarif` (src/report/ci/sarif.ts, ADR 0058), validated against the
// official SARIF 2.1.0 schema (test/fixtures/sarif/, source in its README) by ajv: the
// mapping (rule ids per check, VERIFIED at its severity with the evidence as related
// locations, UNVERIFIABLE as a note with the reason, FALSE left out and counted, the
// base commit as versionControlProvenance), and any hostile content stays a valid log
// whose text can hold no embedded link.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { renderSarif, sarifLog, sarifText } from "../../src/report/ci/sarif.ts";
import { check, fakeCi, type FakeNode } from "./ci-fixtures.ts";
import { validateSarif, validSarif } from "./ci-validate.ts";

const REVIEW: FakeNode = {
  node: "review",
  kind: "agent",
  status: "passed",
  output: [
    {
      id: "F1",
      verdict: "VERIFIED",
      severity: "error",
      path: "src/cache.js",
      line: 16,
      message: "never expires",
      evidence: [
        { at: "src/cache.js:16", quote: "return v;" },
        { at: "src/cache.js:4", quote: "this.ttl = ttl;" },
      ],
    },
    { id: "F2", verdict: "UNVERIFIABLE", message: "retries forever", note: "there is no src/net.js" },
    { id: "F3", verdict: "FALSE", message: "drops digits", note: "digits are kept" },
  ],
};

describe("the schema holds vouch to something", () => {
  test("a log missing its version, or a result with a bad level, is refused", () => {
    const log = sarifLog(fakeCi([REVIEW]), "0.1.0") as { version?: string; runs: { results: { level: string }[] }[] };
    expect(validateSarif(log)).toBe(true);
    expect(validateSarif({ ...log, version: undefined })).toBe(false);
    log.runs[0]!.results[0]!.level = "fatal";
    expect(validateSarif(log)).toBe(false);
  });
});

describe("the mapping", () => {
  test("findings: VERIFIED at its severity with the decisive evidence, UNVERIFIABLE a note with the reason, FALSE left out and counted", () => {
    const [run] = validSarif(renderSarif(fakeCi([REVIEW]), "0.1.0")).runs;
    const results = run!.results as Record<string, any>[];
    expect(results.map((r) => [r.ruleId, r.level, r.properties["vouch.verdict"]])).toEqual([
      ["vouch/finding", "error", "VERIFIED"],
      ["vouch/finding", "note", "UNVERIFIABLE"],
    ]);
    expect(results[0]!.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "src/cache.js", uriBaseId: "%SRCROOT%" },
      region: { startLine: 16 },
    });
    expect(results[0]!.relatedLocations.map((l: any) => [l.physicalLocation.region.startLine, l.message.text])).toEqual([
      [16, "return v;"],
      [4, "this.ttl = ttl;"],
    ]);
    expect(results[1]!.message.text).toContain("could not be verified: there is no src/net.js");
    expect(run!.properties["vouch.findings.refuted"]).toBe(1);
    expect(JSON.stringify(run)).not.toContain("drops digits");
  });

  test("rule ids per check; a failed check at the line its output names; the run's base commit as versionControlProvenance", () => {
    const base = "a".repeat(40);
    const ci = fakeCi(
      [
        {
          node: "lint",
          checks: [
            check("eslint", { stdout_tail: "src/a.ts:3:7: no-unused-vars" }),
            check("tests", { expect: "exit 0", stdout_tail: "2 failed" }),
          ],
          workspace: {
            branch: "vouch/r/lint",
            base,
            commit: base,
            files_changed: 0,
            insertions: 0,
            deletions: 0,
            path: "/work/repo/.vouch/worktrees/r/lint",
          },
        },
      ],
      { repositoryUri: "https://github.com/o/r", commit: "b".repeat(40) },
    );
    const [run] = validSarif(renderSarif(ci, "0.1.0")).runs;
    expect(run!.tool.driver.rules.map((r: any) => r.id)).toEqual(["vouch/check/eslint", "vouch/check/tests", "vouch/node/failed"]);
    expect(run!.results.map((r: any) => [r.ruleId, r.ruleIndex, r.locations?.[0].physicalLocation.artifactLocation.uri])).toEqual([
      ["vouch/check/eslint", 0, "src/a.ts"],
      ["vouch/check/tests", 1, "graphs/g.yaml"], // no location in its output: the graph file
      ["vouch/node/failed", 2, "graphs/g.yaml"],
    ]);
    expect(run!.results[0].locations[0].physicalLocation.region).toEqual({ startLine: 3, startColumn: 7 });
    // The worktree's base wins over what CI checked out.
    expect(run!.versionControlProvenance).toEqual([
      { repositoryUri: "https://github.com/o/r", revisionId: base, mappedTo: { uriBaseId: "%SRCROOT%" } },
    ]);
    expect(run!.originalUriBaseIds["%SRCROOT%"].uri).toBe("file:///work/repo/");
    expect(run!.invocations[0]).toEqual({ executionSuccessful: true, exitCode: 1 });
  });

  test("no commit known: no versionControlProvenance; an error run is not executionSuccessful", () => {
    const [run] = validSarif(
      renderSarif(fakeCi([{ node: "x", status: "error", cause: "timeout" }], {}, { status: "error", exit_code: 3 }), "0.1.0"),
    ).runs;
    expect(run!.versionControlProvenance).toBeUndefined();
    expect(run!.invocations[0].executionSuccessful).toBe(false);
    expect(run!.results[0].ruleId).toBe("vouch/node/error");
  });

  test("a path is a path: a segment with # or % or a space is encoded, not read as a fragment", () => {
    const [run] = validSarif(
      renderSarif(fakeCi([{ node: "x", checks: [check("c", { stdout_tail: "src/a#b 50%.ts:2: x" })] }]), "0.1.0"),
    ).runs;
    expect(run!.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("src/a%23b%2050%25.ts");
  });

  test("message text can hold no embedded link: [ ] and \\ are escaped", () => {
    expect(sarifText("see [here](https://evil.example) or [1](1) \\[")).toBe("see \\[here\\](https://evil.example) or \\[1\\](1) \\\\\\[");
  });
});

const hostile = fc.oneof(
  fc.constantFrom(
    "[x](https://evil)",
    "\u001b]8;;https://evil\u0007link",
    "</script>",
    '"}],"runs":[{',
    "\ud800",
    "::error::x",
    "../../etc/passwd",
    "%SRCROOT%",
  ),
  fc.string({ unit: "binary", maxLength: 60 }),
);

describe("any content", () => {
  test("stays a valid SARIF 2.1.0 log, every uri relative inside the repository, no unescaped bracket in any text", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: hostile, tail: hostile, node: hostile, message: hostile, path: hostile }), {
          minLength: 1,
          maxLength: 6,
        }),
        (items) => {
          const ci = fakeCi(
            items.map((it, i) => ({
              node: `${i}${it.node}`,
              kind: "agent",
              checks: [check(it.name || "c", { stdout_tail: `${it.path}:3: ${it.tail}` })],
              output: [
                {
                  verdict: "VERIFIED",
                  severity: it.name,
                  path: it.path,
                  line: 2,
                  message: it.message,
                  evidence: [{ at: `${it.path}:2`, quote: it.tail }],
                },
              ],
            })),
          );
          const log = validSarif(renderSarif(ci, "0.1.0"));
          for (const r of log.runs[0]!.results) {
            for (const l of [...(r.locations ?? []), ...(r.relatedLocations ?? [])]) {
              const uri = l.physicalLocation.artifactLocation.uri as string;
              expect(uri.startsWith("/") || uri.startsWith("..") || uri.includes("://")).toBe(false);
            }
            expect(r.message.text).not.toMatch(/(^|[^\\])\[/);
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 200) },
    );
  });
});
