// `npm run bench`: every benchmark of issues 9 and 29 in one run, side by side,
// each repeated; prints issue 29's table (value, target, verdict per row) on one
// machine line, then one table of medians, spreads (min–max) and ratios, and
// writes both to bench/results.md with the machine and the commit measured.
//   bun bench/run.ts [--quick] [--reps N] [--force] [--scale-items N]
// --quick: 3 repetitions, 256 MiB instead of 1 GiB, fewer start-ups, no
// 100,000-item map (its rows say "not measured (quick mode)"); prints the
// tables but does not write results.md. --scale-items N: the large map's size
// (default 100,000, at least 20,000).
// A run whose headline ratios spread over 20% of their median (a busy machine)
// is not written to results.md (exit 1); --force writes it with the spreads named.
import { existsSync } from "node:fs";
import { describeMachine, loadAverage, machineLine } from "./lib/machine.ts";
import { VOUCH } from "./lib/measure.ts";
import { forkCostMs, MAX_SPREAD, tooSpread } from "./lib/comparable.ts";
import { byteSize as size, fmt, markdown, row, verdict, type Row } from "./lib/table.ts";
import { issueLines, issueMarkdown, verdictOf, type Cell, type IssueRowId } from "./lib/issue-table.ts";
import { readmeQuotes } from "./lib/quotes.ts";
import { resultsMarkdown, writeResults } from "./lib/results-file.ts";
import { issue29 } from "./issue29.ts";
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
const scaleFlag = args.indexOf("--scale-items");
const CFG = {
  overheadItems: 500,
  schedSizes: [1000, 10_000] as [number, number],
  startupRuns: quick ? 10 : 30,
  killRuns: quick ? 10 : 20,
  outputBytes: quick ? [64 * 2 ** 20, 256 * 2 ** 20] : [256 * 2 ** 20, 2 ** 30],
  tuiItems: 1000,
  issue29: {
    scaleItems: quick ? 0 : scaleFlag >= 0 ? Math.max(20_000, Number(args[scaleFlag + 1]) || 0) : 100_000,
    baseItems: 10_000,
    growthSizes: [1000, 8000] as [number, number],
    fleetItems: 500,
    reps: REPS,
  },
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
if ("ms" in ov.pool) {
  rows.push(row(`Overhead floor: C fork+exec pool, ${ov.items} × \`sh -c true\`, 8 at once (\`fork-pool.c\`)`, ov.pool.ms, "s"));
  rows.push(row("**Overhead ratio vouch / C fork+exec pool** (per repetition)", ov.pool.ratio, "x", verdict(ov.pool.ratio, 2, "≤ 2×")));
}
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

const i29 = await issue29(CFG.issue29, log);
rows.push(...i29.rows);

const loadAfter = loadAverage();
const spreadOfS = (s: { min: number; max: number; n: number }, unit: "x" | "s") =>
  s.n > 1 ? ` (${fmt(s.min, unit)} – ${fmt(s.max, unit)}, n=${s.n})` : "";
const cells: Partial<Record<IssueRowId, Cell>> = {
  ...i29.cells,
  "spawn-floor": { value: fmt(ov.floorRatio.median, "x") + spreadOfS(ov.floorRatio, "x"), verdict: verdictOf(ov.floorRatio.median <= 1.3) },
  "fork-pool":
    "ms" in ov.pool
      ? { value: fmt(ov.pool.ratio.median, "x") + spreadOfS(ov.pool.ratio, "x"), verdict: verdictOf(ov.pool.ratio.median <= 2) }
      : { value: "-", verdict: `not measured: ${ov.pool.missing}` },
  sittings: {
    value: `${fmt(sc.ms[1].median, "s")}, ${fmt(sc.peakRssMb[1].median, "MiB")} (n=${sc.ms[1].n})`,
    verdict: verdictOf({ time: sc.ms[1].median <= 2500, memory: sc.peakRssMb[1].median <= 100 }),
  },
  "validate-start": {
    value: fmt(st.validateOverVersion.median, "x") + spreadOfS(st.validateOverVersion, "x"),
    verdict: verdictOf(st.validateOverVersion.median <= 2),
  },
};
const issueTable = issueMarkdown(issueLines(cells));
// The ratios quoted (README): each must agree with itself across its repetitions.
const spread = tooSpread({
  "overhead vouch / xargs": ov.ratio,
  "overhead vouch / floor": ov.floorRatio,
  ...("ms" in ov.pool ? { "overhead vouch / C pool": ov.pool.ratio } : {}),
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
const machineAt = machineLine(machine, loadBefore, loadAfter, fork, "ms" in ov.pool ? ov.pool.ms.median / ov.items : null);
console.log(`Issue 29 table\n\n${issueTable}\n\n${machineAt}\n`);
console.log(table);
console.log(
  `\n${REPS} repetitions${quick ? " (--quick)" : ""}; commit ${machine.commit}; load average ${loadBefore} before, ${loadAfter} after; fork cost ${fmt(fork.median, "ms")} per process; ${totalS} s in all`,
);
console.log(spreadNote);

const quotes = readmeQuotes({ ov, st, sc, kl, ob, tc, fork });

console.log(`\nFor the README (ratios only):\n${quotes}`);

if (!quick && spread.length > 0 && !force) {
  log(`not writing bench/results.md: ${spreadNote} Run again on a quieter machine, or pass --force.`);
  process.exit(1);
}
if (!quick) {
  writeResults(
    resultsMarkdown({
      machine,
      reps: REPS,
      totalS,
      loadBefore,
      loadAfter,
      fork,
      spreadNote,
      issueTable,
      machineAt,
      table,
      quotes,
      cfg: CFG,
    }),
  );
  log("wrote bench/results.md");
} else log("--quick: bench/results.md not written");
