// Start-up time of the real binary: `dist/vouch --version` and `dist/vouch
// validate <the largest valid graph>`, each run N times after warm-ups.
// Prints median, p10 and p90 in milliseconds (wall time around the process).
//   bun bench/startup.ts [--runs 30] [--warmup 3]
import { existsSync, readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BINARY = join(ROOT, "dist", "vouch");

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function largestValidGraph(): string {
  const dirs = [join(ROOT, "graphs"), join(ROOT, "test", "graph", "valid")].filter(existsSync);
  const files = dirs.flatMap((d) => readdirSync(d).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(d, f)));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

function percentile(sorted: number[], p: number): number {
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

function measure(args: string[], runs: number, warmup: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = performance.now();
    const r = Bun.spawnSync([BINARY, ...args], { stdout: "ignore", stderr: "ignore" });
    const ms = performance.now() - start;
    if (r.exitCode !== 0) throw new Error(`vouch ${args.join(" ")} exited ${r.exitCode}`);
    if (i >= warmup) times.push(ms);
  }
  return times.sort((a, b) => a - b);
}

if (!existsSync(BINARY)) {
  console.error("dist/vouch is missing: run `bun run build.ts` first");
  process.exit(2);
}
const runs = flag("--runs", 30);
const warmup = flag("--warmup", 3);
const graph = largestValidGraph();
// Other processes on the machine slow start-up down: print the load next to the figures.
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`vouch start-up, ${runs} runs after ${warmup} warm-ups (ms); load average ${load()}`);
for (const [label, args] of [
  ["--version", ["--version"]],
  [`validate ${graph.slice(ROOT.length + 1)} (${statSync(graph).size} bytes)`, ["validate", graph]],
] as const) {
  const t = measure([...args], runs, warmup);
  console.log(`${label.padEnd(56)} median ${percentile(t, 0.5).toFixed(1)}  p10 ${percentile(t, 0.1).toFixed(1)}  p90 ${percentile(t, 0.9).toFixed(1)}`);
}
console.log(`load average after: ${load()}`);
