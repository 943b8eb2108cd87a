// `npm run bench`: every benchmark of issue 9 in one run, side by side, each
// repeated; prints one table of medians, spreads (min–max) and ratios, and
// writes it to bench/results.md with the machine and the commit measured.
//   bun bench/run.ts [--quick] [--reps N] [--force]
// --quick: 3 repetitions, 256 MiB instead of 1 GiB, fewer start-ups; prints
// the table but does not write results.md.
// A run whose headline ratios spread over 20% of their median (a busy machine)
// is not written to results.md (exit 1); --force writes it with the spreads named.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeMachine, loadAverage } from "./lib/machine.ts";
import { ROOT, VOUCH } from "./lib/measure.ts";
import { forkCostMs, MAX_SPREAD, tooSpread } from "./lib/comparable.ts";
import { fmt, markdown, row, verdict, type Row } from "./lib/table.ts";
import { overhead } from "./overhead.ts";
import { outputBound } from "./output-bound.ts";
import { scheduling } from "./scheduling.ts";
import { killLatency } from "./spawn-kill.ts";
import { startup } from "./startup.ts";
import { tmuxAvailable, tuiCost } from "./tui-cost.ts";
import { validateGrowth } from "./validate-growth.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const force = args.includes("--force");
const repsFlag = args.indexOf("--reps");
const REPS = repsFlag >= 0 ? Math.max(1, Number(args[repsFlag + 1]) || 1) : quick ? 3 : 5;
const CFG = {
  overheadItems: 500,
  schedSizes: [1000, 10_000] as [number, number],
  startupRuns: quick ? 10 : 30,
  killRuns: quick ? 10 : 20,
  outputBytes: quick ? [64 * 2 ** 20, 256 * 2 ** 20] : [256 * 2 ** 20, 2 ** 30],
  tuiItems: 1000,
};

if (!existsSync(VOUCH)) {
  console.error("vouch bench: dist/vouch is missing: run `bun run build.ts` first (npm run bench does)");
  process.exit(2);
}

const started = performance.now();
const log = (what: string) => console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${what}`);
const machine = describeMachine();
const loadBefore = loadAverage();
const rows: Row[] = [];

log(`start-up: ${CFG.startupRuns} runs each`);
const st = await startup(CFG.startupRuns);
rows.push(row("Start-up: `vouch --version`", st.versionMs, "ms", verdict(st.versionMs, 50, "< 50 ms")));
rows.push(
  row(`Start-up: \`vouch validate ${st.graph}\` (largest shipped graph)`, st.validateMs, "ms", verdict(st.validateMs, 100, "< 100 ms")),
);
rows.push(row("Start-up floor: a compiled Bun hello world", st.floorMs, "ms"));
rows.push(row("**Start-up ratio `--version` / floor** (per block of 5)", st.versionOverFloor, "x"));
rows.push(
  row(
    "**Start-up ratio `validate` / `--version`** (per block of 5)",
    st.validateOverVersion,
    "x",
    verdict(st.validateOverVersion, 2, "≤ 2×"),
  ),
);
rows.push(row("Start-up CPU (user + sys): `--version`", st.versionCpuMs, "ms", `floor ${fmt(st.floorCpuMs.median, "ms")}`));
rows.push(row("Start-up CPU (user + sys): `validate`", st.validateCpuMs, "ms"));

log(`validation growth: 10k and 40k keys in one mapping, ${REPS} each`);
for (const g of await validateGrowth(REPS)) {
  const what = g.shape === "inputs" ? "`inputs:` keys (valid)" : "unknown fields in one node (a problem each)";
  rows.push(row(`Validate: 10,000 ${what}: CPU`, g.cpuMs[0], "ms"));
  rows.push(row(`Validate: 40,000 ${what}: CPU`, g.cpuMs[1], "ms"));
  rows.push(
    row(
      `**Validate growth 10k → 40k, ${what}** (per repetition)`,
      g.growth,
      "x",
      `linear = 4× (${g.growth.median <= 4.4 ? "linear or better" : "worse than linear"})`,
    ),
  );
}

log(`engine overhead: ${CFG.overheadItems} items, ${REPS} pairs`);
const ov = await overhead(CFG.overheadItems, REPS);
rows.push(row(`Overhead: \`vouch run --json\`, map of ${ov.items} \`true\` scripts, concurrency 8`, ov.vouchMs, "s"));
rows.push(row(`Overhead: \`xargs -P 8\`, ${ov.items} × \`sh -c true\``, ov.xargsMs, "s"));
const fork = forkCostMs(ov.xargsMs, ov.items);
rows.push(
  row("Machine fork cost: xargs time per process (8 at once)", fork, "ms", "a slow fork hides vouch's own cost: read the ratios with it"),
);
rows.push(row("**Overhead ratio vouch / xargs** (per repetition)", ov.ratio, "x", verdict(ov.ratio, 1.5, "≤ 1.5×")));
rows.push(row(`Overhead floor: Bun.spawn of ${ov.items} × \`sh -c true\`, 8 at once, pipes read (\`spawn-floor.ts\`)`, ov.floorMs, "s"));
rows.push(
  row(
    "**Overhead ratio vouch / Bun spawn floor** (per repetition)",
    ov.floorRatio,
    "x",
    `${verdict(ov.floorRatio, 1.3, "≤ 1.3×")} (what the engine, ledger and events add)`,
  ),
);
rows.push(row("Overhead: the same vouch run with `VOUCH_LEDGER=off` (no ledger)", ov.noLedgerMs, "s"));
rows.push(
  row(
    "**Ledger cost: vouch / vouch with `VOUCH_LEDGER=off`** (per repetition)",
    ov.ledgerRatio,
    "x",
    "ADR 0009 measures a 1,000-node graph",
  ),
);
rows.push(row("Overhead run: vouch peak RSS", ov.vouchPeakRssMb, "MiB"));

log(`pure scheduling: ${CFG.schedSizes.join(" and ")} replayed sittings, ${REPS} each`);
const sc = await scheduling(CFG.schedSizes[0], CFG.schedSizes[1], REPS);
for (const i of [0, 1] as const) {
  const n = sc.sizes[i].toLocaleString("en-US");
  const big = i === 1 && sc.sizes[1] === 10_000;
  rows.push(
    row(
      `Scheduling: map of ${n} replayed sittings: wall time`,
      sc.ms[i],
      "s",
      `${sc.events[i].toLocaleString("en-US")} events${big ? `; ${verdict(sc.ms[i], 2500, "≤ 2.5 s")}` : ""}`,
    ),
  );
  rows.push(row(`Scheduling: map of ${n}: vouch peak RSS`, sc.peakRssMb[i], "MiB", big ? verdict(sc.peakRssMb[i], 100, "≤ 100 MiB") : ""));
}
const linear = sc.sizes[1] / sc.sizes[0];
rows.push(
  row(
    `**Scheduling growth ${sc.sizes[0] / 1000}k → ${sc.sizes[1] / 1000}k: time**`,
    sc.timeGrowth,
    "x",
    `linear = ${linear}× (${sc.timeGrowth.median <= linear * 1.1 ? "linear or better" : "worse than linear"})`,
  ),
);
rows.push(row(`**Scheduling growth ${sc.sizes[0] / 1000}k → ${sc.sizes[1] / 1000}k: peak RSS**`, sc.rssGrowth, "x"));
rows.push(row("Scheduling: time per extra item, (10k − 1k) / 9,000", sc.marginalMsPerItem, "ms", "fixed costs removed"));
rows.push(row("Scheduling: peak RSS per extra item", sc.marginalKibPerItem, "KiB"));

log(`kill latency: ${CFG.killRuns} wall caps`);
const kl = await killLatency(CFG.killRuns);
rows.push(row(`Kill latency: wall cap (${kl.wallCapMs} ms) → runProcess returned, grandchild holding the pipe`, kl.toReturnMs, "ms"));
rows.push(row("Kill latency: wall cap → no live process left in the group", kl.toGoneMs, "ms"));

const size = (bytes: number) => (bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : `${bytes / 2 ** 20} MiB`);
log(`output bound: a check printing ${CFG.outputBytes.map(size).join(" and ")}, ${REPS} each`);
const ob = await outputBound(CFG.outputBytes, REPS);
rows.push(row("Output bound: vouch peak RSS, the check prints nothing", ob.baselineRssMb, "MiB"));
for (const [i, bytes] of ob.sizes.entries()) {
  rows.push(
    row(
      `Output bound: vouch peak RSS, the check prints ${size(bytes)}`,
      ob.floodRssMb[i]!,
      "MiB",
      `took ${fmt(ob.floodMs[i]!.median, "s")}`,
    ),
  );
}
for (const [i, bytes] of ob.sizes.entries()) {
  rows.push(
    row(
      `**Output bound: peak RSS growth, ${size(bytes)}** (per repetition)`,
      ob.growthMb[i]!,
      "MiB",
      i === 0 ? "" : `vs ${fmt(ob.growthMb[0]!.median, "MiB")} for ${size(ob.sizes[0]!)}: bounded tail`,
    ),
  );
}

let tc: Awaited<ReturnType<typeof tuiCost>> | null = null;
if (tmuxAvailable()) {
  log(`TUI cost: ${CFG.tuiItems} replayed sittings, ${REPS} pairs (tmux)`);
  tc = await tuiCost(CFG.tuiItems, REPS);
  rows.push(row(`TUI cost: CPU of the run in the live UI (tmux), map of ${tc.items} replayed sittings`, tc.tuiCpuMs, "ms"));
  rows.push(row("TUI cost: CPU of the same run with `--json`", tc.jsonCpuMs, "ms"));
  rows.push(row("**TUI cost ratio live UI / --json** (per pair)", tc.ratio, "x"));
} else {
  log("TUI cost skipped: tmux is not installed");
  rows.push({ measure: "TUI cost", median: "-", spread: "-", target: "skipped: tmux is not installed" });
}

const loadAfter = loadAverage();
// The ratios quoted (README): each must agree with itself across its repetitions.
const spread = tooSpread({
  "overhead vouch / xargs": ov.ratio,
  "overhead vouch / floor": ov.floorRatio,
  "ledger cost": ov.ledgerRatio,
  "start-up --version / floor": st.versionOverFloor,
  "start-up validate / --version": st.validateOverVersion,
});
const spreadNote =
  spread.length === 0
    ? `Every headline ratio spread at most ${MAX_SPREAD * 100}% of its median.`
    : `Spread over ${MAX_SPREAD * 100}% of the median (the machine was busy; written with --force): ${spread.map((s) => `${s.measure} ${(s.spread * 100).toFixed(0)}%`).join(", ")}.`;
const totalS = ((performance.now() - started) / 1000).toFixed(0);
const table = markdown(rows);
console.log(table);
console.log(
  `\n${REPS} repetitions${quick ? " (--quick)" : ""}; commit ${machine.commit}; load average ${loadBefore} before, ${loadAfter} after; fork cost ${fmt(fork.median, "ms")} per process; ${totalS} s in all`,
);
console.log(spreadNote);

// Ratios only, for the README (absolute times depend on the machine and its load).
const x = (v: number) => `${v.toFixed(2)}×`;
const last = ob.sizes.length - 1;
const quotes = [
  `- A map of ${ov.items} \`true\` scripts at concurrency 8 runs in ${x(ov.ratio.median)} the time of \`xargs -P 8\` over the same commands (on a machine where fork+exec costs ${fmt(fork.median, "ms")} per process), and ${x(ov.floorRatio.median)} the time of a bare Bun spawn loop (engine, ledger and events included); the ledger's share: ${x(ov.ledgerRatio.median)} the time of the same run with \`VOUCH_LEDGER=off\`.`,
  `- \`vouch validate\` of the largest shipped graph takes ${x(st.validateOverVersion.median)} the start-up of \`vouch --version\`.`,
  `- Scheduling grows no faster than linearly: ${sc.sizes[1] / sc.sizes[0]}× the items (${sc.sizes[1].toLocaleString("en-US")} replayed sittings against ${sc.sizes[0].toLocaleString("en-US")}) takes ${x(sc.timeGrowth.median)} the time, fixed start-up included, and ${x(sc.rssGrowth.median)} the peak memory.`,
  `- \`vouch --version\` takes ${x(st.versionOverFloor.median)} the start-up of a compiled Bun hello world.`,
  `- A wall cap stops a process tree whose grandchild holds the pipe: every process of the group is gone at ${x((kl.wallCapMs + kl.toGoneMs.median) / kl.wallCapMs)} the cap (${kl.wallCapMs} ms).`,
  `- A check printing ${size(ob.sizes[last]!)} raises vouch's peak memory ${x(ob.growthMb[last]!.median / ob.growthMb[0]!.median)} as much as one printing ${size(ob.sizes[0]!)}: the output kept is a bounded tail.`,
  ...(tc
    ? [
        `- The live terminal UI costs ${x(tc.ratio.median)} the CPU time of \`--json\` on a run of ${tc.items.toLocaleString("en-US")} branches.`,
      ]
    : []),
].join("\n");

console.log(`\nFor the README (ratios only):\n${quotes}`);

if (!quick && spread.length > 0 && !force) {
  log(`not writing bench/results.md: ${spreadNote} Run again on a quieter machine, or pass --force.`);
  process.exit(1);
}
if (!quick) {
  const md = `# vouch benchmarks

Measured by \`npm run bench\` (\`bench/run.ts\`) on ${machine.date.slice(0, 10)}, commit
\`${machine.commit}\`, ${REPS} repetitions of each measure (${totalS} s in all).
Compared measures ran side by side: each repetition runs every command of the
comparison, the order rotating, and a ratio is taken per repetition.

Machine: \`${machine.uname}\`; ${machine.cpu}; ${machine.cores} cores; ${machine.memoryGiB.toFixed(1)} GiB of memory;
Bun ${machine.bun}. Load average (1, 5, 15 min) ${loadBefore} before and ${loadAfter} after; fork+exec
cost ${fmt(fork.median, "ms")} per process (xargs, 8 at once). Absolute times vary with the machine and its
load; ratios of measures taken side by side vary much less, and are what should be quoted.
${spreadNote}

${table}

For the README (ratios only):
${quotes}

How each figure is measured (code in \`bench/\`):
- **Start-up** (\`startup.ts\`): wall time around \`dist/vouch --version\` and \`dist/vouch validate\`
  on the largest graph in \`graphs/\`, ${CFG.startupRuns} runs each after 3 warm-ups, interleaved in blocks of 5
  with the floor: a one-line program compiled by \`bun build --compile\` with the same bytecode, ESM and
  minify options. CPU time is user + sys from the kernel's rusage of each process.
- **Overhead** (\`overhead.ts\`, \`graphs/overhead.yaml\`): wall time from spawn to exit of
  \`dist/vouch run --json\` on a map of ${CFG.overheadItems} script nodes \`true\` (each one \`/bin/sh -c true\`,
  concurrency 8, ledger on), of \`xargs -P 8 -n 1 sh -c true\` over the same ${CFG.overheadItems} lines, and of
  \`spawn-floor.ts\` (Bun.spawn of \`/bin/sh -c true\`, 8 at once, own process groups, pipes read to the end),
  and of the same vouch run with \`VOUCH_LEDGER=off\` (events go straight to the output, nothing recorded).
- **Scheduling** (\`scheduling.ts\`, \`graphs/sched.yaml\`): \`dist/vouch run --json\` on maps of
  ${CFG.schedSizes[0]} and ${CFG.schedSizes[1]} items whose branch is one replayed agent sitting (no process per
  item; default concurrency 4); wall time and vouch's own peak RSS (VmHWM, sampled every 10 ms).
- **Kill latency** (\`spawn-kill.ts\`): the spawn seam in-process (\`runProcess\`, what vouch runs)
  on \`sh -c 'sleep 30 & echo hi; wait'\` with a 200 ms wall cap; from the cap to \`runProcess\`
  returning, and to no live (non-zombie) process left in the group.
- **Output bound** (\`output-bound.ts\`, \`graphs/output.yaml\`): vouch's own peak RSS (VmHWM) for a
  run whose check prints ${CFG.outputBytes.map(size).join(" or ")} of 64-byte lines, against the same run whose
  check prints nothing.
- **TUI cost** (\`tui-cost.ts\`): CPU time (user + sys, \`/usr/bin/time\`) of \`dist/vouch run\` on a map of
  ${CFG.tuiItems} replayed sittings drawn by the live UI in a 120×40 tmux pane (\`q\` sent 100 ms after
  \`run.finished\` is in the ledger), against the same run with \`--json\` written to a file.
`;
  // Sections other benchmarks write (bench/worktree.ts) are kept as they are.
  const file = join(ROOT, "bench", "results.md");
  const kept = existsSync(file)
    ? (readFileSync(file, "utf8").match(/<!-- bench\/[\w-]+\.ts -->[\s\S]*?<!-- \/bench\/[\w-]+\.ts -->/g) ?? [])
    : [];
  writeFileSync(file, kept.length > 0 ? `${md.trimEnd()}\n\n${kept.join("\n\n")}\n` : md);
  log("wrote bench/results.md");
} else log("--quick: bench/results.md not written");
