// `bun bench/ledger-batches.ts [SOURCE_ROOT]`: the ledger's own CPU for 2,000 map items, each
// item's four events (branch.started, node.started, node.finished, branch.finished) written
// as one batch — one transaction each, as a map of `true` scripts commits them (ADR 0075).
// SOURCE_ROOT (default this checkout) is a checkout whose src/ledger is loaded, so two
// checkouts can be run in turn; the events are built by the ledger tests' fixture.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { VouchEvent } from "../src/engine/events.ts";
import { RunScript } from "../test/ledger/events-fixture.ts";

const root = resolve(process.argv[2] ?? `${import.meta.dirname}/..`);
const { openLedger } = (await import(`${root}/src/ledger/index.ts`)) as typeof import("../src/ledger/index.ts");
const ITEMS = 2000;
const dir = mkdtempSync(join(tmpdir(), "vouch-bench-ledger-batches-"));
try {
  const ledger = openLedger({ home: join(dir, ".vouch") });
  const s = new RunScript("r-bench-0001");
  ledger.write([s.started()]);
  const batches: VouchEvent[][] = [];
  for (let i = 0; i < ITEMS; i++) {
    const from = s.events.length;
    const branch = { map: "each", index: i };
    s.ev("branch.started", { branch, item: `item-${i}`, label: `item-${i}` });
    s.nodeStarted({ node: "verify", branch }, "script");
    s.finished({ node: "verify", branch }, "passed", { stop_reason: null, output: { exit: 0 } });
    s.ev("branch.finished", { branch, status: "passed", verdict: null, output: { exit: 0 } });
    batches.push(s.events.slice(from));
  }
  const before = process.cpuUsage();
  const started = performance.now();
  for (const batch of batches) ledger.write(batch);
  const cpu = process.cpuUsage(before);
  const wallMs = performance.now() - started;
  ledger.close();
  console.log(`${root}: own CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, wall ${wallMs.toFixed(0)} ms for ${ITEMS} items`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
