// Fatal is a type: a FatalError (the ledger, a port not provided, the output)
// thrown by any port ends the run with that error; anything else a port throws
// is that node's own failure — whatever the error calls itself.
import { describe, expect, test } from "vitest";
import { FatalError, LedgerError, OutputError } from "../../src/engine/errors.ts";
import { runGraph } from "../../src/engine/run.ts";
import { FakeAgentRunner } from "./helpers/fakes.ts";
import { finishedOf, run, setup } from "./helpers/run-helper.ts";

const GRAPH = `
version: 1
name: t
nodes: { a: { kind: agent, prompt: hi } }
`;

describe("a port's error ends the run only when it is a FatalError", () => {
  for (const [name, error] of [
    ["LedgerError", () => new LedgerError("the disk holding the ledger is full")],
    ["OutputError", () => new OutputError(new TypeError("reducer bug"))],
  ] as const) {
    test(`${name} from the agent runner rejects the run with it`, async () => {
      const thrown = error();
      const x = setup(GRAPH, { agents: new FakeAgentRunner(() => Promise.reject(thrown)) });
      const err = await x.clock.drive(runGraph(x.options)).catch((e: unknown) => e);
      expect(err).toBe(thrown);
      expect(err).toBeInstanceOf(FatalError);
      expect(x.ledger.events.some((e) => e.type === "run.finished")).toBe(false);
    });
  }

  test("an error merely named like a fatal one is the node's harness error", async () => {
    const impostor = Object.assign(new Error("not really the ledger"), { name: "LedgerError" });
    const r = await run(GRAPH, { agents: new FakeAgentRunner(() => Promise.reject(impostor)) });
    const f = finishedOf(r.events, "a");
    expect([f.status, f.stop_reason, f.error]).toEqual(["error", "crashed", "the harness stopped: crashed: the agent runner failed: not really the ledger"]);
    expect(r.outcome.exitCode).toBe(3);
  });
});
