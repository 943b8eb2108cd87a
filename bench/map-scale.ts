// A large map of `true` scripts (issue 29): `dist/vouch run --json` on a map of N
// items at concurrency 8 (bench/graphs/overhead.yaml), its stdout read as it comes
// so the finished branches are counted while it runs: branches per second, vouch's
// peak RSS (the kernel's, from /usr/bin/time, or VmHWM sampled every 50 ms), and its resident set when `warm` branches had finished (the growth from
// there to the peak is what "flat after warm-up" bounds). The ledger is kept for
// the caller to weigh (bench/ledger-weight.ts) and removed by `remove()`.
import { existsSync, readFileSync } from "node:fs";
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

const TIME = "/usr/bin/time";

/** The first child of a process (vouch under /usr/bin/time); null until it has one. */
function childOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ")[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
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
    // Under /usr/bin/time when there is one: its ru_maxrss is vouch's own peak. Bun's
    // resourceUsage().maxRSS is not: a child forked from the bench counts the bench's
    // resident pages until it execs.
    const timed = existsSync(TIME);
    const argv = [...(timed ? [TIME, "-f", "vouch-maxrss-kb %M"] : []), VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`];
    const p = Bun.spawn(argv, {
      cwd: dir.path,
      env: vouchEnv(dir.path),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let vouchPid: number | null = timed ? null : p.pid;
    const vouch = () => (vouchPid ??= childOf(p.pid));
    let peak = 0;
    let warmRss: number | null = null;
    const timer = setInterval(() => (peak = Math.max(peak, peakRss(vouch() ?? -1) ?? 0)), 50);
    const [finished, stderr, code] = await Promise.all([
      countLines(p.stdout, (n) => {
        if (warmRss === null && n >= warm && items > warm) warmRss = residentSet(vouch() ?? -1);
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
      // The kernel's figure (time's wait4) catches a peak between two samples.
      peakRssMb: Math.max(peak, Number(/vouch-maxrss-kb (\d+)/.exec(stderr)?.[1] ?? 0) * 1024) / MiB,
      warmRssMb: warmRss === null ? null : (warmRss as number) / MiB,
      home: join(dir.path, "ledger"),
      remove: () => dir.remove(),
    };
  } catch (e) {
    dir.remove();
    throw e;
  }
}
