// Repeatable measurements of the spawn seam (ADR 0004 quotes them):
//   1. kill latency: a wall cap on `sh -c 'sleep 30 & echo hi; wait'` (a grandchild
//      holds the pipe) — from the cap to runProcess returning, and to the group gone;
//   2. the same with a leader that ignores SIGTERM (cap + grace + SIGKILL);
//   3. RSS growth of this process while a child prints N MiB (default 1024).
// Run: node_modules/.bin/bun bench/spawn-kill.ts [runs=20] [MiB,MiB,...=1024]
// bench/run.ts calls killLatency() for its table.
import { runProcess } from "../src/spawn/process.ts";
import { groupAlive } from "../test/spawn/helpers.ts";
import { summarize, type Summary } from "./lib/measure.ts";

const WALL = 200;
const env = { PATH: "/usr/bin:/bin" };
const stubs = `${import.meta.dirname}/../test/stubs`;

/** No live member left (zombies waiting for init to reap them are dead already). */
const groupGone = (pgid: number) => !groupAlive(pgid);

export interface KillLatency {
  wallCapMs: number;
  /** From the cap firing to runProcess returning. */
  toReturnMs: Summary;
  /** From the cap firing to no live process left in the group. */
  toGoneMs: Summary;
}

/** Wall cap on a shell whose grandchild holds the pipe (argv null), or on the given argv. */
export async function killLatency(runs: number, argv: string[] | null = null, graceMs = 2000): Promise<KillLatency> {
  const toReturn: number[] = [];
  const toGone: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const command = argv ? { argv } : { shell: "sleep 30 & echo hi; wait" };
    const r = await runProcess(command, { cwd: "/tmp", env, wallMs: WALL, graceMs });
    toReturn.push(performance.now() - t0 - WALL);
    while (!groupGone(r.pid!)) await Bun.sleep(1);
    toGone.push(performance.now() - t0 - WALL);
    if (r.terminationReason !== "wall") throw new Error(`unexpected ${r.terminationReason}`);
  }
  return { wallCapMs: WALL, toReturnMs: summarize(toReturn), toGoneMs: summarize(toGone) };
}

async function rssGrowth(mibToPrint: number) {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const r = await runProcess({ argv: [`${stubs}/print-bytes.sh`, String(mibToPrint * 2 ** 20)] }, { cwd: "/tmp", env });
  clearInterval(sampler);
  const mib = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(
    `${mibToPrint} MiB on stdout: ${r.stdoutBytes} bytes in ${r.wallMs} ms; RSS before ${mib(before)} MiB, peak ${mib(peak)} MiB, growth ${mib(peak - before)} MiB`,
  );
}

if (import.meta.main) {
  const RUNS = Number(process.argv[2] ?? 20);
  const SIZES_MIB = (process.argv[3] ?? "1024").split(",").map(Number);
  const show = (label: string, k: KillLatency) => {
    const f = (s: Summary) => `median ${s.median.toFixed(1)} ms, min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)} (n=${s.n})`;
    console.log(`${label}\n  cap -> runProcess returned: ${f(k.toReturnMs)}\n  cap -> no process of the group left: ${f(k.toGoneMs)}`);
  };
  show(`wall cap ${WALL} ms, grandchild holding the pipe (sh -c 'sleep 30 & echo hi; wait'):`, await killLatency(RUNS));
  show(
    `wall cap ${WALL} ms, leader ignores SIGTERM, grace 300 ms:`,
    await killLatency(RUNS, [`${stubs}/ignore-sigterm.sh`, "/tmp/vouch-bench-ignore.pids", "30"], 300),
  );
  for (const size of SIZES_MIB) await rssGrowth(size);
}
