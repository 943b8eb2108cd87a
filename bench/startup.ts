// Start-up time of the real binary: `dist/vouch --version` and `dist/vouch
// validate <the largest shipped graph>`, each run N times after warm-ups, next
// to the floor: a compiled Bun binary that prints one line. Wall time around
// the process and its CPU time (user + sys, from wait4's rusage), in ms.
//   bun bench/startup.ts [--runs 30] [--warmup 3]      (standalone)
// bench/run.ts calls startup() and puts the figures in its table.
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { ROOT, summarize, tempFolder, VOUCH, type Summary } from "./lib/measure.ts";

/** The largest graph shipped in graphs/ (by bytes). */
export function largestShippedGraph(): string {
  const dir = join(ROOT, "graphs");
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

function times(argv: string[], runs: number, warmup: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = performance.now();
    const r = Bun.spawnSync(argv, { stdout: "ignore", stderr: "ignore", cwd: ROOT });
    const wallMs = performance.now() - start;
    if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${r.exitCode}`);
    if (i >= warmup) out.push({ wallMs, cpuMs: Number(r.resourceUsage.cpuTime.total) / 1000 });
  }
  return out;
}

/** A compiled Bun binary that prints one line: the floor any `bun build --compile` program pays. */
async function buildFloor(dir: string): Promise<string> {
  const src = join(dir, "hello.ts");
  writeFileSync(src, 'console.log("hello");\n');
  const outfile = join(dir, "hello");
  const r = await Bun.build({ entrypoints: [src], compile: { outfile }, bytecode: true, format: "esm", minify: true });
  if (!r.success) throw new Error(`could not build the start-up floor: ${r.logs.join("\n")}`);
  return outfile;
}

export interface StartupResult {
  graph: string;
  graphBytes: number;
  versionMs: Summary;
  validateMs: Summary;
  floorMs: Summary;
  versionCpuMs: Summary;
  validateCpuMs: Summary;
  floorCpuMs: Summary;
  /** Per block: median --version wall / median floor wall. */
  versionOverFloor: Summary;
  /** validate / --version, per block of 5 (issue 20's target: ≤ 2×). */
  validateOverVersion: Summary;
}

export async function startup(runs: number, warmup = 3): Promise<StartupResult> {
  const graph = largestShippedGraph();
  const dir = tempFolder("vouch-bench-startup-");
  try {
    const floor = await buildFloor(dir.path);
    const cmds = { floor: [floor], version: [VOUCH, "--version"], validate: [VOUCH, "validate", graph] };
    const got: Record<keyof typeof cmds, Sample[]> = { floor: [], version: [], validate: [] };
    const blockRatios: number[] = [];
    const validateRatios: number[] = [];
    for (const argv of Object.values(cmds)) times(argv, 0, warmup);
    // Interleaved in blocks of 5, so a burst of load hits every command.
    for (let done = 0; done < runs; done += 5) {
      const n = Math.min(5, runs - done);
      const block: Partial<Record<keyof typeof cmds, Sample[]>> = {};
      for (const key of Object.keys(cmds) as (keyof typeof cmds)[]) {
        block[key] = times(cmds[key], n, 0);
        got[key].push(...block[key]!);
      }
      const med = (k: keyof typeof cmds) => summarize(block[k]!.map((x) => x.wallMs)).median;
      blockRatios.push(med("version") / med("floor"));
      validateRatios.push(med("validate") / med("version"));
    }
    const wall = (k: keyof typeof cmds) => summarize(got[k].map((x) => x.wallMs));
    const cpu = (k: keyof typeof cmds) => summarize(got[k].map((x) => x.cpuMs));
    return {
      graph: graph.slice(ROOT.length + 1),
      graphBytes: statSync(graph).size,
      versionMs: wall("version"),
      validateMs: wall("validate"),
      floorMs: wall("floor"),
      versionCpuMs: cpu("version"),
      validateCpuMs: cpu("validate"),
      floorCpuMs: cpu("floor"),
      versionOverFloor: summarize(blockRatios),
      validateOverVersion: summarize(validateRatios),
    };
  } finally {
    dir.remove();
  }
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
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  const runs = flag("--runs", 30);
  console.log(`vouch start-up, ${runs} runs after warm-ups (ms); load average ${load()}`);
  const r = await startup(runs, flag("--warmup", 3));
  const line = (label: string, s: Summary) =>
    console.log(`${label.padEnd(56)} median ${s.median.toFixed(1)}  min ${s.min.toFixed(1)}  max ${s.max.toFixed(1)}`);
  line("compiled hello world (the floor), wall", r.floorMs);
  line("--version, wall", r.versionMs);
  line(`validate ${r.graph} (${r.graphBytes} bytes), wall`, r.validateMs);
  line("compiled hello world, CPU", r.floorCpuMs);
  line("--version, CPU", r.versionCpuMs);
  line("validate, CPU", r.validateCpuMs);
  console.log(`load average after: ${load()}`);
}
