// `bun bench/overhead-side-by-side.ts ITEMS REPS VOUCH_BINARY...`: bench/overhead.ts's map of
// ITEMS `true` scripts (concurrency 8) run by each given vouch binary — main's copy and a
// branch's, say — beside the Bun spawn floor and `xargs -P 8`, in rotating order, and the
// medians of wall and CPU time (children included) with the ratios per repetition and the
// load average before each (ADR 0075). On a shared machine read the CPU column: wall times
// swing with the other load.
import { join } from "node:path";
import { expectExit, type Measured, measure, summarize, tempFolder, vouchEnv } from "./lib/measure.ts";

const [itemsArg, repsArg, ...binaries] = process.argv.slice(2);
const items = Number(itemsArg);
const reps = Number(repsArg);
if (!Number.isInteger(items) || items < 1 || !Number.isInteger(reps) || reps < 1 || binaries.length === 0) {
  console.error("usage: bun bench/overhead-side-by-side.ts ITEMS REPS VOUCH_BINARY...");
  process.exit(2);
}
const dir = tempFolder("vouch-bench-side-by-side-");
try {
  const lines = `${Array.from({ length: items }, (_, i) => `item-${i}`).join("\n")}\n`;
  const itemsFile = join(dir.path, "items.txt");
  await Bun.write(itemsFile, lines);
  const graph = join(import.meta.dirname, "graphs", "overhead.yaml");
  const env = vouchEnv(dir.path);
  const runs = new Map<string, () => Promise<Measured>>();
  binaries.forEach((binary, i) => {
    const argv = [binary, "run", graph, "--json", "-i", `items=@${itemsFile}`];
    runs.set(`${i + 1}: ${binary}`, async () => expectExit(await measure(argv, { cwd: dir.path, env }), 0, binary));
  });
  const floorScript = join(import.meta.dirname, "spawn-floor.ts");
  runs.set("floor", async () => expectExit(await measure([process.execPath, floorScript, String(items), "8"], { env }), 0, "floor"));
  runs.set("xargs", async () =>
    expectExit(await measure(["xargs", "-P", "8", "-n", "1", "sh", "-c", "true"], { stdin: lines, env }), 0, "xargs"),
  );
  for (const run of runs.values()) await run(); // warm-up
  const names = [...runs.keys()];
  const got = new Map<string, Measured[]>(names.map((n) => [n, []]));
  const loads: string[] = [];
  for (let i = 0; i < reps; i++) {
    loads.push((await Bun.file("/proc/loadavg").text()).split(" ")[0]!);
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]!;
      got.get(name)!.push(await runs.get(name)!());
    }
  }
  const wall = (n: string) => got.get(n)!.map((m) => m.wallMs);
  const per = (n: string, of: string) => summarize(wall(n).map((w, i) => w / wall(of)[i]!)).median.toFixed(2);
  for (const n of names) {
    const w = summarize(wall(n));
    const cpu = summarize(got.get(n)!.map((m) => m.cpuMs)).median;
    console.log(
      `${n}: wall ${w.median.toFixed(0)} ms (${w.min.toFixed(0)}–${w.max.toFixed(0)}), cpu ${cpu.toFixed(0)} ms, / floor ${per(n, "floor")}, / xargs ${per(n, "xargs")}`,
    );
  }
  const fork = summarize(wall("xargs")).median / items;
  console.log(
    `load average (1 min) before each repetition: ${loads.join(" ")}; fork cost ${fork.toFixed(2)} ms per process (xargs, 8 at once); ${navigator.hardwareConcurrency} cores`,
  );
} finally {
  dir.remove();
}
