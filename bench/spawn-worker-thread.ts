// The worker side of bench/spawn-worker.ts (issue 29 item 1's prototype): a Bun Worker that
// receives spawn requests by postMessage, starts each with Bun.spawn as bench/spawn-floor.ts
// does (own process group, stdout and stderr piped and read to the end), posts the pid at
// once (so the main thread could kill the group itself) and then the exit code and the
// collected output. Never imported by src/: a bench file.
declare const self: Worker;

interface Request {
  id: number;
  argv: string[];
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, argv } = event.data;
  let p: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    p = Bun.spawn(argv, { detached: true, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  } catch (e) {
    self.postMessage({ id, kind: "failed", message: (e as Error).message });
    return;
  }
  self.postMessage({ id, kind: "started", pid: p.pid });
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  self.postMessage({ id, kind: "exited", exit: p.exitCode, stdout, stderr });
};
