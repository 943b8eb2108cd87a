// The floor under vouch's process overhead: N `/bin/sh -c true` started with
// Bun.spawn, C at a time, each in its own process group with stdout and stderr
// piped and read to the end — what the spawn seam does per process, without
// the engine, the ledger or the events. bench/overhead.ts times this script
// as a whole process, next to vouch and xargs.
//   bun bench/spawn-floor.ts N C
const n = Number(process.argv[2] ?? 500);
const c = Number(process.argv[3] ?? 8);
let next = 0;
async function worker() {
  while (next < n) {
    next++;
    const p = Bun.spawn(["/bin/sh", "-c", "true"], {
      detached: true,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: "/usr/bin:/bin" },
    });
    await Promise.all([new Response(p.stdout).arrayBuffer(), new Response(p.stderr).arrayBuffer(), p.exited]);
    if (p.exitCode !== 0) throw new Error(`sh -c true exited ${p.exitCode}`);
  }
}
await Promise.all(Array.from({ length: c }, worker));
export {};
