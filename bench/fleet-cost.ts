// What the fleet costs per branch (issue 29): a map of N `true` scripts
// (bench/graphs/overhead.yaml) run by `vouch run --executor redis://…` with one
// `vouch worker` of 8 jobs on a real redis-server on a loopback port. Per branch:
// the wall of the coordinator's run (the worker already up), and the CPU of the
// coordinator, the worker (with the scripts it reaped) and redis-server during
// that run, from the kernel's counters. Repeated; a branch's figures per repetition.
//   bun bench/fleet-cost.ts [--items 500] [--reps 3] [--vouch path/to/vouch]
// --vouch: another build (main's, to compare side by side); default dist/vouch.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { RedisServer } from "../test/scale/redis-server.ts";
import { cpuMs, expectExit, measure, summarize, tempFolder, VOUCH, vouchEnv, type Summary } from "./lib/measure.ts";

export interface FleetCost {
  items: number;
  wallMsPerBranch: Summary;
  cpuMsPerBranch: Summary;
  /** The share of each process in the CPU, medians per branch. */
  coordinatorMs: number;
  workerMs: number;
  redisMs: number;
}

export const HAVE_REDIS_SERVER = Bun.which("redis-server") !== null;

async function startWorker(vouch: string, url: string, env: Record<string, string>, cwd: string) {
  const w = Bun.spawn([vouch, "worker", url, "--concurrency", "8", "--name", "bench-0"], {
    env,
    cwd,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = w.stderr.getReader();
  const dec = new TextDecoder();
  let text = "";
  while (!text.includes("taking branch jobs")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`vouch worker ended before taking jobs:\n${text}`);
    text += dec.decode(value);
  }
  void (async () => {
    while (!(await reader.read()).done); // keep its pipe from filling
  })();
  return w;
}

export async function fleetCost(items: number, reps: number, vouch = VOUCH): Promise<FleetCost> {
  const dir = tempFolder("vouch-bench-fleet-");
  const redis = await RedisServer.start();
  const env = vouchEnv(dir.path, { VOUCH_FLEET_KEY: randomBytes(32).toString("hex") });
  const worker = await startWorker(vouch, redis.url, env, dir.path);
  try {
    const itemsFile = join(dir.path, "items.txt");
    await Bun.write(itemsFile, `${Array.from({ length: items }, (_, i) => `item-${i}`).join("\n")}\n`);
    const graph = join(import.meta.dirname, "graphs", "overhead.yaml");
    const argv = [vouch, "run", graph, "--json", "--concurrency", "8", "--executor", redis.url, "-i", `items=@${itemsFile}`];
    const cpuOf = (pid: number | null, reaped: boolean) => (pid === null ? NaN : (cpuMs(pid, reaped) ?? NaN));
    const once = async () => {
      const w0 = cpuOf(worker.pid, true);
      const r0 = cpuOf(redis.pid, false);
      const m = expectExit(await measure(argv, { cwd: dir.path, env }), 0, "vouch run --executor");
      return { wallMs: m.wallMs, coordinatorMs: m.cpuMs, workerMs: cpuOf(worker.pid, true) - w0, redisMs: cpuOf(redis.pid, false) - r0 };
    };
    await once(); // warm-up: the ledger file, the worker's first jobs
    const got: Awaited<ReturnType<typeof once>>[] = [];
    for (let i = 0; i < reps; i++) got.push(await once());
    const per = (f: (g: (typeof got)[number]) => number) => summarize(got.map((g) => f(g) / items));
    return {
      items,
      wallMsPerBranch: per((g) => g.wallMs),
      cpuMsPerBranch: per((g) => g.coordinatorMs + g.workerMs + g.redisMs),
      coordinatorMs: per((g) => g.coordinatorMs).median,
      workerMs: per((g) => g.workerMs).median,
      redisMs: per((g) => g.redisMs).median,
    };
  } finally {
    worker.kill("SIGTERM");
    await worker.exited;
    await redis.stop();
    dir.remove();
  }
}

if (import.meta.main) {
  const flag = (name: string, d: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || d;
  const at = process.argv.indexOf("--vouch");
  const f = await fleetCost(flag("--items", 500), flag("--reps", 3), at > 0 ? process.argv[at + 1]! : VOUCH);
  console.log(
    `fleet, ${f.items} branches of true, 1 worker × 8: wall ${f.wallMsPerBranch.median.toFixed(2)} ms per branch, CPU ${f.cpuMsPerBranch.median.toFixed(2)} ms per branch (coordinator ${f.coordinatorMs.toFixed(2)}, worker ${f.workerMs.toFixed(2)}, redis ${f.redisMs.toFixed(2)})`,
  );
}
