// Issue 29 item 1's prototype, measured before anything is built: does moving Bun.spawn off
// the main thread into Bun Workers let starts overlap the engine's JavaScript?
//   bun bench/spawn-worker.ts [N] [REPS]          the side-by-side run (default 500 items, 5 repetitions)
//   bun bench/spawn-worker.ts --compiled-check    does `new Worker` work in a `bun build --compile` binary?
// Each mode starts N `/bin/sh -c true`, 8 at once, stdout and stderr piped and read to the end
// (bench/spawn-floor.ts's work), while the main thread does a fixed amount of synthetic JS per
// item (calibrated once to about 1 ms, half before the start, half after the result), standing
// for vouch's per-item work. Modes: `main` (Bun.spawn on the main thread), `w1`, `w2`, `w4`
// (Bun.spawn in 1, 2 or 4 Workers, requests by postMessage, answers with the pid at once, then
// exit code and output: bench/spawn-worker-thread.ts), `js` (the JS alone, no process) — each
// run as its own process beside bench/spawn-floor.ts, the C fork+exec pool and xargs, in
// rotating order; medians of wall and CPU (children included) and per-repetition ratios.
import { join } from "node:path";
import { compileForkPool } from "./lib/fork-pool.ts";
import { loadAverage } from "./lib/machine.ts";
import { expectExit, type Measured, measure, summarize, tempFolder } from "./lib/measure.ts";

const CONCURRENCY = 8;
const THREAD = "./spawn-worker-thread.ts";
const args = process.argv.slice(2);

/** Fixed work: the same per item in every mode, whatever the machine's load does to its time. */
function work(iterations: number): number {
  let sink = 0;
  for (let i = 0; i < iterations; i++) {
    const o = { id: i, name: `item-${i}`, tags: ["a", "b", String(i)], nested: { n: i * 2 } };
    sink += JSON.stringify(o).length + (JSON.parse(JSON.stringify(o)) as { id: number }).id;
  }
  return sink;
}

type Start = (argv: string[]) => Promise<{ exit: number | null; stdout: string; stderr: string }>;

function mainThreadStart(): Start {
  return async (argv) => {
    const p = Bun.spawn(argv, { detached: true, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
    const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { exit: p.exitCode, stdout, stderr };
  };
}

/** A pool of `size` Workers; a request goes to the one with the fewest outstanding. */
function workerPool(size: number): { start: Start; close(): void; messages: () => number } {
  const url = new URL(THREAD, import.meta.url).href;
  const workers = Array.from({ length: size }, () => ({ w: new Worker(url), busy: 0 }));
  const waiting = new Map<
    number,
    { resolve: (r: Awaited<ReturnType<Start>>) => void; reject: (e: Error) => void; slot: (typeof workers)[0] }
  >();
  let nextId = 0;
  let messages = 0;
  for (const slot of workers) {
    slot.w.onmessage = (event: MessageEvent) => {
      messages++;
      const m = event.data as { id: number; kind: string; exit?: number; stdout?: string; stderr?: string; message?: string };
      const entry = waiting.get(m.id);
      if (!entry || m.kind === "started") return;
      waiting.delete(m.id);
      entry.slot.busy--;
      if (m.kind === "failed") entry.reject(new Error(m.message));
      else entry.resolve({ exit: m.exit ?? null, stdout: m.stdout ?? "", stderr: m.stderr ?? "" });
    };
  }
  return {
    start: (argv) =>
      new Promise((resolve, reject) => {
        const slot = workers.reduce((a, b) => (b.busy < a.busy ? b : a));
        slot.busy++;
        const id = nextId++;
        waiting.set(id, { resolve, reject, slot });
        slot.w.postMessage({ id, argv });
      }),
    close: () => {
      for (const s of workers) s.w.terminate();
    },
    messages: () => messages,
  };
}

async function runMode(mode: string, n: number, iterations: number): Promise<void> {
  const pool = mode.startsWith("w") ? workerPool(Number(mode.slice(1))) : null;
  const start = pool?.start ?? (mode === "main" ? mainThreadStart() : null);
  let next = 0;
  let sink = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      sink += work(iterations >> 1);
      if (start) {
        const r = await start(["/bin/sh", "-c", "true"]);
        if (r.exit !== 0) throw new Error(`sh -c true exited ${r.exit}`);
      } else await Promise.resolve();
      sink += work(iterations - (iterations >> 1));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  if (pool) {
    if (pool.messages() !== 2 * n) throw new Error(`expected ${2 * n} messages, got ${pool.messages()}`);
    pool.close();
  }
  if (sink === 0) throw new Error("no work done");
}

/** Iterations of `work` that take about 1 ms here, now (the median of 20 timings of 200). */
function calibrate(): number {
  work(2000);
  const t: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    work(200);
    t.push(performance.now() - t0);
  }
  return Math.max(1, Math.round(200 / summarize(t).median));
}

async function sideBySide(n: number, reps: number): Promise<void> {
  const dir = tempFolder("vouch-bench-spawn-worker-");
  try {
    const iterations = calibrate();
    const self = import.meta.path;
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const runs = new Map<string, () => Promise<Measured>>();
    for (const mode of ["main", "w1", "w2", "w4", "js"])
      runs.set(mode, async () =>
        expectExit(await measure([process.execPath, self, "--mode", mode, String(n), String(iterations)], { env }), 0, mode),
      );
    runs.set("floor", async () =>
      expectExit(await measure([process.execPath, join(import.meta.dirname, "spawn-floor.ts"), String(n), "8"], { env }), 0, "floor"),
    );
    const pool = compileForkPool(dir.path);
    if ("path" in pool) runs.set("C pool", async () => expectExit(await measure([pool.path, String(n), "8"], { env }), 0, "C pool"));
    const lines = `${Array.from({ length: n }, (_, i) => `x${i}`).join("\n")}\n`;
    runs.set("xargs", async () =>
      expectExit(await measure(["xargs", "-P", "8", "-n", "1", "sh", "-c", "true"], { stdin: lines, env }), 0, "xargs"),
    );
    for (const run of runs.values()) await run(); // warm-up
    const names = [...runs.keys()];
    const got = new Map<string, Measured[]>(names.map((k) => [k, []]));
    const loads: string[] = [];
    for (let i = 0; i < reps; i++) {
      loads.push(loadAverage().split(" ")[0]!);
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length]!;
        got.get(name)!.push(await runs.get(name)!());
      }
    }
    const wall = (k: string) => got.get(k)!.map((m) => m.wallMs);
    const per = (k: string, of: string) => (got.has(of) ? summarize(wall(k).map((w, i) => w / wall(of)[i]!)).median.toFixed(2) : "n/a");
    console.log(
      `${n} × sh -c true, concurrency ${CONCURRENCY}, ${iterations} iterations of synthetic JS per item (~1 ms when calibrated), ${reps} repetitions`,
    );
    for (const k of names) {
      const w = summarize(wall(k));
      const cpu = summarize(got.get(k)!.map((m) => m.cpuMs)).median;
      console.log(
        `${k.padEnd(6)} wall ${w.median.toFixed(0).padStart(5)} ms (${w.min.toFixed(0)}–${w.max.toFixed(0)}), cpu ${cpu.toFixed(0).padStart(5)} ms, / floor ${per(k, "floor")}, / C pool ${per(k, "C pool")}, / main ${per(k, "main")}`,
      );
    }
    const fork = summarize(wall("xargs")).median / n;
    console.log(
      `load average (1 min) before each repetition: ${loads.join(" ")}; after: ${loadAverage()}; fork+exec ${fork.toFixed(2)} ms per process (xargs, 8 at once)${"missing" in pool ? `; C pool not measured: ${pool.missing}` : ""}; ${navigator.hardwareConcurrency} cores; Bun ${Bun.version}`,
    );
  } finally {
    dir.remove();
  }
}

/** Compiles this file with its worker as an extra entrypoint and runs one worker mode. */
async function compiledCheck(): Promise<void> {
  const dir = tempFolder("vouch-bench-spawn-worker-compiled-");
  try {
    const outfile = join(dir.path, "spawn-worker");
    const built = await Bun.build({
      entrypoints: [import.meta.path, join(import.meta.dirname, "spawn-worker-thread.ts")],
      compile: { outfile },
      minify: true,
      bytecode: true,
      format: "esm",
    });
    if (!built.success) throw new Error(`compile failed: ${built.logs.join("\n")}`);
    const r = Bun.spawnSync([outfile, "--mode", "w2", "50", "10"], { cwd: "/", stdout: "pipe", stderr: "pipe" });
    console.log(
      `compiled binary, worker mode w2, 50 items, run from /: exit ${r.exitCode}${r.stderr.length ? `, stderr: ${r.stderr.toString().trim()}` : ""}`,
    );
    process.exitCode = r.exitCode === 0 ? 0 : 1;
  } finally {
    dir.remove();
  }
}

if (args[0] === "--mode") await runMode(args[1]!, Number(args[2]), Number(args[3]));
else if (args[0] === "--compiled-check") await compiledCheck();
else await sideBySide(Number(args[0] ?? 500), Number(args[1] ?? 5));
