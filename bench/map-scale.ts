// A large map of `true` scripts (issue 29): `dist/vouch run --json` on a map of N
// items at concurrency 8 (bench/graphs/overhead.yaml), its stdout read as it comes
// so the finished branches are counted while it runs: branches per second, vouch's
// peak RSS (VmHWM sampled, or the kernel's ru_maxrss if higher), and its resident set when `warm` branches had finished (the growth from
// there to the peak is what "flat after warm-up" bounds). The ledger is kept for
// the caller to weigh (bench/ledger-weight.ts) and removed by `remove()`.
import { join } from "node:path";
import { MiB, peakRss, residentSet, tempFolder, VOUCH, vouchEnv } from "./lib/measure.ts";

export interface MapScale {
  items: number;
  wallMs: number;
  branchesPerS: number;
  peakRssMb: number;
  /** Resident set (VmRSS) when `warm` branches had finished; null when the run was smaller. */
  warmRssMb: number | null;
  /** The run's VOUCH_HOME, holding ledger.sqlite. */
  home: string;
  remove(): void;
}

const FINISHED = '"type":"branch.finished"';

/** Counts branch.finished events in the NDJSON stream as it comes (a line split across chunks too). */
async function countLines(stream: ReadableStream<Uint8Array>, onCount: (n: number) => void): Promise<number> {
  const dec = new TextDecoder();
  let carry = "";
  let n = 0;
  for await (const chunk of stream) {
    const text = carry + dec.decode(chunk, { stream: true });
    let i = text.indexOf(FINISHED);
    while (i >= 0) {
      n++;
      i = text.indexOf(FINISHED, i + FINISHED.length);
    }
    carry = text.slice(-(FINISHED.length - 1));
    onCount(n);
  }
  return n;
}

export async function mapScale(items: number, warm = 10_000): Promise<MapScale> {
  const dir = tempFolder("vouch-bench-map-scale-");
  try {
    const itemsFile = join(dir.path, "items.txt");
    await Bun.write(itemsFile, `${Array.from({ length: items }, (_, i) => `item-${i}`).join("\n")}\n`);
    const graph = join(import.meta.dirname, "graphs", "overhead.yaml");
    const started = performance.now();
    const p = Bun.spawn([VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`], {
      cwd: dir.path,
      env: vouchEnv(dir.path),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let peak = 0;
    let warmRss: number | null = null;
    const timer = setInterval(() => (peak = Math.max(peak, peakRss(p.pid) ?? 0)), 50);
    const [finished, stderr, code] = await Promise.all([
      countLines(p.stdout, (n) => {
        if (warmRss === null && n >= warm && items > warm) warmRss = residentSet(p.pid);
      }),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    const wallMs = performance.now() - started;
    clearInterval(timer);
    if (code !== 0 || finished !== items)
      throw new Error(`vouch run (map of ${items}) exited ${code} with ${finished} branches finished:\n${stderr.slice(-2000)}`);
    return {
      items,
      wallMs,
      branchesPerS: items / (wallMs / 1000),
      // The kernel's ru_maxrss (wait4) catches a peak between two samples.
      peakRssMb: Math.max(peak, p.resourceUsage()?.maxRSS ?? 0) / MiB,
      warmRssMb: warmRss === null ? null : (warmRss as number) / MiB,
      home: join(dir.path, "ledger"),
      remove: () => dir.remove(),
    };
  } catch (e) {
    dir.remove();
    throw e;
  }
}
