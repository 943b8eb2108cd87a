// `bun bench/spawn-detach.ts [N] [REPS]`: what the new session costs the thread that calls
// Bun.spawn (ADR 0085). N `sh -c true` (default 500) at concurrency 8, stdout and stderr piped
// and read to the end, three ways in turn (REPS rounds, default 7): `detached` (vouch's way and
// the floor script's: setsid in the child, while Bun's thread waits in vfork for the exec),
// `nodetach` (no new session), `setsid1` (not detached, `/usr/bin/setsid` as a launcher: the new
// session made after the first exec, off the waiting thread, for one exec more). Prints the
// medians of the time inside Bun.spawn per call, the wall time and the process's own CPU.
const n = Number(process.argv[2] ?? 500);
const reps = Number(process.argv[3] ?? 7);
const variants: Record<string, [string[], boolean]> = {
  detached: [["/bin/sh", "-c", "true"], true],
  nodetach: [["/bin/sh", "-c", "true"], false],
  setsid1: [["/usr/bin/setsid", "/bin/sh", "-c", "true"], false],
};
async function run(name: string) {
  const [argv, det] = variants[name]!;
  let inSpawn = 0,
    next = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < n) {
        const s = performance.now();
        const p = Bun.spawn(argv, { detached: det, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
        inSpawn += performance.now() - s;
        await Promise.all([new Response(p.stdout).arrayBuffer(), new Response(p.stderr).arrayBuffer(), p.exited]);
      }
    }),
  );
  const c = process.cpuUsage(c0);
  return [inSpawn / n, performance.now() - t0, (c.user + c.system) / 1000];
}
const res: Record<string, number[][]> = {};
const names = Object.keys(variants);
for (let r = 0; r < reps; r++) for (const n of names) (res[n] ??= []).push(await run(n));
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!;
for (const n of names)
  console.log(
    n.padEnd(9),
    "in spawn",
    med(res[n]!.map((x) => x[0]!)).toFixed(3),
    "ms/call; wall",
    med(res[n]!.map((x) => x[1]!)).toFixed(0),
    "ms; own cpu",
    med(res[n]!.map((x) => x[2]!)).toFixed(0),
    "ms",
  );
console.log(`load ${(await Bun.file("/proc/loadavg").text()).trim()}`);
export {};
