// A stand-in for `vouch run` / `vouch resume` over the ledger API, for the
// crash test: starts run RUN (or resumes it when the ledger has it), runs the
// nodes n0..n{N-1} that have not passed yet, each a few ms of "work", then
// finishes the run. The folding of prior events here is a toy version of the
// engine's priorFromEvents. Usage: bun toy-runner.ts HOME RUN N
import { writeSync } from "node:fs";
import type { VouchEvent } from "../../src/engine/events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const [home, run, count] = process.argv.slice(2) as [string, string, string];
const N = Number(count);
const ledger = openLedger({ home });
const known = ledger.listRuns().some((r) => r.id === run);
const ticket = known ? ledger.resumeCheck(run, "sha256:aaaa", false) : null;
const lock = ticket?.lock ?? ledger.acquireRunLock(run);
const prior = known ? ledger.runEvents(run) : [];
const passed = new Set(prior.filter((e) => e.type === "node.finished" && e.status === "passed").map((e) => (e as { node: string }).node));

const s = new RunScript(run, ticket ? ticket.lastSeq + 1 : 0);
const sink = ledger.sink((e: VouchEvent) => writeSync(1, `${e.seq} ${e.type}\n`));
sink.append(s.started({ resumed: known, nodes: Array.from({ length: N }, (_, i) => ({ id: `n${i}`, kind: "script", needs: [] })) }));
for (let i = 0; i < N; i++) {
  const node = `n${i}`;
  if (passed.has(node)) continue;
  sink.append(s.nodeStarted({ node }, "script"));
  await Bun.sleep(2);
  sink.append(s.finished({ node }, "passed"));
}
sink.append(s.runFinished("passed"));
sink.close();
lock.release();
ledger.close();
