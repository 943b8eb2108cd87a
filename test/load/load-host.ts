// The load test's host: runs the engine in this process with the real spawn
// seam (createCommandRunner → runProcess) and the real SQLite ledger, on a map
// of N branches of one `true` script each, and reports as one JSON line what
// it measured of itself: open file descriptors, RSS and heap, and zombie
// children — before (after a warm-up run), sampled during, and after.
//   bun test/load/load-host.ts HOME N CONCURRENCY [WARMUP=100]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readGraphFile } from "../../src/cli/graph-file.ts";
import { runGraph, systemClock } from "../../src/engine/run.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { createCommandRunner } from "../../src/spawn/command-runner.ts";

const [homeArg, nArg, concArg, warmArg] = process.argv.slice(2);
if (!homeArg || !nArg || !concArg) {
  console.error("usage: bun test/load/load-host.ts HOME N CONCURRENCY [WARMUP]");
  process.exit(2);
}
const home: string = homeArg;
const N = Number(nArg);
const CONCURRENCY = Number(concArg);
const WARMUP = Number(warmArg ?? 100);

const graphPath = join(home, "load.yaml");
writeFileSync(
  graphPath,
  `version: 1
name: load
inputs: { items: { required: true } }
nodes:
  each:
    kind: map
    over: inputs.items
    as: item
    branch:
      work: { kind: script, run: "true" }
`,
);

const fds = () => readdirSync("/proc/self/fd").length;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

/** Children of this process: [alive, zombie] counts, from /proc/<pid>/stat (state, ppid). */
function children(): { alive: number; zombies: number } {
  let alive = 0;
  let zombies = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) !== process.pid) continue;
      if (f[0] === "Z") zombies++;
      else alive++;
    } catch {
      // gone meanwhile
    }
  }
  return { alive, zombies };
}

const ledger = openLedger({ home });
let runs = 0;
async function run(items: number) {
  const graph = readGraphFile(graphPath, home, {});
  const sink = ledger.sink(() => {});
  const outcome = await runGraph({
    runId: `load-${++runs}`,
    graph: graph.graph,
    graphPath: graph.path,
    graphDigest: graph.digest,
    inputs: { items: Array.from({ length: items }, (_, i) => `item-${i}`).join("\n") },
    baseDir: home,
    concurrency: CONCURRENCY,
    version: "load",
    ports: { commands: createCommandRunner({ parentEnv: process.env }), clock: systemClock, ledger: sink },
  });
  sink.close();
  return outcome;
}

async function settle() {
  Bun.gc(true);
  await Bun.sleep(200);
  Bun.gc(true);
}

const warm = await run(WARMUP);
if (warm.status !== "passed") throw new Error(`warm-up run ${warm.status}`);
await settle();
const before = { fds: fds(), rssMb: rssMb(), heapMb: heapMb(), ...children() };

const during = { maxFds: 0, maxRssMb: 0, maxAlive: 0, maxZombies: 0, samples: 0 };
const sampler = setInterval(() => {
  const c = children();
  during.maxFds = Math.max(during.maxFds, fds());
  during.maxRssMb = Math.max(during.maxRssMb, rssMb());
  during.maxAlive = Math.max(during.maxAlive, c.alive);
  during.maxZombies = Math.max(during.maxZombies, c.zombies);
  during.samples++;
}, 20);
const t0 = performance.now();
const outcome = await run(N);
const ms = Math.round(performance.now() - t0);
clearInterval(sampler);
await settle();
const after = { fds: fds(), rssMb: rssMb(), heapMb: heapMb(), ...children() };
ledger.close();
console.log(
  JSON.stringify({
    pid: process.pid,
    n: N,
    concurrency: CONCURRENCY,
    ms,
    status: outcome.status,
    counts: outcome.counts,
    before,
    during,
    after,
  }),
);
