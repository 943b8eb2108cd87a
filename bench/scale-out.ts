// Scale-out benchmark (issue 19): 200 branches of `sleep 0.2` run by 1, 2 and 4
// `vouch worker`s at 8 jobs each over a real redis-server, against the same map
// run in process at concurrency 8. Prints the scaling ratios and the queue's
// per-branch overhead, with the machine's load and fork cost.
// Run: bun run build.ts && bun bench/scale-out.ts [--reps N]
import { numberedMapGraph } from "../test/scale/numbered-map.ts";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { RedisServer } from "../test/scale/redis-server.ts";

const BIN = join(import.meta.dirname, "..", "dist", "vouch");
const BRANCHES = 200;
const PER_WORKER = 8;
const reps = Number(process.argv[process.argv.indexOf("--reps") + 1]) || 2;
const dir = mkdtempSync(join(tmpdir(), "vouch-bench-scale-"));
// The fleet key every coordinator and worker needs (ADR 0045): one drawn for this bench.
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/root",
  VOUCH_HOME: join(dir, ".vouch"),
  VOUCH_FLEET_KEY: randomBytes(32).toString("hex"),
};
const graph = join(dir, "sleep.yaml");
writeFileSync(graph, numberedMapGraph("sleep-map", BRANCHES, `      nap: { kind: script, run: "sleep 0.2" }`));

const redis = await RedisServer.start();
const url = redis.url;

async function timed(args: string[]): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([BIN, ...args], { env, cwd: dir, stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`vouch ${args.join(" ")}: exit ${code}: ${await new Response(p.stderr).text()}`);
  return (performance.now() - t0) / 1000;
}

async function withWorkers<T>(n: number, body: () => Promise<T>): Promise<T> {
  const ws = [];
  for (let i = 0; i < n; i++) {
    const w = Bun.spawn([BIN, "worker", url, "--concurrency", String(PER_WORKER), "--name", `b${i}`], {
      env,
      cwd: dir,
      stdout: "ignore",
      stderr: "pipe",
    });
    const reader = w.stderr.getReader();
    let text = "";
    while (!text.includes("taking branch jobs")) text += new TextDecoder().decode((await reader.read()).value);
    ws.push(w);
  }
  try {
    return await body();
  } finally {
    for (const w of ws) w.kill("SIGTERM");
    await Promise.all(ws.map((w) => w.exited));
  }
}

function forkMs(): number {
  const t0 = performance.now();
  for (let i = 0; i < 50; i++) Bun.spawnSync(["true"]);
  return (performance.now() - t0) / 50;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadBefore = load();
const fork = forkMs();
const wall: Record<string, number[]> = { local: [], w1: [], w2: [], w4: [] };
try {
  for (let r = 0; r < reps; r++) {
    wall.local!.push(await timed(["run", graph, "--json", "--concurrency", String(PER_WORKER)]));
    for (const n of [1, 2, 4])
      wall[`w${n}`]!.push(
        await withWorkers(n, () => timed(["run", graph, "--json", "--concurrency", String(PER_WORKER * n), "--executor", url])),
      );
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
const m = Object.fromEntries(Object.entries(wall).map(([k, v]) => [k, median(v)])) as Record<string, number>;
const ideal = (BRANCHES * 0.2) / PER_WORKER;
console.log(
  `scale-out: ${BRANCHES} branches of sleep 0.2, ${PER_WORKER} per worker, ${reps} reps (medians); load ${loadBefore} before, ${load()} after; fork+exec of true ${fork.toFixed(2)} ms`,
);
console.log(`local (concurrency 8): ${m.local!.toFixed(2)} s (ideal ${ideal.toFixed(2)} s)`);
for (const n of [1, 2, 4])
  console.log(
    `${n} worker(s) × 8: ${m[`w${n}`]!.toFixed(2)} s (ideal ${(ideal / n).toFixed(2)} s); speed-up over 1 worker ${(m.w1! / m[`w${n}`]!).toFixed(2)}×`,
  );
console.log(
  `queue overhead per branch at 8 at once: ${((((m.w1! - m.local!) * PER_WORKER) / BRANCHES) * 1000).toFixed(0)} ms of branch latency (1 worker vs local, same concurrency)`,
);
console.log(JSON.stringify({ wall, fork_ms: fork }));
