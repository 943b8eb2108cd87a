// The ledger knows of every process before it starts, and of every finished
// node as soon as it finished (ADR 0009): node.started and node.finished are
// committed before append returns, so a kill -9 at the worst moment cannot
// lose the start of a command that ran, nor the pass of a node that ran.
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { ensureBinary, ledgerEvents, tempProject, vouch, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => (p = tempProject()));
afterEach(() => p.cleanup());

test("the sink commits node.started and node.finished at the end of the turn (ADR 0028); progress still waits for its timer", async () => {
  const ledger = openLedger({ home: p.home });
  const forwarded: string[] = [];
  const sink = ledger.sink((e) => forwarded.push(e.type), { maxDelayMs: 60_000 });
  const s = new RunScript("r-wal");
  sink.append(s.started());
  sink.append(s.ev("node.progress", { node: "build", attempt: 1, turns: 1 }));
  await new Promise((resolve) => setImmediate(resolve));
  expect(sink.pending).toBe(1); // a progress alone waits for the (one minute) timer
  sink.append(s.nodeStarted({ node: "build" }, "script"));
  expect(sink.pending).toBe(2);
  await new Promise((resolve) => setImmediate(resolve));
  expect(sink.pending).toBe(0);
  expect(forwarded).toEqual(["run.started", "node.progress", "node.started"]);
  sink.append(s.finished({ node: "build" }, "passed"));
  await new Promise((resolve) => setImmediate(resolve));
  expect(sink.pending).toBe(0);
  expect(ledger.runEvents("r-wal").map((e) => e.type)).toEqual(["run.started", "node.progress", "node.started", "node.finished"]);
  sink.close();
  ledger.close();
});

// The command of `k` kills vouch (its parent) with SIGKILL the moment it starts:
// the worst moment for the ledger. Before the fix, 2 runs in 6 lost both k's
// start and first's pass (still queued in the 4 ms batch): a resume would run
// `first` again although it had passed.
test("a command that kills vouch -9 as it starts: its node.started and the earlier pass are in the ledger", async () => {
  p.write(
    "killer.yaml",
    [
      "version: 1",
      "name: killer",
      "nodes:",
      "  first: { kind: script, run: 'true' }",
      "  k: { kind: script, needs: [first], run: 'kill -9 $PPID' }",
      "",
    ].join("\n"),
  );
  for (let i = 0; i < 5; i++) {
    const r = await vouch(p, ["run", "killer.yaml", "--json"]);
    expect(r.signal).toBe("SIGKILL");
    const runId = (JSON.parse(r.stdout.split("\n")[0]!) as { run: string }).run;
    const events = ledgerEvents(p, runId);
    expect(events.map((e) => `${e.type}${"node" in e ? ` ${e.node}` : ""}`)).toEqual([
      "run.started",
      "node.started first",
      "attempt.judged first",
      "node.finished first",
      "node.started k",
    ]);
  }
}, 60_000);
