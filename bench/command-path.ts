// `bun bench/command-path.ts [SOURCE_ROOT]`: the spawn seam's own CPU per command, without the
// engine or the ledger (ADR 0075): 500 map-branch `true` scripts through createCommandRunner
// at concurrency 8, each with its state, item and the run's input handed over, and the
// process's own CPU time (process.cpuUsage(): children excluded). SOURCE_ROOT (default this
// checkout) is a checkout whose src/ is loaded, so two checkouts can be run in turn.
import { resolve } from "node:path";
import type { CommandContext } from "../src/engine/ports.ts";

const root = resolve(process.argv[2] ?? `${import.meta.dirname}/..`);
const { createCommandRunner } = (await import(`${root}/src/spawn/command-runner.ts`)) as typeof import("../src/spawn/command-runner.ts");
const { ProcessSupervisor } = (await import(`${root}/src/spawn/process-registry.ts`)) as typeof import("../src/spawn/process-registry.ts");
const ITEMS = 500;
const items = Array.from({ length: ITEMS }, (_, i) => `item-${i}`);
const inputs = { items: `${items.join("\n")}\n` };
const supervisor = new ProcessSupervisor();
supervisor.setBarrier(() => {}); // the session's barrier, with nothing to commit
const runner = createCommandRunner({ parentEnv: { ...process.env }, supervisor });
const signal = new AbortController().signal;
const ctx = (i: number): CommandContext => ({
  runId: "r",
  node: "work",
  attempt: 1,
  cwd: import.meta.dirname,
  passEnv: [],
  vars: { VOUCH_RUN_ID: "r" },
  inputs: [{ stem: "ITEMS", text: inputs.items }],
  state: { inputs, nodes: {}, item: items[i], index: i },
  item: items[i],
  signal,
});
const before = process.cpuUsage();
const started = performance.now();
let next = 0;
async function lane(): Promise<void> {
  while (next < ITEMS) {
    const r = await runner.runScript({ run: "true", timeoutMs: 60_000, keepStdoutBytes: 65_536 }, ctx(next++));
    if (r.exit !== 0) throw new Error(`a script ended ${r.exit}: ${r.spawnError ?? r.stderrTail}`);
  }
}
await Promise.all(Array.from({ length: 8 }, lane));
const cpu = process.cpuUsage(before);
const wallMs = performance.now() - started;
await runner.close();
console.log(`${root}: own CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, wall ${wallMs.toFixed(0)} ms for ${ITEMS} commands`);
