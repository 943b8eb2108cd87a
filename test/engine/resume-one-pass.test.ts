// Resume reads the kept branches in one pass (issue 29): each kept branch of a map
// walked every kept node of the run to count its own (keptBranchCounts), so resuming N
// kept branches was N passes over N nodes: 1.35 s at 1,000, 11.7 s at 8,000, no output
// for 13 minutes at 94,000. Counted, not timed: passes over the kept nodes and reads.
import { describe, expect, test } from "vitest";
import { priorFromEvents } from "../../src/engine/run.ts";
import type { ResumeState } from "../../src/engine/run/types.ts";
import { FakeAgentRunner } from "./helpers/fakes.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

/** A map of `n` items, two agent nodes per branch; the last item crashes the first time. */
function graph(n: number): string {
  const items = Array.from({ length: n }, (_, i) => `i${i}`).join(", ");
  return `
version: 1
name: t
inputs: { items: { default: [${items}] } }
concurrency: 8
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      one: { kind: agent, prompt: "do {{ item }}", output: { format: json } }
      two: { kind: agent, needs: [one], prompt: "again {{ item }}", success: { result_matches: "v" }, output: { format: json } }
    verdict: output.v
`;
}

/** The resume state with its kept nodes behind a proxy that counts whole passes and reads. */
function counted(prior: ResumeState): { resume: ResumeState; passes: () => number; reads: () => number } {
  let passes = 0;
  let reads = 0;
  const nodes = new Proxy(prior.nodes, {
    ownKeys(t) {
      passes++;
      return Reflect.ownKeys(t);
    },
    get(t, k, r) {
      reads++;
      return Reflect.get(t, k, r);
    },
  });
  return { resume: { ...prior, nodes }, passes: () => passes, reads: () => reads };
}

async function resumeOf(n: number) {
  let crashed = false;
  const agents = new FakeAgentRunner((a) => {
    if (a.branch!.index === n - 1 && !crashed) {
      crashed = true;
      return { stopReason: "crashed", error: "boom" };
    }
    return { resultText: `{"v":"${a.prompt}"}` };
  });
  const first = await run(graph(n), { agents });
  expect(first.outcome.status).toBe("error");
  const c = counted(priorFromEvents(first.events));
  const second = await run(graph(n), { agents, options: { resume: c.resume } });
  expect(second.outcome.status).toBe("passed");
  expect(ofType(second.events, "branch.started").map((e) => e.branch.index)).toEqual([n - 1]);
  const results = (finishedOf(second.events, "each").output as { results: unknown[] }).results;
  expect(results).toHaveLength(n);
  return { passes: c.passes(), reads: c.reads(), counts: second.outcome.counts };
}

describe("resume of a map with N kept branches", () => {
  test("the kept nodes are walked a bounded number of times, not once per kept branch", async () => {
    const small = await resumeOf(50);
    const large = await resumeOf(400);
    // Before: one pass per kept branch (49 and 399).
    expect(large.passes).toBe(small.passes);
    expect(large.passes).toBeLessThanOrEqual(2);
    // Reads per kept branch do not grow with N (before: every node per kept branch).
    expect(large.reads / 399).toBeLessThanOrEqual(small.reads / 49 + 1);
  });

  test("the kept branches' nodes still count in the totals, self-reported ones too", async () => {
    const { counts } = await resumeOf(30);
    // 30 branches × 2 nodes, and the map itself.
    expect(counts.passed).toBe(61);
    expect(counts.self_reported).toBe(30);
  });
});
