// Map branches: failures, fail_fast, exhausted, passes, stamps, verdicts.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";
import { FakeAgentRunner, untilAborted } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";

const items = [{ id: "F-0" }, { id: "F-1" }, { id: "F-2" }, { id: "F-3" }, { id: "F-4" }];

function mapGraph(extra = "", branchExtra = "") {
  return `
version: 1
name: t
concurrency: 8
inputs: { findings: { required: true } }
nodes:
  each:
    kind: map
    over: inputs.findings
    as: finding
${extra}
    branch:
      verify:
        kind: agent
        prompt: "Check {{ finding.id }}"
        output: { format: json, schema: { type: object, required: [verdict, id], properties: { verdict: { enum: [CONFIRMED, REFUTED, UNVERIFIABLE] } } } }
        stamp: { id: "{{ finding.id }}" }
${branchExtra}
    verdict: output.verdict
  after: { kind: agent, prompt: "after", needs: [each] }
`;
}

const results = (r: { events: Parameters<typeof finishedOf>[0] }) =>
  (
    finishedOf(r.events, "each").output as {
      results: {
        index: number;
        status: string;
        verdict: unknown;
        output: Record<string, unknown> | null;
        error: string | null;
        recovered?: boolean;
      }[];
    }
  ).results;

describe("map branches", () => {
  test("a failed branch is recorded and the others still finish; passes: all makes the map fail", async () => {
    const agents = new FakeAgentRunner((a) => (a.branch?.index === 2 ? { exitCode: 1 } : { resultText: '{"verdict":"CONFIRMED"}' }));
    const r = await run(mapGraph(), { agents, inputs: { findings: items } });
    const res = results(r);
    expect(res.map((x) => x.status)).toEqual(["passed", "passed", "failed", "passed", "passed"]);
    expect(res[2]!.error).toBe("exited with status 1");
    expect(res[2]!.verdict).toBeNull();
    expect(agents.aborted).toEqual([]); // nobody was cancelled
    expect(finishedOf(r.events, "each")).toMatchObject({ status: "failed", cause: "map_failed" });
    expect(finishedOf(r.events, "after")).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(r.outcome.status).toBe("failed");
  });

  test("passes: any / min — the map passes and its dependents run despite a failed branch", async () => {
    const agents = () => new FakeAgentRunner((a) => (a.branch?.index === 2 ? { exitCode: 1 } : { resultText: '{"verdict":"CONFIRMED"}' }));
    const any = await run(mapGraph("    passes: any"), { agents: agents(), inputs: { findings: items } });
    expect(finishedOf(any.events, "each").status).toBe("passed");
    expect(finishedOf(any.events, "after").status).toBe("passed");
    // The failed branch is still counted: the run is not all green.
    expect(any.outcome.counts.failed).toBe(1);
    const min4 = await run(mapGraph("    passes: { min: 4 }"), { agents: agents(), inputs: { findings: items } });
    expect(finishedOf(min4.events, "each").status).toBe("passed");
    const min5 = await run(mapGraph("    passes: { min: 5 }"), { agents: agents(), inputs: { findings: items } });
    expect(finishedOf(min5.events, "each")).toMatchObject({ status: "failed", cause: "map_failed" });
    expect(finishedOf(min5.events, "each").error).toContain("4 of 5 branches passed");
  });

  test("fail_fast: the first failed branch cancels the live ones; unstarted ones are cancelled", async () => {
    const clock = new FakeClock();
    const agents = new FakeAgentRunner(async (a, hooks) => {
      if (a.branch!.index === 1) {
        await clock.sleep(10);
        return { exitCode: 1 };
      }
      return untilAborted(hooks.signal);
    });
    const r = await run(mapGraph("    fail_fast: true\n    max_concurrency: 3"), { agents, clock, inputs: { findings: items } });
    const res = results(r);
    expect(res.map((x) => x.status)).toEqual(["cancelled", "failed", "cancelled", "cancelled", "cancelled"]);
    expect(agents.aborted.sort()).toEqual(["verify[0]", "verify[2]"]); // the live ones got their signal
    expect(agents.assignments.map((a) => a.branch!.index).sort()).toEqual([0, 1, 2]); // 3 and 4 never started
    expect(
      ofType(r.events, "branch.started")
        .map((e) => e.branch.index)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect(ofType(r.events, "branch.finished")).toHaveLength(5);
    expect(finishedOf(r.events, "each")).toMatchObject({ status: "failed", cause: "map_failed" });
    expect(r.outcome.status).toBe("failed"); // fail_fast cancels branches, not the run
  });

  test("exhausted: a branch that never passes records the fallback output, is kept, and the map passes", async () => {
    const agents = new FakeAgentRunner((a) =>
      a.branch?.index === 3 ? { resultText: "I could not decide" } : { resultText: '{"verdict":"CONFIRMED","id":"WRONG"}' },
    );
    const r = await run(
      mapGraph(
        "",
        `        retry: { max: 1, on: [output_invalid] }
        exhausted: { output: { verdict: UNVERIFIABLE, note: "{{ error }}" } }`,
      ),
      { agents, inputs: { findings: items } },
    );
    const res = results(r);
    expect(res[3]).toMatchObject({ status: "failed", verdict: "UNVERIFIABLE", recovered: true });
    expect(res[3]!.output).toMatchObject({ verdict: "UNVERIFIABLE", id: "F-3" }); // stamped too
    expect(String(res[3]!.output!.note)).toContain("output is not JSON");
    expect(agents.assignments.filter((a) => a.branch?.index === 3)).toHaveLength(2); // retried once first
    const node = finishedOf(r.events, "verify", 3);
    expect(node).toMatchObject({ status: "failed", cause: "output_invalid", recovered: true });
    const bf = ofType(r.events, "branch.finished").find((e) => e.branch.index === 3)!;
    expect(bf).toMatchObject({ status: "failed", recovered: true, verdict: "UNVERIFIABLE" });
    expect(finishedOf(r.events, "each").status).toBe("passed");
    expect(finishedOf(r.events, "after").status).toBe("passed");
    expect(r.outcome.status).toBe("passed");
    expect(r.outcome.counts.failed).toBe(1); // visible in the counts
  });

  test("stamps: authoritative fields come from the item, not from the model", async () => {
    const agents = new FakeAgentRunner(() => ({ resultText: '```json\n{"verdict":"CONFIRMED","id":"F-999"}\n```' }));
    const r = await run(mapGraph(), { agents, inputs: { findings: items } });
    expect(results(r).map((x) => x.output!.id)).toEqual(["F-0", "F-1", "F-2", "F-3", "F-4"]);
  });

  test("an error branch (cap stop) makes the map an error, never a failure", async () => {
    const agents = new FakeAgentRunner((a) =>
      a.branch?.index === 0 ? { stopReason: "turns", turns: 9, exitCode: 1 } : { resultText: '{"verdict":"CONFIRMED"}' },
    );
    const r = await run(mapGraph(), { agents, inputs: { findings: items } });
    expect(results(r)[0]).toMatchObject({ status: "error" });
    expect(finishedOf(r.events, "each")).toMatchObject({ status: "error", cause: "map_error" });
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3 });
  });

  test("a branch of several nodes: output is its sink's, nodes see outer results and their own", async () => {
    const agents = new FakeAgentRunner((a) => {
      if (a.node === "plan") return { resultText: '{"steps": 2}' };
      if (a.node === "fix") return { resultText: '{"patched": true}' };
      return { resultText: '{"title": "fix everything"}' };
    });
    const r = await run(
      `
version: 1
name: t
nodes:
  intro: { kind: agent, prompt: "i", output: { format: json } }
  each:
    kind: map
    needs: [intro]
    over: inputs.list
    branch:
      plan: { kind: agent, prompt: "{{ nodes.intro.output.title }} / {{ item }} #{{ index }}", output: { format: json } }
      fix: { kind: agent, prompt: "steps {{ nodes.plan.output.steps }}", needs: [plan], output: { format: json } }
inputs: { list: { default: [a, b] } }
`,
      { agents },
    );
    expect(r.agents.prompts("plan")).toEqual(["fix everything / a #0", "fix everything / b #1"]);
    expect(r.agents.prompts("fix")).toEqual(["steps 2", "steps 2"]);
    expect(ofType(r.events, "branch.finished").map((e) => e.output)).toEqual([{ patched: true }, { patched: true }]);
  });
});
