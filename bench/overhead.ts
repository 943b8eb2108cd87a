// Engine overhead against the process limit: a map of N `true` scripts at
// concurrency 8 under `dist/vouch run --json`, against `xargs -P 8` running the
// same N `sh -c true`, against the Bun spawn floor (bench/spawn-floor.ts), and
// against itself with VOUCH_LEDGER=off (ADR 0009's benchmark switch: what the
// ledger costs) — side by side, the order rotating, each repetition all four.
import { join } from "node:path";
import { compileForkPool } from "./lib/fork-pool.ts";
import { expectExit, measure, ratios, summarize, tempFolder, VOUCH, vouchEnv, type Measured, type Summary } from "./lib/measure.ts";

export interface OverheadResult {
  items: number;
  vouchMs: Summary;
  xargsMs: Summary;
  floorMs: Summary;
  ratio: Summary;
  /** vouch / the Bun spawn floor, per repetition. */
  floorRatio: Summary;
  noLedgerMs: Summary;
  /** vouch / vouch with VOUCH_LEDGER=off, per repetition. */
  ledgerRatio: Summary;
  vouchPeakRssMb: Summary;
  /** The C pool's wall time and vouch / it, per repetition; or why it was not run. */
  pool: { ms: Summary; ratio: Summary } | { missing: string };
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
      expectExit(
        await measure([VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`], { cwd: dir.path, env }),
        0,
        "vouch run (overhead)",
      );
    const xargs = async () =>
      expectExit(await measure(["xargs", "-P", "8", "-n", "1", "sh", "-c", "true"], { stdin: lines, env }), 0, "xargs");
    const floorScript = join(import.meta.dirname, "spawn-floor.ts");
    const floor = async () => expectExit(await measure([process.execPath, floorScript, String(items), "8"], { env }), 0, "spawn floor");
    const noLedger = async () =>
      expectExit(
        await measure([VOUCH, "run", graph, "--json", "-i", `items=@${itemsFile}`], {
          cwd: dir.path,
          env: { ...env, VOUCH_LEDGER: "off" },
        }),
        0,
        "vouch run (overhead, VOUCH_LEDGER=off)",
      );
    const cc = compileForkPool(dir.path);
    const pool = async () => ("path" in cc ? expectExit(await measure([cc.path, String(items), "8"], { env }), 0, "fork-pool") : null);
    const runs = { vouch, xargs, floor, noLedger, ...("path" in cc ? { pool } : {}) } as Record<string, () => Promise<Measured | null>>;
    for (const f of Object.values(runs)) await f(); // warm-up: page cache, ledger file
    const got: Record<string, Measured[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
    const order = Object.keys(runs);
    for (let i = 0; i < reps; i++) {
      // Rotate which goes first, so a drift in the machine's load hits all of them.
      for (let k = 0; k < order.length; k++) {
        const key = order[(i + k) % order.length]!;
        got[key]!.push((await runs[key]!())!);
      }
    }
    const ms = (k: string) => got[k]!.map((m) => m.wallMs);
    return {
      items,
      vouchMs: summarize(ms("vouch")),
      xargsMs: summarize(ms("xargs")),
      floorMs: summarize(ms("floor")),
      ratio: ratios(ms("vouch"), ms("xargs")),
      floorRatio: ratios(ms("vouch"), ms("floor")),
      noLedgerMs: summarize(ms("noLedger")),
      ledgerRatio: ratios(ms("vouch"), ms("noLedger")),
      vouchPeakRssMb: summarize(got.vouch!.map((m) => m.peakRssBytes / 2 ** 20)),
      pool: "path" in cc ? { ms: summarize(ms("pool")), ratio: ratios(ms("vouch"), ms("pool")) } : cc,
    };
  } finally {
    dir.remove();
  }
}
