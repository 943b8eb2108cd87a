// The output bound: vouch's own peak RSS while a check prints BYTES on stdout
// (64-byte lines), for two sizes, against the same run with a check that
// prints nothing. vouch keeps a bounded tail (64 KiB per stream, ADR 0004), so
// the peak should not grow with the size printed.
import { join } from "node:path";
import { expectExit, measure, MiB, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface OutputBoundResult {
  sizes: number[];
  baselineRssMb: Summary;
  /** Per size. */
  floodRssMb: Summary[];
  /** Per size, per repetition: flood peak − baseline peak of the same repetition. */
  growthMb: Summary[];
  floodMs: Summary[];
}

export async function outputBound(sizes: number[], reps: number): Promise<OutputBoundResult> {
  const dir = tempFolder("vouch-bench-output-");
  try {
    const graph = join(import.meta.dirname, "graphs", "output.yaml");
    const env = vouchEnv(dir.path);
    const run = async (n: number) => {
      const m = await measure([VOUCH, "run", graph, "--json", "-i", `bytes=${n}`], { cwd: dir.path, env, keepStdout: true });
      expectExit(m, 0, `vouch run (output bound, ${n} bytes)`);
      // The check really printed it: vouch counted the bytes it did not keep.
      if (n > 0 && !m.stdout.includes('"truncated":true')) throw new Error("the flood check's output was not truncated: did it print?");
      return m;
    };
    await run(0); // warm-up
    const base: number[] = [];
    const flood = sizes.map(() => [] as number[]);
    const floodMs = sizes.map(() => [] as number[]);
    for (let r = 0; r < reps; r++) {
      base.push((await run(0)).peakRssBytes / MiB);
      for (const [i, size] of sizes.entries()) {
        const f = await run(size);
        flood[i]!.push(f.peakRssBytes / MiB);
        floodMs[i]!.push(f.wallMs);
      }
    }
    return {
      sizes,
      baselineRssMb: summarize(base),
      floodRssMb: flood.map(summarize),
      growthMb: flood.map((xs) => summarize(xs.map((x, r) => x - base[r]!))),
      floodMs: floodMs.map(summarize),
    };
  } finally {
    dir.remove();
  }
}
