// `bun bench/pipe-read.ts [N] [REPS]`: is one read of each pipe cheaper than the chunked reader the
// stream pump uses (src/spawn/stream-pump.ts)? N `sh -c true` (default 3,000) at concurrency 8,
// stdout and stderr piped, read each way in its own process (rotating, REPS rounds, default 3):
// `reader` (getReader(), read() to the end: the pump's way), `bytes` (stream.bytes(), one call),
// `response` (new Response(stream).arrayBuffer(), the floor script's way). Prints each mode's
// medians of wall time, own CPU (children excluded), RSS at the end and after a full collection,
// and peak RSS (ADR 0085). One call is unbounded in memory, so the pump could use it only for a
// child known to print little; this measures whether it would win anything there.
const [nArg, repsArg, mode] = process.argv.slice(2);
const n = Number(nArg ?? 3000);
const MODES = ["reader", "bytes", "response"] as const;

async function readChunked(s: ReadableStream<Uint8Array>): Promise<number> {
  const r = s.getReader();
  let total = 0;
  for (;;) {
    const { done, value } = await r.read();
    if (done || value === undefined) return total;
    total += value.length;
  }
}

async function once(how: string): Promise<void> {
  const p = Bun.spawn(["/bin/sh", "-c", "true"], {
    detached: true,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin" },
  });
  const read = (s: ReadableStream<Uint8Array>) =>
    how === "reader" ? readChunked(s) : how === "bytes" ? s.bytes() : new Response(s).arrayBuffer();
  await Promise.all([read(p.stdout), read(p.stderr), p.exited]);
}

if (mode !== undefined) {
  // One measured child run: prints "wallMs cpuMs rssMiB rssAfterGcMiB".
  let next = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < n) await once(mode);
    }),
  );
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const rss = process.memoryUsage.rss() / 2 ** 20;
  Bun.gc(true);
  console.log(`${wall} ${(c.user + c.system) / 1000} ${rss} ${process.memoryUsage.rss() / 2 ** 20}`);
} else {
  const reps = Number(repsArg ?? 3);
  const got = new Map<string, number[][]>(MODES.map((m) => [m, []]));
  for (let r = 0; r < reps; r++) {
    for (let k = 0; k < MODES.length; k++) {
      const m = MODES[(r + k) % MODES.length]!;
      const out = Bun.spawnSync(["/usr/bin/time", "-f", "%M", process.execPath, import.meta.path, String(n), "1", m], { stderr: "pipe" });
      const figures = out.stdout.toString().trim().split(" ").map(Number);
      figures.push(Number(out.stderr.toString().trim().split("\n").at(-1)) / 1024);
      got.get(m)!.push(figures);
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  for (const m of MODES) {
    const col = (i: number) => med(got.get(m)!.map((f) => f[i]!));
    console.log(
      `${m}: wall ${col(0).toFixed(0)} ms, cpu ${col(1).toFixed(0)} ms, rss ${col(2).toFixed(1)} MiB (after gc ${col(3).toFixed(1)}), peak ${col(4).toFixed(1)} MiB`,
    );
  }
  console.log(`${n} processes per run, ${reps} runs each, medians; load ${(await Bun.file("/proc/loadavg").text()).trim()}`);
}
