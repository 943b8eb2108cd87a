// Issue 29's rows that bench/run.ts's older benchmarks do not cover: the large map
// of `true` (rate and memory), the ledger's weight, resume and validation growth,
// a branch's state file, and the fleet. Each returns its issue cell
// (lib/issue-table.ts) and its detail rows for the table below it.
import { fleetCost, HAVE_REDIS_SERVER } from "./fleet-cost.ts";
import { type Cell, type IssueRowId, linear, notMeasured, verdictOf } from "./lib/issue-table.ts";
import { summarize, VOUCH } from "./lib/measure.ts";
import { fmt, row, type Row } from "./lib/table.ts";
import { ledgerBytes, outputCopies } from "./ledger-weight.ts";
import { mapScale, type MapScale } from "./map-scale.ts";
import { resumeGrowth } from "./resume-growth.ts";
import { validateUnknownNeeds } from "./unknown-needs-growth.ts";

export interface Issue29Config {
  /** The large map (issue: 100,000); 0 skips it (quick mode). */
  scaleItems: number;
  /** The map the large one is compared with, and whose ledger is weighed. */
  baseItems: number;
  /** Small and large N for resume, the state file and unknown needs. */
  growthSizes: [number, number];
  fleetItems: number;
  reps: number;
}

export interface Issue29Result {
  cells: Partial<Record<IssueRowId, Cell>>;
  rows: Row[];
}

const n = (x: number) => x.toLocaleString("en-US");
const one = (x: number) => summarize([x]);
const x2 = (v: number) => `${v.toFixed(2)}×`;

async function mapRows(cfg: Issue29Config, log: (s: string) => void, out: Issue29Result): Promise<void> {
  log(`map of ${n(cfg.baseItems)} \`true\`: rate, and the ledger's weight`);
  const base = await mapScale(cfg.baseItems);
  let perItem: number;
  try {
    perItem = ledgerBytes(base.home) / base.items;
  } finally {
    base.remove();
  }
  const copies = await outputCopies();
  out.rows.push(row(`Map of ${n(base.items)} \`true\`: branches per second (1 run)`, one(base.branchesPerS), "/s"));
  out.rows.push(row(`Map of ${n(base.items)} \`true\`: vouch peak RSS (1 run)`, one(base.peakRssMb), "MiB"));
  out.cells["ledger-bytes"] = {
    value: `${n(Math.round(perItem))} B per item (${n(base.items)}-item map); ${copies.copies} ${copies.copies === 1 ? "copy" : "copies"}`,
    verdict:
      copies.copies === 0
        ? "not measured: the 4 KiB output was not found in the ledger as text (stored compressed or elsewhere?)"
        : verdictOf({ bytes: perItem <= 1024, copies: copies.copies === 1 }),
  };
  if (cfg.scaleItems === 0) {
    out.cells["map-rate"] = notMeasured("quick mode (`npm run bench` without --quick runs the 100,000-item map)");
    out.cells["map-rss"] = notMeasured("quick mode");
    return;
  }
  log(`map of ${n(cfg.scaleItems)} \`true\` (one run: minutes)`);
  const big: MapScale = await mapScale(cfg.scaleItems, cfg.baseItems);
  big.remove();
  const rate = big.branchesPerS / base.branchesPerS;
  out.rows.push(row(`Map of ${n(big.items)} \`true\`: branches per second (1 run)`, one(big.branchesPerS), "/s"));
  out.cells["map-rate"] = {
    value: `${x2(rate)} (${big.branchesPerS.toFixed(0)}/s at ${n(big.items)}, ${base.branchesPerS.toFixed(0)}/s at ${n(base.items)}; 1 run each)`,
    verdict: verdictOf(rate >= 0.8),
  };
  const growth = big.warmRssMb === null ? NaN : (big.peakRssMb - big.warmRssMb) / big.warmRssMb;
  out.cells["map-rss"] = {
    value: `peak ${fmt(big.peakRssMb, "MiB")}; ${big.warmRssMb === null ? "-" : fmt(big.warmRssMb, "MiB")} at ${n(cfg.baseItems)} finished (+${(growth * 100).toFixed(0)}%)`,
    verdict: verdictOf({ peak: big.peakRssMb <= 150, flat: growth <= 0.1 }),
  };
}

async function growthRows(cfg: Issue29Config, log: (s: string) => void, out: Issue29Result): Promise<void> {
  const [small, large] = cfg.growthSizes;
  const k = large / small;
  log(`resume and state file: interrupted maps of ${n(small)} and ${n(large)}`);
  const r = [await resumeGrowth(VOUCH, small), await resumeGrowth(VOUCH, large)] as const;
  for (const g of r) {
    out.rows.push(row(`Resume of an interrupted ${n(g.items)}-item map: CPU (1 run)`, one(g.resumeCpuMs), "ms"));
    out.rows.push(row(`\`vouch show --json\` of it: CPU (1 run)`, one(g.showCpuMs), "ms"));
  }
  const resumeGrowthX = r[1].resumeCpuMs / r[0].resumeCpuMs;
  const overShow = r[1].resumeCpuMs / r[1].showCpuMs;
  out.cells.resume = {
    value: `${x2(overShow)} show at ${n(large)}; CPU ${x2(resumeGrowthX)} for ${k}× the items (1 run each)`,
    verdict: verdictOf({ linear: linear(resumeGrowthX, k), "≤ 2× show": overShow <= 2 }),
  };
  const stateX = r[1].stateBytes / r[0].stateBytes;
  out.cells["state-bytes"] = {
    value: `${x2(stateX)} (${n(r[1].stateBytes)} B at ${n(large)}, ${n(r[0].stateBytes)} B at ${n(small)})`,
    verdict: verdictOf(stateX <= 1.2),
  };
  log(`validate: ${n(small)} and ${n(large)} nodes each needing an unknown node`);
  const v = [validateUnknownNeeds(VOUCH, small), validateUnknownNeeds(VOUCH, large)] as const;
  for (const [i, g] of v.entries())
    out.rows.push(
      row(
        `Validate ${n(cfg.growthSizes[i]!)} nodes each needing an unknown node: CPU (1 run)`,
        one(g.cpuMs),
        "ms",
        `wall ${fmt(g.wallMs, "ms")}`,
      ),
    );
  const vx = v[1].cpuMs / v[0].cpuMs;
  out.cells["unknown-needs"] = {
    value: `${fmt(v[1].cpuMs, "ms")} CPU at ${n(large)} (wall ${fmt(v[1].wallMs, "ms")}); ${x2(vx)} for ${k}× the nodes`,
    verdict:
      large < 8000 ? `not measured: largest size ${n(large)} < 8,000` : verdictOf({ linear: linear(vx, k), "8k < 2 s": v[1].cpuMs < 2000 }),
  };
}

async function fleetRows(cfg: Issue29Config, log: (s: string) => void, out: Issue29Result): Promise<void> {
  if (!HAVE_REDIS_SERVER) {
    out.cells.fleet = notMeasured("no redis-server on PATH");
    return;
  }
  log(`fleet: ${n(cfg.fleetItems)} branches of \`true\`, 1 worker × 8, ${cfg.reps} repetitions`);
  const f = await fleetCost(cfg.fleetItems, cfg.reps);
  out.rows.push(row("Fleet: coordinator wall per branch", f.wallMsPerBranch, "ms", `${n(f.items)} branches of \`true\`, 1 worker × 8`));
  out.rows.push(
    row(
      "Fleet: CPU per branch, coordinator + worker + Redis",
      f.cpuMsPerBranch,
      "ms",
      `${f.coordinatorMs.toFixed(2)} + ${f.workerMs.toFixed(2)} + ${f.redisMs.toFixed(2)} ms (medians)`,
    ),
  );
  out.cells.fleet = {
    value: `${fmt(f.wallMsPerBranch.median, "ms")} / ${fmt(f.cpuMsPerBranch.median, "ms")} (n=${f.wallMsPerBranch.n})`,
    verdict: verdictOf({ wall: f.wallMsPerBranch.median <= 3, CPU: f.cpuMsPerBranch.median <= 3 }),
  };
}

/** Rows 5–10 of issue 29's table, measured in this order. */
export async function issue29(cfg: Issue29Config, log: (s: string) => void): Promise<Issue29Result> {
  const out: Issue29Result = { cells: {}, rows: [] };
  await mapRows(cfg, log, out);
  await growthRows(cfg, log, out);
  await fleetRows(cfg, log, out);
  return out;
}
