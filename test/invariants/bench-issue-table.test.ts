// `npm run bench` prints every row of issue 29's table with its target and a
// verdict (issue 29, "Done when"): the row list is held to the issue's rows, a row
// nobody filled still prints (as "not measured"), and every row has a place in the
// bench that fills it. No timing: the definitions and the source are checked.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ISSUE_ROWS, issueLines, issueMarkdown, linear, notMeasured, verdictOf } from "../../bench/lib/issue-table.ts";

const ROOT = join(import.meta.dirname, "..", "..");

// Issue 29's table, its "measure" column as filed, each with the row that measures it.
const ISSUE_29: [string, string][] = [
  ["500 `sh -c true` items, concurrency 8, vs the Bun spawn floor script (`bench/spawn-floor.ts`)", "spawn-floor"],
  ["same vs a C fork+exec pool (the machine's physical limit, ~0.4 s here)", "fork-pool"],
  ["10,000 replayed sittings", "sittings"],
  ["`vouch validate graphs/finding-verifier.yaml` vs `vouch --version`", "validate-start"],
  ["100,000-item map of `true`: rate vs the 10,000-item rate", "map-rate"],
  ["same: peak RSS", "map-rss"],
  ["ledger bytes per `true` item; copies of one output", "ledger-bytes"],
  ["`vouch resume` of an interrupted N-item map (CPU)", "resume"],
  ["`vouch validate` of N nodes each needing an unknown node", "unknown-needs"],
  ["bytes written per branch's state file in an N-item map", "state-bytes"],
  ["fleet: queue wall per branch / CPU per branch (coordinator + worker + Redis)", "fleet"],
];

describe("issue 29's table in npm run bench", () => {
  test("one row per row of the issue, in its order, each with a target", () => {
    expect(ISSUE_ROWS.map((r) => r.id)).toEqual(ISSUE_29.map(([, id]) => id));
    expect(new Set(ISSUE_ROWS.map((r) => r.id)).size).toBe(ISSUE_ROWS.length);
    for (const r of ISSUE_ROWS) {
      expect(r.measure.length).toBeGreaterThan(10);
      expect(r.target).toMatch(/[≤≥<]|once|linear|independent/);
    }
  });

  test("a row without a measured cell prints as not measured, with why; a filled one keeps its verdict", () => {
    const lines = issueLines({ fleet: { value: "2.0 ms / 2.5 ms", verdict: "met" }, "fork-pool": notMeasured("no cc") }, "quick mode");
    expect(lines).toHaveLength(ISSUE_ROWS.length);
    expect(lines.find((l) => l.measure.startsWith("fleet"))).toMatchObject({ value: "2.0 ms / 2.5 ms", verdict: "met" });
    expect(lines.find((l) => l.measure.startsWith("same vs a C"))!.verdict).toBe("not measured: no cc");
    expect(lines.filter((l) => l.verdict === "not measured: quick mode")).toHaveLength(ISSUE_ROWS.length - 2);
    const md = issueMarkdown(lines).split("\n");
    expect(md).toHaveLength(ISSUE_ROWS.length + 2);
    expect(md[0]).toMatch(/^\| measure +\| value +\| target +\| verdict +\|$/);
    for (const [i, r] of ISSUE_ROWS.entries()) expect(md[i + 2]).toContain(r.target);
  });

  test("verdicts: met only when every check holds; linear allows 10 %", () => {
    expect(verdictOf(true)).toBe("met");
    expect(verdictOf(false)).toBe("missed");
    expect(verdictOf({ time: true, memory: true })).toBe("met");
    expect(verdictOf({ time: true, memory: false, copies: false })).toBe("missed: memory, copies");
    expect(linear(8.8, 8)).toBe(true);
    expect(linear(8.9, 8)).toBe(false);
  });

  test("every row is filled by the bench (bench/run.ts or bench/issue29.ts names its cell)", () => {
    const src = ["bench/run.ts", "bench/issue29.ts"].map((f) => readFileSync(join(ROOT, f), "utf8")).join("\n");
    const fills = (id: string) => [`cells.${id} =`, `cells["${id}"] =`, `"${id}":`, `  ${id}: {`].some((p) => src.includes(p));
    const unfilled = ISSUE_ROWS.filter((r) => !fills(r.id));
    expect(unfilled.map((r) => r.id)).toEqual([]);
  });
});
