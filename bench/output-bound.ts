// The output bound: vouch's own peak RSS while a check prints BYTES on stdout
// (64-byte lines), against the same run with a check that prints nothing.
// vouch keeps a bounded tail (64 KiB per stream, ADR 0004), so the peak should
// not grow with the size printed.
import { join } from "node:path";
import { expectExit, measure, MiB, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface OutputBoundResult {
  bytes: number;
  baselineRssMb: Summary;
  floodRssMb: Summary;
  /** Per repetition: flood peak − baseline peak. */
  growthMb: Summary;
  floodMs: Summary;
}

export async function outputBound(bytes: number, reps: number): Promise<OutputBoundResult> {
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
    const flood: number[] = [];
    const floodMs: number[] = [];
    for (let r = 0; r < reps; r++) {
      const b = await run(0);
      const f = await run(bytes);
      base.push(b.peakRssBytes / MiB);
      flood.push(f.peakRssBytes / MiB);
      floodMs.push(f.wallMs);
    }
    return { bytes, baselineRssMb: summarize(base), floodRssMb: summarize(flood), growthMb: summarize(flood.map((x, i) => x - base[i]!)), floodMs: summarize(floodMs) };
  } finally {
    dir.remove();
  }
}
