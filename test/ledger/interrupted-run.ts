// A child process using the ledger API the way `vouch run` will: lock, sink,
// events; on SIGINT it records the run as interrupted and exits 130.
// Usage: bun interrupted-run.ts HOME RUN
import { writeSync } from "node:fs";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const [home, run] = process.argv.slice(2) as [string, string];
const ledger = openLedger({ home });
const lock = ledger.acquireRunLock(run);
const sink = ledger.sink((e) => writeSync(1, `${e.type}\n`));
const s = new RunScript(run);
const emit = (e: Parameters<typeof sink.append>[0]) => sink.append(e);

process.on("SIGINT", () => {
  emit(s.finished({ node: "review" }, "cancelled", { qualifier: null, stop_reason: "cancelled", cause: "cancelled" }));
  emit(s.runFinished("interrupted", { reason: "cancelled" }));
  sink.close();
  lock.release();
  ledger.close();
  process.exit(130);
});

emit(s.started());
emit(s.nodeStarted({ node: "build" }, "script"));
emit(s.finished({ node: "build" }, "passed"));
emit(s.nodeStarted({ node: "review" }, "agent"));
sink.flush();
setInterval(() => emit(s.ev("node.progress", { node: "review", attempt: 1, activity: "thinking" })), 5);
