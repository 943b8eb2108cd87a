// Resume: what passed is kept (not re-run) and feeds the rest; seq continues.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";
import { FakeAgentRunner, FakeApprovals } from "./helpers/fakes.ts";
import { priorFromEvents } from "../../src/engine/run.ts";
import type { VouchEvent } from "../../src/engine/events.ts";

const graph = `
version: 1
name: t
nodes:
  parse: { kind: agent, prompt: "parse", output: { format: json } }
  fix: { kind: agent, prompt: "fix {{ nodes.parse.output.file }}", needs: [parse] }
  report: { kind: end, needs: [fix], output: { file: "{{ nodes.parse.output.file }}" } }
`;

describe("priorFromEvents", () => {
  test("keeps the last node.finished per node when it passed, with its output; startSeq follows the last seq", async () => {
    const first = await run(graph, { agents: (a) => (a.node === "parse" ? { resultText: '{"file":"a.ts"}' } : { exitCode: 1 }) });
    const prior = priorFromEvents(first.events);
    expect(prior.nodes).toEqual({ parse: { qualifier: "exit-only", output: { file: "a.ts" } } });
    expect(prior.startSeq).toBe(first.events[first.events.length - 1]!.seq + 1);
    // a later failure of the same node wins over an earlier pass
    const later = [...first.events, { ...finishedOf(first.events, "parse"), seq: 999, status: "failed" } as VouchEvent];
    expect(priorFromEvents(later).nodes).toEqual({});
  });
});

describe("resume", () => {
  test("passed nodes are not re-run, their outputs feed the rest, events continue the sequence", async () => {
    const first = await run(graph, { agents: (a) => (a.node === "parse" ? { resultText: '{"file":"a.ts"}' } : { exitCode: 1 }) });
    expect(first.outcome.status).toBe("failed");
    const prior = priorFromEvents(first.events);
    const second = await run(graph, { options: { resume: prior, runId: "run-test" } });
    expect(second.agents.assignments.map((a) => a.node)).toEqual(["fix"]);
    expect(second.agents.prompts("fix")).toEqual(["fix a.ts"]);
    expect(second.events[0]).toMatchObject({ type: "run.started", resumed: true, seq: prior.startSeq });
    expect(ofType(second.events, "node.finished").map((e) => e.node)).toEqual(["fix", "report"]);
    expect(second.outcome).toMatchObject({ status: "passed", output: { file: "a.ts" } });
    expect(second.outcome.counts.passed).toBe(3); // the kept node counts as passed
  });

  test("map branches that passed are not re-run; the map's results still hold every branch in order", async () => {
    const mapGraph = `
version: 1
name: t
inputs: { items: { default: [a, b, c, d] } }
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      one: { kind: agent, prompt: "do {{ item }}", output: { format: json } }
    verdict: output.v
`;
    const flaky = new FakeAgentRunner((a) =>
      a.branch!.index % 2 === 1 ? { stopReason: "crashed", error: "boom" } : { resultText: `{"v":"${a.prompt}"}` },
    );
    const first = await run(mapGraph, { agents: flaky });
    expect(first.outcome.status).toBe("error");
    const prior = priorFromEvents(first.events);
    expect(Object.keys(prior.branches).sort()).toEqual(["each#0", "each#2"]);
    const second = await run(mapGraph, { agents: (a) => ({ resultText: `{"v":"again ${a.prompt}"}` }), options: { resume: prior } });
    expect(second.agents.assignments.map((a) => a.branch!.index).sort()).toEqual([1, 3]);
    const results = (finishedOf(second.events, "each").output as { results: { index: number; verdict: string; status: string }[] }).results;
    expect(results.map((r) => [r.index, r.verdict, r.status])).toEqual([
      [0, "do a", "passed"],
      [1, "again do b", "passed"],
      [2, "do c", "passed"],
      [3, "again do d", "passed"],
    ]);
    expect(ofType(second.events, "branch.started").map((e) => e.branch.index)).toEqual([1, 3]);
    expect(second.outcome.status).toBe("passed");
  });

  test("a run paused at an approval resumes and continues from the approval", async () => {
    const g = `
version: 1
name: t
nodes:
  plan: { kind: agent, prompt: "plan" }
  gate: { kind: approval, needs: [plan] }
  apply: { kind: agent, prompt: "apply", needs: [gate] }
`;
    const first = await run(g, { approvals: new FakeApprovals({ gate: "pause" }) });
    expect(first.outcome.exitCode).toBe(4);
    const second = await run(g, { approvals: new FakeApprovals({ gate: "approve" }), options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.assignments.map((a) => a.node)).toEqual(["apply"]);
    expect(finishedOf(second.events, "gate").qualifier).toBe("approved");
    expect(second.outcome.exitCode).toBe(0);
  });
});

describe("resume counts", () => {
  test("nodes of kept branches still count as passed", async () => {
    const g = `
version: 1
name: t
inputs: { items: { default: [a, b] } }
nodes:
  each: { kind: map, over: inputs.items, branch: { one: { kind: agent, prompt: "{{ item }}" } } }
`;
    const first = await run(g, { agents: (a) => (a.branch!.index === 1 ? { exitCode: 1 } : {}) });
    expect(first.outcome.counts).toMatchObject({ passed: 1, failed: 2 }); // branch node b + the map
    const second = await run(g, { options: { resume: priorFromEvents(first.events) } });
    expect(second.outcome.counts).toEqual({ passed: 3, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 });
  });
});

describe("resume inside a feedback loop (kill -9 during a later round)", () => {
  const loop = `
version: 1
name: t
nodes:
  write: { kind: agent, prompt: "write" }
  review:
    kind: agent
    needs: [write]
    prompt: review
    output: { format: json }
    feedback: { to: write, max: 2, when: { nodes.review.output.decision: fix } }
  decide:
    kind: router
    needs: [review]
    routes: [{ when: { nodes.review.output.decision: clean }, to: [ok] }]
    default: [gave_up]
  ok: { kind: end, status: success }
  gave_up: { kind: end, status: failure }
`;
  // The review asks for a fix on its first round and is clean on the next.
  const reviewer = () => {
    let reviews = 0;
    return (a: { node: string }) =>
      a.node === "review" ? { resultText: reviews++ === 0 ? '{"decision":"fix"}' : '{"decision":"clean"}' } : {};
  };

  test("the round the loop was replacing is not kept: the resumed run ends as the uninterrupted one", async () => {
    const whole = await run(loop, { agents: reviewer() });
    expect(whole.outcome.status).toBe("passed");
    // vouch is killed -9 while write runs its second round: the ledger holds round 1's
    // node.finished of write and of review (decision: fix), then write's second node.started.
    const cut = whole.events.findIndex((e) => e.type === "node.started" && e.node === "write" && e.round === 2);
    expect(cut).toBeGreaterThan(0);
    const prior = priorFromEvents(whole.events.slice(0, cut + 1));
    expect(Object.keys(prior.nodes)).not.toContain("write");
    const resumed = await run(loop, { agents: reviewer(), options: { resume: prior } });
    expect(resumed.agents.assignments.map((a) => a.node)).toContain("review"); // review's round-1 "fix" is not a final result
    expect(finishedOf(resumed.events, "gave_up")).toMatchObject({ status: "skipped" });
    expect(resumed.outcome).toMatchObject({ status: "passed", exitCode: 0 });
  });
});

describe("resume after a router", () => {
  test("a kept router keeps its choice: the targets it did not choose stay skipped", async () => {
    const g = `
version: 1
name: t
inputs: { mode: { default: b } }
nodes:
  pick:
    kind: router
    routes: [{ when: { inputs.mode: a }, to: [path_a] }]
    default: [path_b]
  path_a: { kind: agent, prompt: "a" }
  path_b: { kind: agent, prompt: "b" }
`;
    const first = await run(g, { agents: (a) => (a.node === "path_b" ? { exitCode: 1 } : {}) });
    expect(first.outcome.status).toBe("failed");
    const second = await run(g, { options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.assignments.map((a) => a.node)).toEqual(["path_b"]);
    expect(finishedOf(second.events, "path_a")).toMatchObject({ status: "skipped", cause: "not_chosen" });
    expect(second.outcome.status).toBe("passed");
  });
});

describe("resume after a fallback", () => {
  test("a fallback that ran is decided again when its owner runs again: it is not kept", async () => {
    const g = `
version: 1
name: t
nodes:
  work: { kind: agent, prompt: "work", fallback: triage }
  triage:
    kind: router
    routes: [{ when: { nodes.work.status: failed }, to: [failed_end] }]
    default: [error_end]
  failed_end: { kind: end, status: failure, output: { why: "{{ nodes.work.error }}" } }
  error_end: { kind: end, status: error, output: { why: "{{ nodes.work.error }}" } }
  done: { kind: end, needs: [work], output: { ok: true } }
`;
    const first = await run(g, { agents: () => ({ stopReason: "turns", error: "turn cap" }) });
    expect(first.outcome.status).toBe("error");
    // The sitting passes when the run is resumed: no trace of the first session's fallback path.
    const second = await run(g, { options: { resume: priorFromEvents(first.events) } });
    expect(finishedOf(second.events, "triage")).toMatchObject({ status: "skipped", cause: "fallback_unused" });
    expect(ofType(second.events, "node.started").map((e) => e.node)).toEqual(["work", "done"]);
    expect(second.outcome).toMatchObject({ status: "passed", output: { ok: true } });
  });
});

describe("resume after exhausted", () => {
  test("a node that was recovered runs again, so what was computed from its exhausted output runs again too", async () => {
    const g = `
version: 1
name: t
nodes:
  x: { kind: agent, prompt: "x", exhausted: { output: "stale" } }
  d: { kind: agent, prompt: "use {{ nodes.x.output }}", needs: [x] }
  z: { kind: agent, prompt: "z" }
`;
    const first = await run(g, { agents: (a) => (a.node === "d" ? { resultText: "ok" } : { exitCode: 1 }) });
    expect(first.outcome.status).toBe("failed");
    expect(first.agents.prompts("d")).toEqual(["use stale"]);
    const second = await run(g, {
      agents: (a) => ({ resultText: a.node === "x" ? "fresh" : "ok" }),
      options: { resume: priorFromEvents(first.events) },
    });
    expect(second.agents.prompts("d")).toEqual(["use fresh"]);
    expect(second.outcome.status).toBe("passed");
  });

  test("an approval that ran on an exhausted output is asked again (a new question), not kept", async () => {
    const g = `
version: 1
name: t
nodes:
  x: { kind: agent, prompt: "x", exhausted: { output: "stale" } }
  gate: { kind: approval, needs: [x], prompt: "ship {{ nodes.x.output }}?" }
  z: { kind: agent, prompt: "z", needs: [gate] }
`;
    const first = await run(g, { agents: () => ({ exitCode: 1 }), approvals: new FakeApprovals({ gate: "approve" }) });
    expect(finishedOf(first.events, "gate").qualifier).toBe("approved");
    const approvals = new FakeApprovals({ gate: "pause" });
    const second = await run(g, { agents: () => ({ resultText: "fresh" }), approvals, options: { resume: priorFromEvents(first.events) } });
    expect(approvals.requests.map((r) => r.prompt)).toEqual(["ship fresh?"]);
    expect(second.outcome.exitCode).toBe(4);
  });
});
