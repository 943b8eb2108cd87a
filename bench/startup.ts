// Start-up time of the real binary: `dist/vouch --version` and `dist/vouch
// validate <the largest shipped graph>`, each run N times after warm-ups.
// Wall time around the process, in milliseconds.
//   bun bench/startup.ts [--runs 30] [--warmup 3]      (standalone)
// bench/run.ts calls startup() and puts the figures in its table.
import { existsSync, readdirSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ROOT, summarize, VOUCH, type Summary } from "./lib/measure.ts";

/** The largest graph shipped in graphs/ (by bytes). */
export function largestShippedGraph(): string {
  const dir = join(ROOT, "graphs");
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

function times(args: string[], runs: number, warmup: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = performance.now();
    const r = Bun.spawnSync([VOUCH, ...args], { stdout: "ignore", stderr: "ignore", cwd: ROOT });
    const ms = performance.now() - start;
    if (r.exitCode !== 0) throw new Error(`vouch ${args.join(" ")} exited ${r.exitCode}`);
    if (i >= warmup) out.push(ms);
  }
  return out;
}

export interface StartupResult {
  graph: string;
  graphBytes: number;
  versionMs: Summary;
  validateMs: Summary;
}

export function startup(runs: number, warmup = 3): StartupResult {
  const graph = largestShippedGraph();
  // Interleaved in blocks of 5, so a burst of load hits both commands.
  const version: number[] = [];
  const validate: number[] = [];
  times(["--version"], 0, warmup);
  times(["validate", graph], 0, warmup);
  for (let done = 0; done < runs; done += 5) {
    const n = Math.min(5, runs - done);
    version.push(...times(["--version"], n, 0));
    validate.push(...times(["validate", graph], n, 0));
  }
  return { graph: graph.slice(ROOT.length + 1), graphBytes: statSync(graph).size, versionMs: summarize(version), validateMs: summarize(validate) };
}

if (import.meta.main) {
  if (!existsSync(VOUCH)) {
    console.error("dist/vouch is missing: run `bun run build.ts` first");
    process.exit(2);
  }
  const flag = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
  const runs = flag("--runs", 30);
  console.log(`vouch start-up, ${runs} runs after warm-ups (ms); load average ${load()}`);
  const r = startup(runs, flag("--warmup", 3));
  const line = (label: string, s: Summary) => console.log(`${label.padEnd(56)} median ${s.median.toFixed(1)}  min ${s.min.toFixed(1)}  max ${s.max.toFixed(1)}`);
  line("--version", r.versionMs);
  line(`validate ${r.graph} (${r.graphBytes} bytes)`, r.validateMs);
  console.log(`load average after: ${load()}`);
}
