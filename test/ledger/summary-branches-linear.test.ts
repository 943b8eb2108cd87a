// Reading a run back looks at each branch's own node rows (issue 29): every branch's
// view walked all the node rows of the run, so a run of N branches took N passes over
// N rows, twice per resume (resumeCheck, then the summary). Counted, not timed.
import { describe, expect, test } from "vitest";
import { branchRowVisits } from "../../src/ledger/run-summary.ts";
import type { RunLedger } from "../../src/ledger/index.ts";
import { fullRun, RunScript } from "./events-fixture.ts";
import { eachFreshLedger } from "./temp-home.ts";

let ledger: RunLedger;
eachFreshLedger((_, l) => (ledger = l));

/** A run of one map of `n` branches, one script node each, all passed. */
function mapRun(n: number): RunScript {
  const s = new RunScript(`r-map-${n}`);
  s.started({
    nodes: [
      { id: "each", kind: "map", needs: [] },
      { id: "work", kind: "script", needs: [], map: "each" },
    ],
  });
  s.nodeStarted({ node: "each" }, "map");
  for (let index = 0; index < n; index++) {
    const branch = { map: "each", index };
    s.ev("branch.started", { branch, item: `i${index}`, label: `i${index}` });
    s.nodeStarted({ node: "work", branch }, "script");
    s.finished({ node: "work", branch }, "passed");
    s.ev("branch.finished", { branch, status: "passed", verdict: "ok" });
  }
  return s;
}

function visitsPerBranch(n: number): number {
  const run = mapRun(n);
  ledger.write(run.events);
  const before = branchRowVisits();
  const summary = ledger.runSummary(run.run);
  expect(summary.branches).toHaveLength(n);
  expect(summary.branches[n - 1]!.nodes.map((v) => [v.node, v.status])).toEqual([["work", "passed"]]);
  return (branchRowVisits() - before) / n;
}

describe("the summary of a run of N branches", () => {
  test("each branch looks at its own node rows: the rows looked at per branch do not grow with N", () => {
    // Before: every row of the run per branch (200 and 2,000 here).
    expect(visitsPerBranch(200)).toBe(1);
    expect(visitsPerBranch(2000)).toBe(1);
  });

  test("the run's facts (what resume reads to find the graph) are the summary's, read without a branch's view", () => {
    for (const run of [mapRun(300), fullRun("r-facts-full")]) {
      ledger.write(run.events);
      const before = branchRowVisits();
      const facts = ledger.runFacts(run.run);
      expect(branchRowVisits()).toBe(before); // before: resume built all 300 views for these facts
      expect(facts).toEqual(ledger.runSummary(run.run).run);
    }
    expect(() => ledger.runFacts("r-none")).toThrow(/no run r-none/);
  });
});
