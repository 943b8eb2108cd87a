// A check's history (ADR 0067): counts per outcome over its newest runs, trees that both
// passed and failed, flaky runs and the mark; a changed command is another history.
import { describe, expect, test } from "vitest";
import { checkHistories, FLAKY_SHARE, RECENT_RUNS, flakyText, type CheckRunRow } from "../../src/read/check-history.ts";

const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
const r = (run: number, outcome: CheckRunRow["outcome"], o: Partial<CheckRunRow> = {}): CheckRunRow => ({
  name: "tests",
  command_digest: "sha256:aa",
  tree_id: null,
  outcome,
  run_id: `r${run}`,
  t: at(run),
  ...o,
});

describe("checkHistories", () => {
  test("counts and the flake rate; a flaky outcome makes its run flaky", () => {
    const [h] = checkHistories([r(1, "passed"), r(2, "failed"), r(3, "flaky"), r(4, "could_not_run"), r(4, "passed")]);
    expect(h).toMatchObject({
      name: "tests",
      runs: 4,
      passed: 2,
      failed: 1,
      flaky: 1,
      could_not_run: 1,
      disagreeing_trees: 0,
      flaky_runs: 1,
      flake_rate: 0.25,
      last_run: "r4",
      marked: true, // 1 of 4 runs is more than FLAKY_SHARE
    });
    expect(flakyText(h!)).toBe("flaky in 1 of the last 4 runs");
  });

  test("a tree that passed in one run and failed in another is flaky without a rerun; other trees are not", () => {
    const [h] = checkHistories([
      r(1, "passed", { tree_id: "T" }),
      r(2, "failed", { tree_id: "T" }),
      r(3, "failed", { tree_id: "U" }),
      r(4, "passed", { tree_id: "V" }),
      r(5, "passed"),
      r(6, "failed"), // no tree: nothing to compare
    ]);
    expect(h).toMatchObject({ runs: 6, disagreeing_trees: 1, flaky_runs: 2, flaky: 0, flake_rate: 0, marked: true });
  });

  test("marked only above the share: one flaky run in five is not more than 20%", () => {
    expect(FLAKY_SHARE).toBe(0.2);
    const rows = [r(1, "flaky"), r(2, "passed"), r(3, "passed"), r(4, "passed"), r(5, "passed")];
    expect(checkHistories(rows)[0]!.marked).toBe(false);
    expect(checkHistories(rows.slice(0, 4))[0]!.marked).toBe(true);
  });

  test("only the newest RUNS runs count; a changed command is a history of its own, newest first", () => {
    const rows = Array.from({ length: RECENT_RUNS + 5 }, (_, i) => r(i, i < 5 ? "flaky" : "passed"));
    const [h] = checkHistories(rows);
    expect([h!.runs, h!.flaky, h!.passed]).toEqual([RECENT_RUNS, 0, RECENT_RUNS]);
    const two = checkHistories([r(1, "flaky"), r(9, "passed", { command_digest: "sha256:bb" }), r(2, "passed", { name: "lint" })]);
    expect(two.map((x) => [x.name, x.command_digest, x.flaky])).toEqual([
      ["lint", "sha256:aa", 0],
      ["tests", "sha256:bb", 0],
      ["tests", "sha256:aa", 1],
    ]);
  });

  test("nothing that reached a verdict: no flake rate", () => {
    expect(checkHistories([r(1, "could_not_run")])[0]).toMatchObject({ flake_rate: null, marked: false });
  });
});
