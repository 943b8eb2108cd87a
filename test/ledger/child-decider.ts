// A child process for the requests tests: waits for GO on stdin, then records one
// decision of the same approval instance and prints whether it won.
// Usage: bun child-decider.ts HOME RUN DECISION
import { writeSync } from "node:fs";
import { openLedger } from "../../src/ledger/index.ts";

const [home, run, decision] = process.argv.slice(2) as [string, string, "approve" | "reject"];
const ledger = openLedger({ home });
writeSync(1, "ready\n");
for await (const _ of process.stdin) break;
const r = ledger.requests.decide(run, {
  node: "gate",
  round: 1,
  decision,
  via: "command",
  by: { user: "u", host: "h", pid: process.pid },
  at: new Date().toISOString(),
});
writeSync(1, `${r.won ? "won" : "lost"} ${r.request.id} ${r.request.decision}\n`);
ledger.close();
