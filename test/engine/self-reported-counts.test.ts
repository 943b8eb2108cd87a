// run.finished counts self-reported passes apart (issue 12 item 5): the count
// follows the node's final result through feedback rounds and resumes, so a
// self-report is counted once per node, and only while it stands.
import { describe, expect, test } from "vitest";
import { priorFromEvents } from "../../src/engine/run.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { finishedOf, run, runFinished } from "./helpers/run-helper.ts";

const loop = `
version: 1
name: t
nodes:
  implement: { kind: agent, prompt: "Implement.", success: { result_matches: "DONE" } }
  verify: { kind: script, run: "bun test", needs: [implement], feedback: { to: implement, max: 3 } }
`;

describe("self-reported counts", () => {
  test("an agent whose only evidence is result_matches: passed self-reported, counted once however many rounds ran", async () => {
    let runs = 0;
    const commands = new FakeCommandRunner(undefined, () => (++runs < 3 ? { exit: 1 } : {}));
    const r = await run(loop, { agents: () => ({ resultText: "DONE" }), commands });
    expect(finishedOf(r.events, "implement")).toMatchObject({ status: "passed", qualifier: "self-reported" });
    expect(runFinished(r.events).counts).toEqual({ passed: 2, self_reported: 1, failed: 0, error: 0, skipped: 0, cancelled: 0 });
  });

  test("a self-report a later round replaces is no longer counted", async () => {
    // Round 1: implement claims DONE (self-reported), verify fails; round 2: implement's claim does not match.
    let round = 0;
    const r = await run(loop, {
      agents: (a) => ({ resultText: a.node === "implement" && ++round > 1 ? "gave up" : "DONE" }),
      commands: new FakeCommandRunner(undefined, () => ({ exit: 1 })),
    });
    expect(runFinished(r.events).counts).toMatchObject({ passed: 0, self_reported: 0 });
  });

  test("a kept self-reported pass still counts as self-reported after a resume", async () => {
    const graph = `
version: 1
name: t
nodes:
  claim: { kind: agent, prompt: "c", success: { result_matches: "DONE" } }
  then: { kind: script, run: "x", needs: [claim] }
`;
    const first = await run(graph, {
      agents: () => ({ resultText: "DONE" }),
      commands: new FakeCommandRunner(undefined, () => ({ exit: 1 })),
    });
    expect(runFinished(first.events).counts).toMatchObject({ passed: 1, self_reported: 1, failed: 1 });
    const second = await run(graph, { options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.assignments).toHaveLength(0);
    expect(runFinished(second.events).counts).toMatchObject({ passed: 2, self_reported: 1, failed: 0 });
  });

  test("a self-reported pass inside a kept map branch still counts as self-reported after a resume", async () => {
    const graph = `
version: 1
name: t
inputs: { items: { default: [a, b] } }
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      claim: { kind: agent, prompt: "c {{ item }}", success: { result_matches: "DONE" } }
`;
    // Branch 0 claims DONE (self-reported); branch 1 does not match: the map fails, the run can resume.
    const first = await run(graph, { agents: (a) => ({ resultText: a.branch!.index === 0 ? "DONE" : "no" }) });
    expect(runFinished(first.events).counts).toMatchObject({ passed: 1, self_reported: 1, failed: 2 });
    const second = await run(graph, { agents: () => ({ resultText: "DONE" }), options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.assignments).toHaveLength(1); // branch 0 is kept
    expect(runFinished(second.events).counts).toMatchObject({ passed: 3, self_reported: 2, failed: 0 });
  });
});
