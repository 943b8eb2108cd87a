// Approvals (approve, reject, pause → exit 4) and cancellation (→ exit 130).
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run, runFinished, setup } from "./helpers/run-helper.ts";
import { FakeAgentRunner, FakeApprovals, FakeCommandRunner, untilAborted } from "./helpers/fakes.ts";
import { runGraph } from "../../src/engine/run.ts";

const gated = `
version: 1
name: t
nodes:
  plan: { kind: agent, prompt: "plan" }
  gate: { kind: approval, needs: [plan], prompt: "Apply {{ nodes.plan.output }}?" }
  apply: { kind: agent, prompt: "apply", needs: [gate] }
  docs: { kind: agent, prompt: "docs" }
`;

describe("approvals", () => {
  test("approve → passed (approved) and the work behind it runs", async () => {
    const approvals = new FakeApprovals({ gate: "approve" });
    const r = await run(gated, { approvals, agents: () => ({ resultText: "the plan" }) });
    expect(approvals.requests).toEqual([{ node: "gate", prompt: "Apply the plan?" }]);
    expect(finishedOf(r.events, "gate")).toMatchObject({ status: "passed", qualifier: "approved" });
    expect(finishedOf(r.events, "apply").status).toBe("passed");
    expect(r.outcome.status).toBe("passed");
  });

  test("reject → failed (rejected); what waits on it is skipped", async () => {
    const r = await run(gated, { approvals: new FakeApprovals({ gate: "reject" }) });
    expect(finishedOf(r.events, "gate")).toMatchObject({ status: "failed", cause: "rejected" });
    expect(finishedOf(r.events, "apply")).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(r.outcome).toMatchObject({ status: "failed", exitCode: 1 });
  });

  test("pause → independent work goes on; then run.paused and exit 4", async () => {
    const r = await run(gated, { approvals: new FakeApprovals({ gate: "pause" }) });
    expect(finishedOf(r.events, "docs").status).toBe("passed");
    expect(ofType(r.events, "node.finished").map((e) => e.node)).not.toContain("gate");
    expect(r.agents.assignments.map((a) => a.node)).not.toContain("apply");
    const types = r.events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(["run.paused", "run.finished"]);
    expect(ofType(r.events, "run.paused")[0]!.approvals).toEqual([{ node: "gate", prompt: "Apply done?" }]);
    expect(r.outcome).toMatchObject({ status: "paused", exitCode: 4 });
    expect(runFinished(r.events).counts).toEqual({ passed: 2, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0, paused: 1 });
  });

  test("approvals inside map branches: a paused branch frees its place so every branch is asked", async () => {
    const approvals = new FakeApprovals({ ok: "pause" });
    const r = await run(
      `
version: 1
name: t
inputs: { items: { default: [a, b, c, d] } }
nodes:
  each:
    kind: map
    over: inputs.items
    max_concurrency: 1
    branch:
      ok: { kind: approval, prompt: "ship {{ item }}?" }
      go: { kind: agent, prompt: "go {{ item }}", needs: [ok] }
`,
      { approvals },
    );
    expect(approvals.requests.map((q) => q.prompt)).toEqual(["ship a?", "ship b?", "ship c?", "ship d?"]);
    expect(ofType(r.events, "run.paused")[0]!.approvals.map((a) => a.branch?.index)).toEqual([0, 1, 2, 3]);
    expect(r.outcome.exitCode).toBe(4);
  });
});

describe("cancellation", () => {
  test("the signal cancels live sittings and checks, cancels what has not started, and ends interrupted (130)", async () => {
    const ctl = new AbortController();
    const checkSignals: AbortSignal[] = [];
    let started = 0;
    const agents = new FakeAgentRunner((_a, hooks) => {
      if (++started === 2) queueMicrotask(() => ctl.abort()); // Ctrl-C while both run
      return untilAborted(hooks.signal);
    });
    const commands = new FakeCommandRunner(undefined, (_spec, ctx) => {
      checkSignals.push(ctx.signal);
      return new Promise((resolve) =>
        ctx.signal.addEventListener("abort", () => resolve({ exit: null, signal: "SIGTERM", terminationReason: "cancelled" })),
      );
    });
    const x = setup(
      `
version: 1
name: t
nodes:
  a: { kind: agent, prompt: a }
  b: { kind: agent, prompt: b }
  s: { kind: script, run: "sleep 100" }
  c: { kind: agent, prompt: c, needs: [a] }
`,
      { agents, commands, options: { signal: ctl.signal } },
    );
    const outcome = await x.clock.drive(runGraph(x.options));
    const events = x.ledger.events;
    expect(agents.aborted.sort()).toEqual(["a", "b"]);
    expect(checkSignals[0]!.aborted).toBe(true);
    expect(finishedOf(events, "a")).toMatchObject({ status: "cancelled", cause: "cancelled", stop_reason: "cancelled" });
    expect(finishedOf(events, "s")).toMatchObject({ status: "cancelled", cause: "cancelled" });
    expect(finishedOf(events, "c")).toMatchObject({ status: "cancelled", attempt: 0 });
    expect(agents.assignments.map((a) => a.node)).not.toContain("c");
    expect(outcome).toMatchObject({ status: "interrupted", exitCode: 130, reason: "interrupted" });
    expect(runFinished(events).counts.cancelled).toBe(4);
  });

  test("a signal already aborted before the run: nothing runs, exit 130", async () => {
    const ctl = new AbortController();
    ctl.abort();
    const r = await run(`version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: a }\n`, { options: { signal: ctl.signal } });
    expect(r.outcome.exitCode).toBe(130);
    expect(r.agents.assignments).toHaveLength(0);
  });

  test("a paused approval is cancelled by Ctrl-C instead of pausing the run", async () => {
    const ctl = new AbortController();
    const agents = new FakeAgentRunner((_a, hooks) => {
      queueMicrotask(() => ctl.abort());
      return untilAborted(hooks.signal);
    });
    const r = await run(gated, { agents, approvals: new FakeApprovals({ gate: "pause" }), options: { signal: ctl.signal } });
    expect(r.outcome.status).toBe("interrupted");
    expect(ofType(r.events, "run.paused")).toHaveLength(0);
  });
});
