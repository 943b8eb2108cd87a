// Run by hand (not a test): what one map branch costs on a fleet, counted on a real
// redis-server (ADR 0079). Starts W workers of dist/vouch, runs an N-branch map of
// `run` through them, and prints per branch: Redis commands as the server counts them
// (INFO commandstats, which counts commands that scripts call too), the commands each
// side sends (MONITOR, split by connection: the workers' connections exist before the
// coordinator starts) and the CPU of the coordinator, the workers and redis-server.
//   bun test/scale/measure-fleet-commands.ts [--branches 200] [--workers 1] [--run true] [--per 8]
import { numberedMapGraph } from "./numbered-map.ts";
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { RedisServer } from "./redis-server.ts";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const BRANCHES = Number(arg("branches", "200"));
const WORKERS = Number(arg("workers", "1"));
const PER = Number(arg("per", "8"));
const RUN = arg("run", "true");
const BIN = process.env.VOUCH_BIN ?? join(import.meta.dirname, "..", "..", "dist", "vouch");
const TICK = 100; // clock ticks per second (/proc/PID/stat)

const dir = mkdtempSync(join(tmpdir(), "vouch-measure-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, VOUCH_HOME: join(dir, ".vouch"), VOUCH_FLEET_KEY: "k".repeat(64) };
const graph = join(dir, "g.yaml");
writeFileSync(graph, numberedMapGraph("measure", BRANCHES, `      work: { kind: script, run: ${JSON.stringify(RUN)} }`));

/** user+system CPU seconds of a live process, its children that ended included. */
function cpu(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;
}

function stats(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of text.split("\n")) {
    const r = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (r) m.set(r[1]!, Number(r[2]));
  }
  return m;
}

const redis = await RedisServer.start();
const admin = new Redis(redis.url);
const redisPid = Number((await admin.info("server")).match(/process_id:(\d+)/)![1]);
const workers = [];
for (let i = 0; i < WORKERS; i++) {
  const w = Bun.spawn<"ignore", "ignore", "pipe">([BIN, "worker", redis.url, "--concurrency", String(PER), "--name", `m${i}`], {
    env,
    cwd: dir,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = w.stderr.getReader();
  let text = "";
  while (!text.includes("taking branch jobs")) text += new TextDecoder().decode((await reader.read()).value);
  workers.push(w);
}
const workerAddrs = new Set([...String(await admin.call("CLIENT", "LIST")).matchAll(/addr=(\S+)/g)].map((m) => m[1]!));
const monitorFile = join(dir, "monitor.txt");
const mon = Bun.spawn(["redis-cli", "-p", String(redis.port), "MONITOR"], { stdout: openSync(monitorFile, "w") });
await Bun.sleep(300);
await admin.config("RESETSTAT");
const before = { w: workers.map((w) => cpu(w.pid!)), r: cpu(redisPid) };
const t0 = performance.now();
const coord = Bun.spawn([BIN, "run", graph, "--json", "--concurrency", String(PER * WORKERS), "--executor", redis.url], {
  env,
  cwd: dir,
  stdout: "ignore",
  stderr: "pipe",
});
const code = await coord.exited;
const used = coord.resourceUsage()!.cpuTime;
const coordCpu = Number(used.user + used.system) / 1e6;
const wall = (performance.now() - t0) / 1000;
const after = { w: workers.map((w) => cpu(w.pid!)), r: cpu(redisPid) };
const cs = stats(await admin.info("commandstats"));
mon.kill();
await mon.exited;
for (const w of workers) w.kill("SIGTERM");
await Promise.all(workers.map((w) => w.exited));
admin.disconnect();
await redis.stop();

const side = { coordinator: new Map<string, number>(), worker: new Map<string, number>(), lua: new Map<string, number>() };
for (const line of readFileSync(monitorFile, "utf8").split("\n")) {
  const r = /^\S+ \[\d+ (\S+)\] "([^"]+)"/.exec(line);
  if (!r) continue;
  const which = r[1] === "lua" ? side.lua : workerAddrs.has(r[1]!) ? side.worker : side.coordinator;
  const name = r[2]!.toLowerCase();
  which.set(name, (which.get(name) ?? 0) + 1);
}
if (process.argv.includes("--keep")) await Bun.write(join(tmpdir(), "vouch-measure-monitor.txt"), Bun.file(monitorFile));
rmSync(dir, { recursive: true, force: true });
const per = (n: number) => (n / BRANCHES).toFixed(2);
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const list = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${per(v)}`)
    .join(", ");
console.log(`${BRANCHES} branches of ${JSON.stringify(RUN)}, ${WORKERS} worker(s) x ${PER}: exit ${code}, wall ${wall.toFixed(2)} s`);
console.log(`commands per branch (INFO commandstats, script calls included): ${per(total(cs))}: ${list(cs)}`);
console.log(`sent by the coordinator per branch: ${per(total(side.coordinator))}: ${list(side.coordinator)}`);
console.log(`sent by the worker(s) per branch: ${per(total(side.worker))}: ${list(side.worker)}`);
console.log(`called inside scripts per branch: ${per(total(side.lua))}`);
const wcpu = after.w.reduce((a, b, i) => a + b - before.w[i]!, 0);
console.log(
  `CPU per branch (ms): coordinator ${((coordCpu * 1000) / BRANCHES).toFixed(2)}, workers ${((wcpu * 1000) / BRANCHES).toFixed(2)}, redis ${(((after.r - before.r) * 1000) / BRANCHES).toFixed(2)}`,
);
