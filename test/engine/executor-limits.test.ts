// Usage limits (ADR 0022) meeting map branches on an executor (ADR 0026): a
// sitting cut off by a limit on a worker parks its attempt, and nothing on the
// worker ever lifts it (the coordinator's limit book decides waits and pauses).
import { expect, test } from "vitest";
import { ofType, setup } from "./helpers/run-helper.ts";
import { FakeAgentRunner } from "./helpers/fakes.ts";
import { FakeExecutor } from "./helpers/fake-executor.ts";
import { runGraph, withDefaultPorts } from "../../src/engine/run.ts";

const GRAPH = `
version: 1
name: t
inputs: { xs: { default: [a, b] } }
nodes:
  each:
    kind: map
    over: inputs.xs
    branch:
      work: { kind: agent, prompt: "do {{ item }}" }
`;

test("a branch limited on a worker does not hang the run: it ends, and the run says why", async () => {
  let limitedOnce = false;
  const agents = new FakeAgentRunner((a) => {
    if (a.branch?.index === 1 && !limitedOnce) {
      limitedOnce = true;
      return { stopReason: "rate_limited", resultText: "", turns: 0, costUsd: 0, exitCode: 1, error: "claude hit a usage or rate limit" };
    }
    return {};
  });
  const x = setup(GRAPH, { agents });
  const ports = withDefaultPorts(x.options.ports);
  const executor = new FakeExecutor(
    () => ({ ...ports }),
    () => x.ledger.events,
  );
  const outcome = await x.clock.drive(runGraph({ ...x.options, executor }));
  expect(ofType(x.ledger.events, "node.limited")).toHaveLength(1);
  expect(ofType(x.ledger.events, "run.finished")).toHaveLength(1);
  // The limited branch is the one error, and says what held it; the other branch passed.
  const branches = ofType(x.ledger.events, "branch.finished").map((e) => [e.branch.index, e.status, e.error ?? null]);
  expect(branches.sort()).toEqual([
    [0, "passed", null],
    [
      1,
      "error",
      "the job failed on the workers: the branch is held by a usage limit of claude: a worker cannot wait for a limit; resume the run once it lifts",
    ],
  ]);
  expect(outcome.status).toBe("error");
});
