// Engine overhead against the process limit: a map of N `true` scripts at
// concurrency 8 under `dist/vouch run --json`, against `xargs -P 8` running the
// same N `sh -c true` — side by side, alternating, each repetition a pair.
import { join } from "node:path";
import { expectExit, measure, ratios, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface OverheadResult {
  items: number;
  vouchMs: Summary;
  xargsMs: Summary;
  ratio: Summary;
  vouchPeakRssMb: Summary;
}

export async function overhead(items: number, reps: number): Promise<OverheadResult> {
  const dir = tempFolder("vouch-bench-overhead-");
  try {
    const lines = Array.from({ length: items }, (_, i) => `item-${i}`).join("\n") + "\n";
    const itemsFile = join(dir.path, "items.txt");
    await Bun.write(itemsFile, lines);
    const graph = join(import.meta.dirname, "graphs", "overhead.yaml");
    const env = vouchEnv(dir.path);
    const vouch = async () =>
      expectExit(await measure([VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`], { cwd: dir.path, env }), 0, "vouch run (overhead)");
    const xargs = async () => expectExit(await measure(["xargs", "-P", "8", "-n", "1", "sh", "-c", "true"], { stdin: lines, env }), 0, "xargs");
    await vouch(); // warm-up: page cache, ledger file
    await xargs();
    const v: number[] = [];
    const x: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < reps; i++) {
      // Alternate which goes first, so a drift in the machine's load hits both.
      let a, b;
      if (i % 2 === 0) {
        a = await vouch();
        b = await xargs();
      } else {
        b = await xargs();
        a = await vouch();
      }
      v.push(a.wallMs);
      x.push(b.wallMs);
      rss.push(a.peakRssBytes / 2 ** 20);
    }
    return { items, vouchMs: summarize(v), xargsMs: summarize(x), ratio: ratios(v, x), vouchPeakRssMb: summarize(rss) };
  } finally {
    dir.remove();
  }
}
