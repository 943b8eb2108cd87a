// Map branches through a BranchExecutor port (ADR 0026): the same graph run in
// process and through an executor that runs each job with the worker's engine
// code gives the same statuses, outputs and verdicts; duplicates are dropped,
// cut-off attempts recorded, a lost executor ends the run error (executor).
import { describe, expect, test } from "vitest";
import { ofType, run, setup } from "./helpers/run-helper.ts";
import { FakeAgentRunner } from "./helpers/fakes.ts";
import { FakeExecutor, type FakeExecutorOptions } from "./helpers/fake-executor.ts";
import { priorFromEvents, runGraph, withDefaultPorts } from "../../src/engine/run.ts";
import type { VouchEvent } from "../../src/engine/events.ts";

const items = Array.from({ length: 6 }, (_, i) => ({ id: `F-${i}` }));
const GRAPH = `
version: 1
name: t
concurrency: 4
inputs: { findings: { required: true } }
nodes:
  prep: { kind: agent, prompt: "prep", output: { format: json } }
  each:
    kind: map
    needs: [prep]
    over: inputs.findings
    as: finding
    passes: any
    branch:
      verify:
        kind: agent
        prompt: "Check {{ finding.id }} with {{ nodes.prep.output.hint }}"
        output: { format: json }
        stamp: { id: "{{ finding.id }}" }
      judge: { kind: agent, prompt: "judge {{ nodes.verify.output.verdict }}", needs: [verify], output: { format: json } }
    verdict: output.verdict
  after: { kind: agent, prompt: "after", needs: [each] }
`;

function agents() {
  return new FakeAgentRunner((a) => {
    if (a.node === "prep") return { resultText: '{"hint":"H"}', costUsd: 0.01 };
    if (a.branch?.index === 2 && a.node === "verify") return { exitCode: 1 };
    if (a.node === "judge")
      return { resultText: `{"verdict":"${a.prompt.endsWith("CONFIRMED") ? "CONFIRMED" : "REFUTED"}"}`, costUsd: 0.02 };
    return { resultText: a.prompt.includes("H") ? '{"verdict":"CONFIRMED"}' : '{"verdict":"NO-HINT"}', costUsd: 0.01 };
  });
}

async function remote(o: FakeExecutorOptions = {}) {
  const x = setup(GRAPH, { agents: agents(), inputs: { findings: items } });
  const ports = withDefaultPorts(x.options.ports);
  const executor = new FakeExecutor(
    () => ({ ...ports }),
    () => x.ledger.events,
    o,
  );
  const outcome = await x.clock.drive(runGraph({ ...x.options, executor }));
  return { outcome, events: x.ledger.events, executor };
}

/** What must not depend on where branches ran. */
function essence(events: VouchEvent[]) {
  return {
    branches: ofType(events, "branch.finished")
      .map((e) => [e.branch.index, e.status, e.verdict, e.output, e.error ?? null])
      .sort(),
    nodes: ofType(events, "node.finished")
      .map((e) => [e.node, e.branch?.index ?? -1, e.status, e.cause, e.output ?? null])
      .sort(),
    // Summed in another order: equal to the cent's billionth.
    run: (({ status, counts, cost_usd, reason }) => ({ status, counts, cost_usd: Math.round(cost_usd * 1e9) / 1e9, reason }))(
      ofType(events, "run.finished")[0]!,
    ),
  };
}

describe("branches through an executor", () => {
  test("the same graph gives the same statuses, outputs, verdicts, counts and cost as in process", async () => {
    const local = await run(GRAPH, { agents: agents(), inputs: { findings: items } });
    const r = await remote({ duplicate: true });
    expect(essence(r.events)).toEqual(essence(local.events));
    expect(essence(r.events).run.status).toBe("passed");
    // Branch nodes read the upstream output through the job, not a copy of the graph file.
    expect(ofType(r.events, "branch.finished").filter((e) => e.verdict === "CONFIRMED")).toHaveLength(5);
    // Every worker event is recorded once, tagged with its worker.
    const tagged = r.events.filter((e) => e.remote !== undefined);
    expect(tagged.length).toBeGreaterThan(0);
    expect(new Set(tagged.map((e) => `${e.remote!.job}:${e.remote!.attempt}:${e.remote!.seq}`)).size).toBe(tagged.length);
    expect(local.events.some((e) => e.type === "branch.dispatched")).toBe(false);
  });

  test("branch.dispatched is committed before the job is created; the job is JSON with names of env vars only", async () => {
    const r = await remote();
    const ids = ofType(r.events, "branch.dispatched").map((e) => e.job);
    expect(ids).toEqual(items.map((_, i) => `run-test.each.${i}.1`));
    r.executor.committedAtDispatch.forEach((seen, i) => expect(seen).toContain(ids[i]));
    const job = r.executor.jobs[0]!;
    expect(job.graph).toMatchObject({ name: "t", nodes: { each: { kind: "map" } } });
    expect(Object.keys(job.graph.nodes as object)).toEqual(["each"]); // only the branch's part
    expect(job.upstream).toMatchObject({ prep: { status: "passed", output: { hint: "H" } } });
    expect(job.graphDigest).toBe("sha256:test");
  });

  test("a cut-off attempt is recorded as cut off, the branch is decided once by the next attempt", async () => {
    // Cut off after verify's node.started, attempt.judged and node.finished: a sitting was paid for.
    const r = await remote({ cutOff: { indexes: [1, 3], afterEvents: 3 } });
    const cut = ofType(r.events, "branch.cut_off");
    expect(cut.map((e) => [e.branch.index, e.attempt, e.worker])).toEqual([
      [1, 1, "w1"],
      [3, 1, "w1"],
    ]);
    for (const i of [1, 3]) expect(ofType(r.events, "branch.finished").filter((e) => e.branch.index === i)).toHaveLength(1);
    const local = await run(GRAPH, { agents: agents(), inputs: { findings: items } });
    expect(essence(r.events).branches).toEqual(essence(local.events).branches);
    const { cost_usd, ...rest } = essence(r.events).run;
    const { cost_usd: localCost, ...localRest } = essence(local.events).run;
    expect(rest).toEqual(localRest);
    // What the cut-off attempts spent was spent: it counts against the run.
    expect(cost_usd).toBeGreaterThan(localCost);
  });

  test("an attempt that sent nothing is cut off with no worker named; a refused result is recorded and cut off once", async () => {
    const r = await remote({ silentFirst: [0], refusedFirst: [4] });
    expect(ofType(r.events, "branch.cut_off").map((e) => [e.branch.index, e.attempt, e.worker])).toEqual([
      [0, 1, ""],
      [4, 1, "w1"],
    ]);
    expect(ofType(r.events, "branch.result_refused")).toMatchObject([{ branch: { index: 4 }, attempt: 1, worker: "w1", status: "passed" }]);
    for (const i of [0, 4]) expect(ofType(r.events, "branch.finished").filter((e) => e.branch.index === i)).toHaveLength(1);
    // The branches are decided by the attempt that held the job, as in process.
    const local = await run(GRAPH, { agents: agents(), inputs: { findings: items } });
    expect(essence(r.events).branches).toEqual(essence(local.events).branches);
  });

  test("a resumed coordinator reading the stream again cuts off no attempt twice", async () => {
    const { priorFromEvents } = await import("../../src/engine/run.ts");
    const first = await remote({ cutOff: { indexes: [1], afterEvents: 2 } });
    const prior = priorFromEvents(first.events);
    const job = ofType(first.events, "branch.cut_off")[0]!.job;
    expect(prior.remote?.attempts?.[job]).toEqual({ last: { attempt: 2, worker: "w2" }, cutOff: [1] });
  });

  test("a lost executor ends the run error with reason executor", async () => {
    const r = await remote({ lose: [0] });
    expect(r.outcome.status).toBe("error");
    expect(r.outcome.reason).toBe("executor");
    expect(ofType(r.events, "branch.finished").find((e) => e.branch.index === 0)).toMatchObject({ status: "error" });
  });
});

describe("a resumed run's new job for a branch that did not pass (issue 31)", () => {
  test("its worker events are recorded: the old job's (attempt, seq) pairs drop only the old job's repeats", async () => {
    const strict = GRAPH.replace("passes: any", "passes: all");
    const one = setup(strict, { agents: agents(), inputs: { findings: items } });
    const onePorts = withDefaultPorts(one.options.ports);
    await one.clock.drive(
      runGraph({
        ...one.options,
        executor: new FakeExecutor(
          () => ({ ...onePorts }),
          () => one.ledger.events,
        ),
      }),
    );
    const first = { events: one.ledger.events };
    expect(ofType(first.events, "node.finished").find((e) => e.node === "verify" && e.branch?.index === 2)?.status).toBe("failed");
    // Resume with the branch's agent fixed: branch 2 is dispatched again, as job dispatch 2.
    const x = setup(strict, {
      agents: new FakeAgentRunner(() => ({ resultText: '{"verdict":"CONFIRMED"}' })),
      inputs: { findings: items },
      options: { resume: priorFromEvents(first.events) },
    });
    const ports = withDefaultPorts(x.options.ports);
    const executor = new FakeExecutor(
      () => ({ ...ports }),
      () => x.ledger.events,
    );
    await x.clock.drive(runGraph({ ...x.options, executor }));
    const again = x.ledger.events;
    expect(ofType(again, "branch.dispatched").map((e) => [e.branch.index, e.dispatch])).toEqual([[2, 2]]);
    // Before the fix these were dropped as repeats of job dispatch 1's (attempt 1, seq n): the ledger had no node of the re-run.
    const verify = ofType(again, "node.finished").filter((e) => e.node === "verify" && e.branch?.index === 2);
    expect(verify.map((e) => [e.status, e.remote?.job])).toEqual([["passed", expect.stringMatching(/\.each\.2\.2$/)]]);
    expect(ofType(again, "branch.finished").map((e) => [e.branch.index, e.status])).toEqual([[2, "passed"]]);
  });
});
