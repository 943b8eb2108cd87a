// Sessions in the engine, with a fake AgentRunner (ADR 0023): which session
// each assignment carries, the prompt it gets, the carried cost, a branch's
// own session, a feedback round, a resumed run's kept session, and the plan's
// session modes handed to the harness for refusal.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, retryContinueGraph, run } from "./helpers/run-helper.ts";
import { byNode, FakeAgentRunner } from "./helpers/fakes.ts";
import { priorFromEvents } from "../../src/engine/run.ts";

describe("retry: { session: continue }", () => {
  const g = retryContinueGraph;
  test("each retry resumes the session the attempt before reported, with the session's last total, and only the failure as prompt", async () => {
    const r = await run(g, {
      agents: byNode({
        work: [
          { resultText: "not json", sessionId: "s-1", costUsd: 0.1 },
          // claude-like: this sitting's own cost 0.1, the session's total 0.2
          { resultText: "still not", sessionId: "s-1", costUsd: 0.1, sessionCostUsd: 0.2 },
          { resultText: "{}", sessionId: "s-1", costUsd: 0.1, sessionCostUsd: 0.3 },
        ],
      }),
    });
    const a = r.agents.assignments;
    expect(a.map((x) => x.session)).toEqual([
      undefined,
      { mode: "resume", id: "s-1", carriedCostUsd: 0.1 },
      { mode: "resume", id: "s-1", carriedCostUsd: 0.2 },
    ]);
    expect(a[0]!.prompt).toBe("do the work");
    expect(a[1]!.prompt).toMatch(/^Your previous attempt \(attempt 1\) did not pass/);
    expect(a[2]!.prompt).toMatch(/^Your previous attempt \(attempt 2\) did not pass/);
    expect(ofType(r.events, "node.retrying").map((e) => e.session_id)).toEqual(["s-1", "s-1"]);
    const f = finishedOf(r.events, "work");
    expect(f).toMatchObject({ status: "passed", session_id: "s-1", session_cost_usd: 0.3 });
    expect(f.cost_usd).toBeCloseTo(0.3, 9);
  });

  test("a retry whose attempt reported no id starts fresh with the whole prompt, and node.started says why", async () => {
    const r = await run(g, {
      agents: byNode({
        work: [
          { stopReason: "complete", resultText: "x" },
          { resultText: "{}", sessionId: "s-2" },
        ],
      }),
    });
    expect(r.agents.assignments[1]!.session).toBeUndefined();
    expect(r.agents.assignments[1]!.prompt).toMatch(/^do the work\n\n---\nYour previous attempt/);
    expect(ofType(r.events, "node.started")[1]!.session).toEqual({
      mode: "fresh",
      node: "work",
      attempt: 1,
      note: "attempt 1 reported no session id: this retry is a fresh sitting with the whole prompt",
    });
  });
});

describe("session: { continue | fork: NODE }", () => {
  test("continue hands NODE's id and its total; fork too; a node with no id is an error that starts nothing", async () => {
    const g = `
version: 1
name: t
nodes:
  impl: { kind: agent, prompt: "impl" }
  fix: { kind: agent, prompt: "fix", needs: [impl], session: { continue: impl } }
  alt: { kind: agent, prompt: "alt", needs: [fix], session: { fork: impl } }
`;
    const r = await run(g, {
      agents: byNode({
        impl: [{ sessionId: "s-impl", costUsd: 0.5 }],
        fix: [{ sessionId: "s-impl", costUsd: 0.2, sessionCostUsd: 0.7 }],
        alt: [{ sessionId: "s-alt", costUsd: 0.1, sessionCostUsd: 0.8 }],
      }),
    });
    const by = (n: string) => r.agents.assignments.find((a) => a.node === n)!;
    expect(by("fix").session).toEqual({ mode: "resume", id: "s-impl", carriedCostUsd: 0.5 });
    expect(by("fix").prompt).toBe("fix");
    // fix went on in impl's session: the fork starts from its latest total.
    expect(by("alt").session).toEqual({ mode: "fork", id: "s-impl", carriedCostUsd: 0.7 });
    expect(r.agents.plans.find((p) => p.node === "alt")!.sessionModes).toEqual(["fork"]);

    const none = await run(g, { agents: byNode({ impl: [{ costUsd: 0.5 }] }) });
    expect(none.agents.assignments.map((a) => a.node)).toEqual(["impl"]);
    expect(finishedOf(none.events, "fix")).toMatchObject({ status: "error", cause: "unavailable", attempt: 0 });
    expect(finishedOf(none.events, "alt")).toMatchObject({ status: "skipped" });
  });

  test("in a map, each branch continues its own branch's session", async () => {
    const g = `
version: 1
name: t
inputs: { xs: { default: [a, b, c] } }
nodes:
  each:
    kind: map
    over: inputs.xs
    branch:
      draft: { kind: agent, prompt: "draft {{ item }}" }
      polish: { kind: agent, prompt: "polish {{ item }}", needs: [draft], session: { continue: draft } }
`;
    const agents = new FakeAgentRunner((a) => ({ sessionId: `draft-${a.branch!.index}` }));
    const r = await run(g, { agents });
    const polish = agents.assignments.filter((a) => a.node === "polish").sort((x, y) => x.branch!.index - y.branch!.index);
    expect(polish.map((a) => a.session?.id)).toEqual(["draft-0", "draft-1", "draft-2"]);
    expect(r.outcome.status).toBe("passed");
  });

  test("after a resume, a node continuing a kept node gets its session id from the ledger, counted from the session's last total", async () => {
    const g = `
version: 1
name: t
nodes:
  impl: { kind: agent, prompt: "impl" }
  fix: { kind: agent, prompt: "fix", needs: [impl], session: { continue: impl } }
`;
    const first = await run(g, {
      agents: byNode({
        impl: [{ sessionId: "s-impl", costUsd: 0.5 }],
        fix: [{ sessionId: "s-impl", exitCode: 1, costUsd: 0.2, sessionCostUsd: 0.7 }],
      }),
    });
    expect(finishedOf(first.events, "fix").status).toBe("failed");
    const prior = priorFromEvents(first.events);
    expect(prior.nodes.impl).toMatchObject({ sessionId: "s-impl", sessionCostUsd: 0.5 });
    expect(prior.sessionCosts).toEqual({ "s-impl": 0.7 });
    const second = await run(g, { options: { resume: prior, runId: "run-test" } });
    expect(second.agents.assignments.map((a) => [a.node, a.session])).toEqual([
      ["fix", { mode: "resume", id: "s-impl", carriedCostUsd: 0.7 }],
    ]);
  });
});
