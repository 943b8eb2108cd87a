// Sub-graphs in the engine (ADR 0024), with fakes and virtual time: the
// sub-graph's own concurrency, its wall cap, a map inside it, its budget
// offered to sittings, an approval inside it, and nested sub-graphs.
import { describe, expect, test } from "vitest";
import { graphOf, finishedOf, ofType, run, runFinished } from "./helpers/run-helper.ts";
import { FakeAgentRunner, FakeApprovals, untilAborted } from "./helpers/fakes.ts";

const subs = (files: Record<string, string>) => ({
  options: { subgraphs: new Map(Object.entries(files).map(([p, t]) => [`/work/${p}`, graphOf(t)])) },
});

describe("sub-graphs in the engine", () => {
  test("the sub-graph's concurrency bounds its own sittings, under the run's", async () => {
    const agents = new FakeAgentRunner(async () => {
      await new Promise((r) => setImmediate(r));
      return {};
    });
    const inner = `version: 1\nname: inner\nconcurrency: 2\nnodes:\n${[0, 1, 2, 3, 4].map((i) => `  n${i}: { kind: agent, prompt: p }`).join("\n")}\n`;
    const r = await run(`version: 1\nname: t\nconcurrency: 4\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
      agents,
      ...subs({ "inner.yaml": inner }),
    });
    expect(r.outcome.status).toBe("passed");
    expect(agents.maxLive).toBe(2);
    expect(r.agents.assignments.map((a) => a.node).sort()).toEqual(["s/n0", "s/n1", "s/n2", "s/n3", "s/n4"]);
  });

  test("the node's wall cap stops the sub-graph (cap.overrun on the node, cap_stop inside and on it); the run goes on", async () => {
    const agents = new FakeAgentRunner((a, hooks) => (a.node === "s/slow" ? untilAborted(hooks.signal) : {}));
    const inner = `version: 1\nname: inner\nnodes:\n  slow: { kind: agent, prompt: p }\n`;
    const r = await run(
      `version: 1\nname: t\nnodes:\n  s: { kind: graph, use: ./inner.yaml, caps: { wall: 5m } }\n  other: { kind: agent, prompt: q }\n`,
      { agents, ...subs({ "inner.yaml": inner }) },
    );
    expect(ofType(r.events, "cap.overrun")).toEqual([expect.objectContaining({ node: "s", scope: "node", cap: "wall", limit: 300_000 })]);
    expect(finishedOf(r.events, "s/slow")).toMatchObject({ status: "error", cause: "cap_stop" });
    expect(finishedOf(r.events, "s")).toMatchObject({ status: "error", cause: "cap_stop" });
    expect(finishedOf(r.events, "other").status).toBe("passed");
  });

  test("a sitting inside is offered the least of the sub-graph's budget left and the run's", async () => {
    const agents = new FakeAgentRunner(() => ({ costUsd: 0.25 }));
    const inner = `version: 1\nname: inner\ncaps: { budget_usd: 3 }\nnodes:\n  a: { kind: agent, prompt: p }\n  b: { kind: agent, prompt: p, needs: [a] }\n`;
    await run(`version: 1\nname: t\ncaps: { budget_usd: 10 }\nnodes:\n  s: { kind: graph, use: ./inner.yaml, caps: { budget_usd: 1 } }\n`, {
      agents,
      ...subs({ "inner.yaml": inner }),
    });
    // The node's $1 is tighter than the file's $3 and the run's $10; b gets what a left of it.
    expect(agents.assignments.map((a) => [a.node, a.runBudgetLeftUsd])).toEqual([
      ["s/a", 1],
      ["s/b", 0.75],
    ]);
  });

  test("a map inside a sub-graph: ids review/m and review/b, the branch names the prefixed map", async () => {
    const inner = `version: 1\nname: inner\ninputs:\n  xs: { required: true }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      b: { kind: agent, prompt: "{{ item }}" }\n`;
    const r = await run(`version: 1\nname: t\nnodes:\n  review: { kind: graph, use: ./inner.yaml, inputs: { xs: [x, y] } }\n`, {
      ...subs({ "inner.yaml": inner }),
    });
    expect(r.outcome.status).toBe("passed");
    expect(
      ofType(r.events, "node.finished")
        .filter((e) => e.node === "review/b")
        .map((e) => e.branch),
    ).toEqual([
      { map: "review/m", index: 0 },
      { map: "review/m", index: 1 },
    ]);
    expect(finishedOf(r.events, "review/m").status).toBe("passed");
    expect(r.outcome.counts.passed).toBe(4); // review/b twice, review/m, review
  });

  test("nested sub-graphs: ids outer/inner/x, and the output climbs back", async () => {
    const leaf = `version: 1\nname: leaf\ninputs:\n  v: {}\nnodes:\n  x: { kind: end, output: { got: "{{ inputs.v }}" } }\n`;
    const mid = `version: 1\nname: mid\nnodes:\n  inner: { kind: graph, use: ./leaf.yaml, inputs: { v: 7 } }\n  out: { kind: end, needs: [inner], output: "{{ nodes.inner.output }}" }\n`;
    const r = await run(`version: 1\nname: t\nnodes:\n  outer: { kind: graph, use: ./mid.yaml }\n`, {
      ...subs({ "mid.yaml": mid, "leaf.yaml": leaf }),
    });
    expect(finishedOf(r.events, "outer/inner/x").output).toEqual({ got: 7 });
    expect(finishedOf(r.events, "outer").output).toEqual({ got: 7 });
    expect(runFinished(r.events).status).toBe("passed");
  });

  test("an approval inside a sub-graph asks as review/ok, and its answer decides the node", async () => {
    const approvals = new FakeApprovals({ "review/ok": "reject" });
    const inner = `version: 1\nname: inner\nnodes:\n  ok: { kind: approval, prompt: "ship?" }\n`;
    const r = await run(`version: 1\nname: t\nnodes:\n  review: { kind: graph, use: ./inner.yaml }\n`, {
      approvals,
      ...subs({ "inner.yaml": inner }),
    });
    expect(approvals.requests.map((q) => q.node)).toEqual(["review/ok"]);
    expect(finishedOf(r.events, "review")).toMatchObject({ status: "failed", cause: "graph_failed" });
  });

  test("the worst qualifier of the passes inside is the node's", async () => {
    const agents = new FakeAgentRunner(() => ({ resultText: "DONE" }));
    const inner = `version: 1\nname: inner\nchecks:\n  t: { run: "true" }\nnodes:\n  v: { kind: agent, prompt: p, success: { checks: [t] } }\n  s: { kind: agent, prompt: p, success: { result_matches: DONE } }\n`;
    const r = await run(`version: 1\nname: t\nnodes:\n  g: { kind: graph, use: ./inner.yaml }\n`, {
      agents,
      ...subs({ "inner.yaml": inner }),
    });
    expect(finishedOf(r.events, "g/v").qualifier).toBe("verified");
    expect(finishedOf(r.events, "g/s").qualifier).toBe("self-reported");
    expect(finishedOf(r.events, "g").qualifier).toBe("self-reported");
  });
});
