// Pure scheduling: maps of 1,000 and 10,000 items on the replay harness (no
// process per item) through `dist/vouch run --json`: wall time and vouch's
// peak RSS, and how both grow from the small map to the large one.
import { join } from "node:path";
import { expectExit, measure, MiB, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface SchedulingResult {
  sizes: [number, number];
  ms: [Summary, Summary];
  peakRssMb: [Summary, Summary];
  /** Per repetition: large / small. Linear growth is sizes[1] / sizes[0]. */
  timeGrowth: Summary;
  rssGrowth: Summary;
  /** Per repetition: (large − small) / (sizes[1] − sizes[0]): the cost of one more item, fixed costs removed. */
  marginalMsPerItem: Summary;
  marginalKibPerItem: Summary;
  /** Events per run (from the NDJSON), to show the work is proportional. */
  events: [number, number];
}

export async function scheduling(small: number, large: number, reps: number): Promise<SchedulingResult> {
  const dir = tempFolder("vouch-bench-sched-");
  try {
    const graph = join(import.meta.dirname, "graphs", "sched.yaml");
    const env = vouchEnv(dir.path);
    const files: string[] = [];
    for (const n of [small, large]) {
      const f = join(dir.path, `items-${n}.txt`);
      await Bun.write(f, Array.from({ length: n }, (_, i) => `item-${i}`).join("\n") + "\n");
      files.push(f);
    }
    const run = async (i: 0 | 1) => {
      const m = await measure([VOUCH, "run", graph, "--json", "-i", `items=@${files[i]}`], { cwd: dir.path, env, keepStdout: true });
      expectExit(m, 0, `vouch run (scheduling, ${[small, large][i]} items)`);
      const events = m.stdout.split("\n").filter(Boolean).length;
      m.stdout = "";
      return { ...m, events };
    };
    await run(0); // warm-up
    const ms: [number[], number[]] = [[], []];
    const rss: [number[], number[]] = [[], []];
    const events: [number, number] = [0, 0];
    for (let r = 0; r < reps; r++) {
      for (const i of r % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
        const m = await run(i);
        ms[i].push(m.wallMs);
        rss[i].push(m.peakRssBytes / MiB);
        events[i] = m.events;
      }
    }
    return {
      sizes: [small, large],
      ms: [summarize(ms[0]), summarize(ms[1])],
      peakRssMb: [summarize(rss[0]), summarize(rss[1])],
      timeGrowth: summarize(ms[1].map((x, i) => x / ms[0][i]!)),
      rssGrowth: summarize(rss[1].map((x, i) => x / rss[0][i]!)),
      marginalMsPerItem: summarize(ms[1].map((x, i) => (x - ms[0][i]!) / (large - small))),
      marginalKibPerItem: summarize(rss[1].map((x, i) => ((x - rss[0][i]!) * 1024) / (large - small))),
      events,
    };
  } finally {
    dir.remove();
  }
}
