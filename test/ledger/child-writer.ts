// A child process for the durability tests: appends events through the real
// sink until it is killed. Usage: bun child-writer.ts HOME RUN MODE
//   MODE sink:  bursts through ledger.sink; each forwarded seq is written to
//               stdout (synchronously) the moment a consumer would show it.
//   MODE bulk:  back-to-back write() of 500 large events per transaction,
//               printing "batch N" after each commit (to be killed mid-write).
import { writeSync } from "node:fs";
import { openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const [home, run, mode] = process.argv.slice(2) as [string, string, string];
const ledger = openLedger({ home });
const s = new RunScript(run);

if (mode === "bulk") {
  ledger.write([s.started()]);
  const tail = "x".repeat(2000);
  for (let batch = 1; ; batch++) {
    const events = Array.from({ length: 500 }, () => s.ev("node.progress", { node: "review", attempt: 1, activity: tail }, 1));
    ledger.write(events);
    writeSync(1, `batch ${batch}\n`);
  }
} else {
  const sink = ledger.sink((e) => writeSync(1, `${e.seq}\n`));
  sink.append(s.started());
  let round = 0;
  for (;;) {
    round++;
    const burst = 1 + ((round * 37) % 90);
    for (let i = 0; i < burst; i++) {
      const node = `n${round}`;
      sink.append(i === 0 ? s.nodeStarted({ node }, "script") : s.ev("node.progress", { node, attempt: 1, turns: i }, 1));
    }
    await new Promise((r) => setTimeout(r, round % 3));
  }
}
