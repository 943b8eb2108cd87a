// Validation time against the keys of one mapping (issue 12, item 11):
// `dist/vouch validate` on graphs whose `inputs:` mapping holds 10,000 and
// 40,000 keys (valid), and a node holding 10,000 and 40,000 unknown fields (a
// problem each, so every problem's position is looked up). The growth 10k → 40k
// is the ratio of the medians; linear is 4×, the old loader was ~11× (quadratic).
//   bun bench/validate-growth.ts [--reps 5] [--vouch PATH]   (standalone; --vouch
//   measures another build, e.g. one of main before the fix)
// bench/run.ts calls validateGrowth() and puts the figures in its table.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { summarize, tempFolder, VOUCH, type Summary } from "./lib/measure.ts";

export const GROWTH_SIZES = [10_000, 40_000] as const;

const shapes = {
  inputs: (n: number) =>
    `version: 1\nname: big\ninputs:\n${keys(n, (i) => `  k${i}: { default: v }\n`)}nodes:\n  a: { kind: end, status: success }\n`,
  unknown: (n: number) => `version: 1\nname: big\nnodes:\n  a:\n    kind: end\n    status: success\n${keys(n, (i) => `    k${i}: 1\n`)}`,
};
type Shape = keyof typeof shapes;

function keys(n: number, line: (i: number) => string): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(line(i));
  return out.join("");
}

/** Wall and CPU time of one `vouch validate FILE`, in ms. */
function validateOnce(vouch: string, file: string, expectExit: number): { wallMs: number; cpuMs: number } {
  const start = performance.now();
  const r = Bun.spawnSync([vouch, "validate", file], { stdout: "ignore", stderr: "ignore" });
  const wallMs = performance.now() - start;
  if (r.exitCode !== expectExit) throw new Error(`vouch validate ${file} exited ${r.exitCode}, expected ${expectExit}`);
  return { wallMs, cpuMs: Number(r.resourceUsage.cpuTime.total) / 1000 };
}

export interface GrowthResult {
  shape: Shape;
  bytes: [number, number];
  /** CPU time (user + sys) at 10k and 40k keys, ms. */
  cpuMs: [Summary, Summary];
  wallMs: [Summary, Summary];
  /** Per repetition: cpu(40k) / cpu(10k). */
  growth: Summary;
}

export async function validateGrowth(reps: number, vouch = VOUCH): Promise<GrowthResult[]> {
  const dir = tempFolder("vouch-bench-validate-");
  const results: GrowthResult[] = [];
  try {
    for (const shape of Object.keys(shapes) as Shape[]) {
      const texts = GROWTH_SIZES.map((n) => shapes[shape](n));
      const files = texts.map((t, i) => {
        const f = join(dir.path, `${shape}-${GROWTH_SIZES[i]}.yaml`);
        writeFileSync(f, t);
        return f;
      });
      const exit = shape === "inputs" ? 0 : 2;
      const cpu: [number[], number[]] = [[], []];
      const wall: [number[], number[]] = [[], []];
      validateOnce(vouch, files[0]!, exit); // warm the page cache
      for (let r = 0; r < reps; r++) {
        for (const i of [0, 1] as const) {
          const m = validateOnce(vouch, files[i]!, exit);
          cpu[i].push(m.cpuMs);
          wall[i].push(m.wallMs);
        }
      }
      results.push({
        shape,
        bytes: [texts[0]!.length, texts[1]!.length],
        cpuMs: [summarize(cpu[0]), summarize(cpu[1])],
        wallMs: [summarize(wall[0]), summarize(wall[1])],
        growth: summarize(cpu[1].map((x, i) => x / cpu[0][i]!)),
      });
    }
  } finally {
    dir.remove();
  }
  return results;
}

if (import.meta.main) {
  const at = process.argv.indexOf("--reps");
  const reps = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 1) : 5;
  const v = process.argv.indexOf("--vouch");
  for (const r of await validateGrowth(reps, v >= 0 ? process.argv[v + 1]! : VOUCH)) {
    const f = (s: Summary) => `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
    console.log(`${r.shape}: 10k keys (${(r.bytes[0] / 1024).toFixed(0)} KiB) cpu ${f(r.cpuMs[0])} wall ${f(r.wallMs[0])}`);
    console.log(`${r.shape}: 40k keys (${(r.bytes[1] / 1024).toFixed(0)} KiB) cpu ${f(r.cpuMs[1])} wall ${f(r.wallMs[1])}`);
    console.log(
      `${r.shape}: growth 10k → 40k (cpu, per repetition) ${r.growth.median.toFixed(2)}× (${r.growth.min.toFixed(2)}–${r.growth.max.toFixed(2)}); linear = 4×`,
    );
  }
}
