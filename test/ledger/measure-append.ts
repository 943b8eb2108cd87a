// Measures what the ledger costs per event (not a test: figures for ADR 0008).
//   node_modules/.bin/bun test/ledger/measure-append.ts [events]
// Writes the same mix of events (node.started, node.progress, check.finished,
// node.finished) one transaction per event, then in batches, then through the
// sink as the CLI uses it, and reads them back (JSON parse + zod validation).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { VouchEvent } from "../../src/engine/events.ts";
import { directSink, openLedger } from "../../src/ledger/index.ts";
import { RunScript } from "./events-fixture.ts";

const N = Number(process.argv[2] ?? 20_000);

function events(run: string): VouchEvent[] {
  const s = new RunScript(run);
  s.started();
  for (let i = 0; s.events.length < N; i++) {
    const node = `n${i}`;
    s.nodeStarted({ node }, "script");
    for (let k = 0; k < 4; k++) s.ev("node.progress", { node, attempt: 1, turns: k, cost_usd: k / 100 }, 1);
    s.check({ node }, "tests", i % 5 !== 0);
    s.finished({ node }, "passed", { output: { i } });
  }
  return s.events.slice(0, N);
}

function timed(label: string, count: number, fn: () => void): number {
  const start = performance.now();
  fn();
  const ms = performance.now() - start;
  const rate = Math.round((count / ms) * 1000);
  console.log(
    `${label.padEnd(48)} ${String(Math.round(ms)).padStart(6)} ms  ${String(rate).padStart(8)} events/s  ${((ms * 1000) / count).toFixed(1)} µs/event`,
  );
  return rate;
}

const dir = mkdtempSync(join(tmpdir(), "vouch-measure-"));
try {
  const ledger = openLedger({ home: join(dir, ".vouch") });
  console.log(`${N} events per case, ledger in ${dir} (WAL, synchronous=NORMAL)`);
  const perEvent = events("r-per-event");
  timed("one transaction per event", N, () => {
    for (const e of perEvent) ledger.write([e]);
  });
  for (const size of [16, 256]) {
    const batched = events(`r-batch-${size}`);
    timed(`batches of ${size}`, N, () => {
      for (let i = 0; i < batched.length; i += size) ledger.write(batched.slice(i, i + size));
    });
  }
  const viaSink = events("r-sink");
  let forwarded = 0;
  timed("ledger.sink, one synchronous burst, then close()", N, () => {
    const sink = ledger.sink(() => forwarded++);
    for (const e of viaSink) sink.append(e);
    sink.close();
  });
  const noLedger = events("r-none");
  timed("directSink (no ledger)", N, () => {
    const sink = directSink(() => forwarded++);
    for (const e of noLedger) sink.append(e);
  });
  timed("runEvents: read + JSON.parse + zod validation", N, () => void ledger.runEvents("r-sink"));
  timed("runSummary (show) of the same run", N, () => void ledger.runSummary("r-sink"));
  ledger.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
