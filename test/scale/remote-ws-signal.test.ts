// A worker sent SIGTERM while it fetches the job's base commit (ADR 0029) from a remote that
// hangs (a stuck ssh, a dead network). git runs in its own process group, so the signal does not
// reach it: the worker must stop the fetch itself and hand the job back for another worker,
// as with a SIGTERM before the branch starts, not wait on the fetch for ever, and not end the
// branch `error` because the fetch it stopped failed.
import { afterEach, describe, expect, test } from "vitest";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { BINARY, cleanEnv, tempDir, type TempDir } from "../e2e/helpers.ts";
import type { EventOf, VouchEvent } from "../../src/engine/events.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, git, LOCK_ENV, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const GRAPH = `version: 1
name: sig
nodes:
  items: { kind: script, run: "echo [0]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work:
        kind: script
        workspace: { mode: worktree }
        run: echo done > out.txt
`;

describe.skipIf(!HAVE_REDIS)("a worker sent SIGTERM mid-fetch", { timeout: 60_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const procs: { kill(): void }[] = [];
  const workers: WorkerProc[] = [];

  afterEach(async () => {
    for (const p of procs.splice(0)) p.kill();
    await stopAll(workers);
    dir?.cleanup();
  });

  test("the job is handed back and another worker runs the branch: it passes, no branch error", async () => {
    dir = tempDir("rws-signal");
    const remote = join(dir.path, "remote.git");
    const repo = join(dir.path, "repo");
    mkdirSync(repo);
    git(dir.path, "init", "--quiet", "--bare", remote);
    git(repo, "init", "--quiet");
    writeFileSync(join(repo, "README"), "base\n");
    git(repo, "add", "README");
    git(repo, "commit", "--quiet", "-m", "base");
    git(repo, "remote", "add", "origin", remote);
    git(repo, "push", "--quiet", "origin", "HEAD:main");
    const file = join(repo, "g.yaml");
    writeFileSync(file, GRAPH);
    const home = join(dir.path, ".vouch");
    // Worker A's git reaches the remote through an "ssh" that says it started, then hangs.
    const homeA = join(dir.path, "home-a");
    const mark = join(dir.path, "fetch-started");
    mkdirSync(homeA);
    writeFileSync(join(homeA, "hang-ssh"), `#!/bin/sh\necho $$ > '${mark}'\nexec sleep 600\n`);
    // A worker that never stops its fetch leaves the "ssh" behind: end it by the pid it wrote.
    procs.push({ kill: () => existsSync(mark) && spawnSync(["kill", "-9", readFileSync(mark, "utf8").trim()]) });
    chmodSync(join(homeA, "hang-ssh"), 0o755);
    writeFileSync(
      join(homeA, ".gitconfig"),
      `[url "ssh://hang/remote.git"]\n\tinsteadOf = ${remote}\n[core]\n\tsshCommand = ${join(homeA, "hang-ssh")}\n`,
    );
    const workA = join(dir.path, "workdir-a");
    mkdirSync(workA);
    const a = Bun.spawn([BINARY, "worker", redis().url, "--name", "wa", "--workdir", workA], {
      env: cleanEnv({ home, env: { ...LOCK_ENV, ...FLEET_ENV, HOME: homeA } }),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    procs.push({ kill: () => a.exitCode === null && a.signalCode === null && process.kill(a.pid, "SIGKILL") });
    const aErr = new Response(a.stderr).text();

    const c = new Coordinator(["run", file, "--executor", redis().url], home, repo);
    procs.push({ kill: () => c.proc.exitCode === null && c.proc.kill("SIGKILL") });
    while (!existsSync(mark) || readFileSync(mark, "utf8").trim() === "") {
      if (c.proc.exitCode !== null) throw new Error(`the coordinator ended first: ${c.err}`);
      await Bun.sleep(50); // polls for the hanging ssh's mark: the fetch is under way
    }
    process.kill(a.pid, "SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await aErr).toContain("handing running ones back");

    const workB = join(dir.path, "workdir-b");
    mkdirSync(workB);
    workers.push(await WorkerProc.start(redis().url, "wb", home, 1, {}, ["--workdir", workB]));
    expect(await c.proc.exited).toBe(0);
    const events = c.events();
    const finished = events.filter((e): e is EventOf<"branch.finished"> => e.type === "branch.finished");
    expect(finished.map((f) => f.status)).toEqual(["passed"]);
    const work = events.find(
      (e): e is EventOf<"node.finished"> =>
        e.type === "node.finished" && e.node === "work" && (e as VouchEvent & { remote?: { worker: string } }).remote?.worker === "wb",
    );
    expect(work?.status).toBe("passed");
  });
});
