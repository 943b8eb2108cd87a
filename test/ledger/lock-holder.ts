// A child process that starts a run the way `vouch run` will: takes the run's
// lock, appends run.started and a node.started, says "held", and waits to be
// killed. Usage: bun lock-holder.ts HOME RUN
import { writeSync } from "node:fs";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const [home, run] = process.argv.slice(2) as [string, string];
const ledger = openLedger({ home });
const lock = ledger.acquireRunLock(run);
const s = new RunScript(run);
s.started();
s.nodeStarted({ node: "build" }, "script");
ledger.write(s.events);
writeSync(1, `held ${lock.file}\n`);
setInterval(() => {}, 60_000);
