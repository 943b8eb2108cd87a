// Fatal is a type: a FatalError (the ledger, a port not provided, the output)
// thrown by any port ends the run with that error; anything else a port throws
// is that node's own failure — whatever the error calls itself.
import { describe, expect, test } from "vitest";
import { FatalError, LedgerError, OutputError } from "../../src/engine/errors.ts";
import { runGraph } from "../../src/engine/run.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { CheckingLedger, FakeAgentRunner, untilAborted } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";
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
    expect([f.status, f.stop_reason, f.error]).toEqual([
      "error",
      "crashed",
      "the harness stopped: crashed: the agent runner failed: not really the ledger",
    ]);
    expect(r.outcome.exitCode).toBe(3);
  });
});

describe("a ledger that fails on the run wall's overrun", () => {
  test("rejects the run with the LedgerError and stops the work (no unhandled rejection, no run going on)", async () => {
    const thrown = new LedgerError("the disk holding the ledger is full");
    class FailingOnRunWall extends CheckingLedger {
      override append(event: VouchEvent): void {
        if (event.type === "cap.overrun" && event.scope === "run") throw thrown;
        super.append(event);
      }
    }
    const clock = new FakeClock();
    let cancelled = false;
    const agents = new FakeAgentRunner(async (_a, hooks) => {
      await clock.sleep(60_000, hooks.signal).catch(() => {});
      cancelled = hooks.signal.aborted;
      return hooks.signal.aborted ? untilAborted(hooks.signal) : {};
    });
    const x = setup(`version: 1\nname: t\ncaps: { wall: 10s }\nnodes:\n  a: { kind: agent, prompt: a }\n`, {
      agents,
      clock,
      ledger: new FailingOnRunWall(),
    });
    const err = await x.clock.drive(runGraph(x.options)).catch((e: unknown) => e);
    expect(err).toBe(thrown);
    expect(cancelled).toBe(true);
    expect(x.ledger.events.some((e) => e.type === "run.finished")).toBe(false);
  });
});

describe("a ledger that fails as the run pauses", () => {
  // run.paused is emitted when the run goes quiet (the last live task ends), from a
  // promise's finally: a throw there had no handler and the run never settled.
  for (const type of ["run.paused", "run.finished"] as const) {
    test(`a LedgerError on ${type} rejects the run with it`, async () => {
      const thrown = new LedgerError("the disk holding the ledger is full");
      class FailingOn extends CheckingLedger {
        override append(event: VouchEvent): void {
          if (event.type === type) throw thrown;
          super.append(event);
        }
      }
      const x = setup(`version: 1\nname: t\nnodes:\n  gate: { kind: approval, prompt: ok? }\n`, { ledger: new FailingOn() });
      const err = await x.clock.drive(runGraph(x.options)).catch((e: unknown) => e);
      expect(err).toBe(thrown);
    });
  }
});

describe("a ledger that fails on run.finished of a run that completed", () => {
  for (const [name, graph, inputs] of [
    ["an agent", GRAPH, {}],
    [
      "a map of agents",
      `version: 1\nname: t\ninputs: { xs: { required: true } }\nnodes:\n  m: { kind: map, over: inputs.xs, as: x, branch: { b: { kind: agent, prompt: hi } } }\n`,
      { xs: [1, 2] },
    ],
  ] as const) {
    test(`${name}: the run rejects with the LedgerError`, async () => {
      const thrown = new LedgerError("the disk holding the ledger is full");
      class FailingOnFinish extends CheckingLedger {
        override append(event: VouchEvent): void {
          if (event.type === "run.finished") throw thrown;
          super.append(event);
        }
      }
      const x = setup(graph, { ledger: new FailingOnFinish(), inputs });
      const err = await x.clock.drive(runGraph(x.options)).catch((e: unknown) => e);
      expect(err).toBe(thrown);
    });
  }
});
