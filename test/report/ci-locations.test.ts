// Where the CI formats place a problem (src/report/ci/locations.ts) and how they read
// findings from outputs (src/report/ci/output-findings.ts): the rules docs/ci.md states.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { atLocation, locatedLines, repositoryPath } from "../../src/report/ci/locations.ts";
import { outputFindings } from "../../src/report/ci/output-findings.ts";

const BASE = { root: "/repo", cwd: "/repo/pkg" };

describe("paths: only inside the repository", () => {
  test("relative to the node's folder, absolute inside the root, a worktree's path as the same path in the repository", () => {
    expect(repositoryPath("src/a.ts", BASE)).toBe("pkg/src/a.ts");
    expect(repositoryPath("./src/../lib/b.ts", BASE)).toBe("pkg/lib/b.ts");
    expect(repositoryPath("/repo/top.ts", BASE)).toBe("top.ts");
    expect(
      repositoryPath("src/a.ts", { root: "/repo", cwd: "/repo/.vouch/worktrees/r/n/pkg", worktree: "/repo/.vouch/worktrees/r/n" }),
    ).toBe("pkg/src/a.ts");
  });

  test("never outside: .., an absolute path elsewhere, a URL, control characters, the root itself", () => {
    for (const p of [
      "../x.ts",
      "../../etc/passwd",
      "/etc/passwd",
      "/repo2/x.ts",
      "https://evil/x.ts",
      "a\u0000b",
      "a\u001b[31mb",
      "a\u202eb",
      "",
      "/repo",
      ".",
    ])
      expect([p, repositoryPath(p, { root: "/repo", cwd: "/repo" })]).toEqual([p, null]);
  });

  test("path:line[:col]: message lines, each location once, bounded; other shapes and bad numbers ignored", () => {
    const out = [
      "src/a.ts:3:7: unused",
      "src/a.ts:3:7: unused again",
      "src/b.ts:10: bad",
      "src/c.ts:0: zero line",
      "src/d.ts:x: no number",
      "  src/e.ts:1: indented",
      "http://host:80: url",
      "note: nothing",
    ].join("\n");
    expect(locatedLines(out, BASE, 10).map((l) => [l.location.path, l.location.line, l.location.column, l.message])).toEqual([
      ["pkg/src/a.ts", 3, 7, "unused"],
      ["pkg/src/b.ts", 10, undefined, "bad"],
    ]);
    expect(locatedLines(Array.from({ length: 50 }, (_, i) => `f${i}.ts:1: x`).join("\n"), BASE, 20)).toHaveLength(20);
    expect(atLocation("src/cache.js:16", BASE)).toEqual({ path: "pkg/src/cache.js", line: 16 });
  });

  test("any text: a location is always a relative path under the root with a line ≥ 1", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        for (const l of locatedLines(text, BASE, 20)) {
          expect(l.location.path.startsWith("..") || l.location.path.startsWith("/")).toBe(false);
          expect(l.location.line).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});

describe("findings in an output", () => {
  test("the documented shape: a list, or its findings or verdicts field, or one finding; severity names and verdicts read case-blind", () => {
    const f = (o: unknown) => outputFindings(o, BASE).map((x) => [x.verdict, x.severity, x.message, x.location?.path, x.location?.line]);
    expect(f([{ verdict: "verified", severity: "HIGH", path: "a.ts", line: 2, message: "m" }])).toEqual([
      ["VERIFIED", "error", "m", "pkg/a.ts", 2],
    ]);
    expect(f({ findings: [{ verdict: "VERIFIED", severity: "medium", title: "t" }] })).toEqual([
      ["VERIFIED", "warning", "t", undefined, undefined],
    ]);
    expect(f({ verdicts: [{ verdict: "UNVERIFIABLE", severity: "low", note: "why" }] })).toEqual([
      ["UNVERIFIABLE", "note", "why", undefined, undefined],
    ]);
    expect(f({ id: "F1", verdict: "FALSE", evidence: [{ at: "b.ts:9", quote: "q" }] })).toEqual([
      ["FALSE", "warning", "finding F1", "pkg/b.ts", 9],
    ]);
    for (const sev of ["critical", "blocker"]) expect(f([{ verdict: "VERIFIED", severity: sev }])[0]![1]).toBe("error");
    for (const sev of ["info", "minor"]) expect(f([{ verdict: "VERIFIED", severity: sev }])[0]![1]).toBe("note");
    for (const sev of ["weird", "__proto__", "constructor", "toString"])
      expect(f([{ verdict: "VERIFIED", severity: sev }])[0]![1]).toBe("warning");
  });

  test("anything else is not a finding: no verdict, another verdict, text, numbers", () => {
    for (const o of [
      "VERIFIED",
      3,
      null,
      { verdict: "MAYBE" },
      [{ message: "no verdict" }],
      { findings: "x" },
      { __proto__: { verdict: "VERIFIED" } },
    ])
      expect(outputFindings(o, BASE)).toEqual([]);
  });

  test("path + line win over the evidence; the first evidence inside the repository is the location otherwise", () => {
    const [a] = outputFindings({ verdict: "VERIFIED", path: "x.ts", line: 1, evidence: [{ at: "y.ts:2", quote: "" }] }, BASE);
    expect(a!.location).toEqual({ path: "pkg/x.ts", line: 1 });
    const [b] = outputFindings(
      {
        verdict: "VERIFIED",
        evidence: [
          { at: "../../out.ts:2", quote: "" },
          { at: "in.ts:3", quote: "q" },
        ],
      },
      BASE,
    );
    expect(b!.location).toEqual({ path: "pkg/in.ts", line: 3 });
  });
});
