// What the ledger costs a run: the same 1,000-node script graph (every node runs
// `true`; node i needs node i-10, so ten chains) run by dist/vouch --json with
// the ledger and with VOUCH_LEDGER=off (the benchmark switch, ADR 0009), N times
// each, alternating, each run in a fresh VOUCH_HOME. Prints median, min–max
// spread, and the ratio of the medians (with / without).
//   bun bench/ledger-overhead.ts [--runs 5] [--nodes 1000] [--concurrency 4]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BINARY = join(ROOT, "dist", "vouch");

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function graph(nodes: number, concurrency: number): string {
  const lines = ["version: 1", "name: ledger-overhead", `concurrency: ${concurrency}`, "nodes:"];
  for (let i = 0; i < nodes; i++) lines.push(`  n${i}: { kind: script, argv: ["true"]${i >= 10 ? `, needs: [n${i - 10}]` : ""} }`);
  return `${lines.join("\n")}\n`;
}

function median(sorted: number[]): number {
  const m = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(m)]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

if (!existsSync(BINARY)) {
  console.error("dist/vouch is missing: run `bun run build.ts` first");
  process.exit(2);
}
const runs = flag("--runs", 5);
const nodes = flag("--nodes", 1000);
const concurrency = flag("--concurrency", 4);
const dir = mkdtempSync(join(tmpdir(), "vouch-ledger-overhead-"));
const file = join(dir, "graph.yaml");
writeFileSync(file, graph(nodes, concurrency));

function once(ledger: boolean): number {
  const home = mkdtempSync(join(dir, "home-"));
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", VOUCH_HOME: home };
  if (!ledger) env.VOUCH_LEDGER = "off";
  const start = performance.now();
  const r = Bun.spawnSync([BINARY, "run", file, "--json"], { env, cwd: dir, stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - start;
  const events = r.stdout.toString().split("\n").filter(Boolean).length;
  if (r.exitCode !== 0 || events !== 2 * nodes + 2)
    throw new Error(`run ${ledger ? "with" : "without"} the ledger: exit ${r.exitCode}, ${events} events\n${r.stderr.toString()}`);
  rmSync(home, { recursive: true, force: true });
  return ms;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(
  `ledger overhead: ${nodes} script nodes (argv: [true]), concurrency ${concurrency}, ${runs} runs each, alternating; load average ${load()}`,
);
try {
  once(true); // warm-up: page cache, binary
  const withLedger: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < runs; i++) {
    withLedger.push(once(true));
    without.push(once(false));
  }
  const line = (label: string, t: number[]) => {
    const s = [...t].sort((a, b) => a - b);
    console.log(
      `${label.padEnd(16)} median ${median(s).toFixed(0)} ms  spread ${s[0]!.toFixed(0)}–${s.at(-1)!.toFixed(0)} ms  (${(median(s) / nodes).toFixed(2)} ms/node)`,
    );
    return median(s);
  };
  const a = line("with ledger", withLedger);
  const b = line("VOUCH_LEDGER=off", without);
  console.log(
    `ratio with/without: ${(a / b).toFixed(3)}  (+${(((a - b) / nodes) * 1000).toFixed(0)} µs per node); load average after ${load()}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
