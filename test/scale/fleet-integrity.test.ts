// Verdict integrity on a fleet (issue 27, items 7-9; ADR 0045, 0046) through the real
// binary and a real redis-server: a job edited in Redis, a worker of another version,
// a result claimed by a worker that died before sending it, two live attempts of one
// job, an attempt that died before it streamed anything. Each branch ends with exactly
// one recorded result, and the coordinator never waits on a job nobody will answer.
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { Redis } from "ioredis";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { version } from "../../package.json";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FROM_SOURCE, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

/** In every branch's command line: what is left running of a test's branches is found by it. */
const MARKER = "vouch-integrity-3e7a";

/** A one-branch map whose branch runs `run` (in the coordinator's folder: same machine). */
function oneBranch(run: string): string {
  return `version: 1
name: integrity
nodes:
  items: { kind: script, run: "echo [0]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: ${JSON.stringify(`: ${MARKER}; ${run}`)}, output: { format: json } }
`;
}

/** A worker in miniature that takes one job and then does nothing (the test kills it). */
const GHOST = join(import.meta.dirname, "ghost-worker.ts");

const jobKey = (job: string) => `bull:vouch-branches:${job}`;

/** No process whose command line holds `marker` is left (bounded wait for a kill to land). */
async function noneLeft(marker: string): Promise<string> {
  let left = "";
  for (let i = 0; i < 100; i++) {
    left = spawnSync(["pgrep", "-f", marker]).stdout.toString().trim();
    if (left === "") break;
    await Bun.sleep(50);
  }
  return left;
}

describe.skipIf(!HAVE_REDIS)("a fleet that cannot be lied to or hang", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  let client: Redis | null = null;
  const workers: WorkerProc[] = [];
  const coordinators: Coordinator[] = [];
  const home = () => join(dir.path, ".vouch");

  afterEach(async () => {
    for (const c of coordinators.splice(0)) c.kill();
    // The run is over: no process of any of its branches is left, on any worker (still running).
    const left = await noneLeft(MARKER);
    await stopAll(workers);
    expect(left, "processes left by the test's branches").toBe("");
    client?.disconnect();
    client = null;
    await redis().ensureUp();
    // The next test starts from an empty Redis: no job of this one is taken there.
    const r = new Redis(redis().url);
    await r.flushall();
    r.disconnect();
    dir.cleanup();
  });

  function start(run: string, extra: string[] = []): Coordinator {
    const file = join(dir.path, "g.yaml");
    writeFileSync(file, oneBranch(run));
    const c = new Coordinator(["run", file, "--executor", redis().url, ...extra], home(), dir.path);
    coordinators.push(c);
    return c;
  }

  const dispatched = async (c: Coordinator): Promise<string> => {
    await c.until((evs) => of(evs, "branch.dispatched").length > 0);
    return of(c.events(), "branch.dispatched")[0]!.job;
  };

  const onlyBranch = (events: VouchEvent[]) => {
    const finished = of(events, "branch.finished");
    expect(finished, JSON.stringify(finished)).toHaveLength(1);
    return finished[0]!;
  };

  test("a job edited in Redis is refused by the worker, and the coordinator records the branch error", async () => {
    dir = tempDir("integrity");
    const c = start("touch ran-safe; echo '{}'");
    const job = await dispatched(c);
    client = new Redis(redis().url);
    // branch.dispatched is committed before the job is created: wait for the job itself.
    let data = await client.hget(jobKey(job), "data");
    while (data === null) data = await client.hget(jobKey(job), "data");
    expect(data).toContain("ran-safe");
    // What anyone who can write to Redis can do: change the command the branch runs.
    await client.hset(jobKey(job), "data", data!.replaceAll("ran-safe", "ran-evil"));
    workers.push(await WorkerProc.start(redis().url, "w0", home()));
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status).toBe("error");
    expect(b.error).toContain("does not verify");
    expect(existsSync(join(dir.path, "ran-evil"))).toBe(false);
    expect(existsSync(join(dir.path, "ran-safe"))).toBe(false);
    expect(code).toBe(3);
  });

  test("a branch never sees the fleet's secrets, even when the graph passes their names", async () => {
    dir = tempDir("integrity");
    workers.push(await WorkerProc.start(redis().url, "w0", home(), 1));
    const c = start(`printf '{"k":"%s"}' "\${VOUCH_FLEET_KEY:-none}"`, ["--pass-env", "VOUCH_FLEET_KEY"]);
    const { code, events } = await c.doneWithin(90_000);
    expect(code, c.err).toBe(0);
    expect(onlyBranch(events).output).toEqual({ k: "none" });
  });

  test("a worker holding another fleet key: nothing it sends is read, and the job ends error once it completed", async () => {
    dir = tempDir("integrity");
    workers.push(
      await WorkerProc.start(redis().url, "w-other", home(), 1, { VOUCH_FLEET_KEY: "another-fleet-key-0123456789abcdef012345" }),
    );
    const c = start("touch ran; echo '{}'");
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status).toBe("error");
    expect(b.error).toContain("does every worker hold the same key?");
    expect(c.err).toContain("does not verify with this fleet key");
    expect(existsSync(join(dir.path, "ran"))).toBe(false);
    expect(code).toBe(3);
  });

  test("a worker of another vouch version refuses the job and says so; the coordinator records it", async () => {
    dir = tempDir("integrity");
    // Run from the source, vouch is 0.0.0-dev: another version than the compiled coordinator.
    workers.push(await WorkerProc.start(redis().url, "w-dev", home(), 1, {}, [], FROM_SOURCE));
    const c = start("touch ran; echo '{}'");
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status).toBe("error");
    expect(b.error).toContain(`vouch ${version}`);
    expect(b.error).toContain("vouch 0.0.0-dev");
    expect(existsSync(join(dir.path, "ran"))).toBe(false);
    expect(code).toBe(3);
  });

  test("a result claimed by a worker that died before sending it: the branch ends error, the coordinator does not wait for ever", async () => {
    dir = tempDir("integrity");
    const c = start("echo '{}'");
    const job = await dispatched(c);
    client = new Redis(redis().url);
    // What a worker killed between claiming the result and sending it leaves behind.
    await client.set(`vouch:done:${job}`, "ghost");
    workers.push(await WorkerProc.start(redis().url, "w0", home()));
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status).toBe("error");
    expect(b.error).toContain("no result");
    expect(code).toBe(3);
  });

  test("two live attempts of one job: the cut-off attempt's result is refused, the live one decides", async () => {
    dir = tempDir("integrity");
    const gateA = join(dir.path, "gate-a");
    const gateB = join(dir.path, "gate-b");
    // wA fails once its gate opens; wB passes once its own opens. A cut-off wA must not decide.
    const run = `if [ "$VOUCH_WORKER" = wA ]; then while [ ! -e ${gateA} ]; do sleep 0.05; done; exit 1; fi; while [ ! -e ${gateB} ]; do sleep 0.05; done; printf '{"w":"%s"}' "$VOUCH_WORKER"`;
    const a = await WorkerProc.start(redis().url, "wA", home(), 1);
    workers.push(a);
    const c = start(run);
    await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "wA"));
    // wA freezes: its lock runs out and wB takes the job as attempt 2 while wA's branch still lives.
    process.kill(a.proc.pid, "SIGSTOP");
    try {
      workers.push(await WorkerProc.start(redis().url, "wB", home(), 1));
      await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "wB"));
      writeFileSync(gateA, "");
    } finally {
      process.kill(a.proc.pid, "SIGCONT");
    }
    // wA's attempt ends: its result reaches Redis (refused now; before, it decided the branch),
    // or wA learns first that it lost the job and stops it. Either way it says so.
    await Promise.race([
      c.until((evs) => evs.some((e) => e.type === "node.finished" && e.remote?.attempt === 1)),
      a.said("lost its lease"),
    ]);
    writeFileSync(gateB, "");
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status, JSON.stringify(events.filter((e) => e.type.startsWith("branch.")))).toBe("passed");
    expect(b.output).toEqual({ w: "wB" });
    expect(of(events, "branch.cut_off")).toMatchObject([{ attempt: 1, worker: "wA" }]);
    // Attempt 1's result, when it came, is recorded as refused, never as the branch's.
    for (const r of of(events, "branch.result_refused")) expect(r).toMatchObject({ attempt: 1, worker: "wA", status: "failed" });
    if (!a.stderr.includes("lost its lease")) expect(of(events, "branch.result_refused")).toHaveLength(1);
    expect(code).toBe(0);
  });

  test("a result ready after another attempt took the job is refused in Redis and recorded as such", async () => {
    dir = tempDir("integrity");
    const gate = join(dir.path, "gate");
    const seen = join(dir.path, "seen");
    // The first attempt fails once its gate opens; any later attempt passes.
    const run = `if [ ! -e ${seen} ]; then touch ${seen}; while [ ! -e ${gate} ]; do sleep 0.05; done; exit 1; fi; printf '{"w":"%s"}' "$VOUCH_WORKER"`;
    // A long lock: renewed every 15 s or more, so nothing renews it while the test holds it below.
    workers.push(await WorkerProc.start(redis().url, "wA", home(), 1, { VOUCH_WORKER_LOCK_MS: "60000" }));
    const c = start(run);
    const job = await dispatched(c);
    await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "wA"));
    client = new Redis(redis().url);
    // Another attempt holds the job now (what a worker that took it after wA's lock ran out has).
    await client.set(`${jobKey(job)}:lock`, "another-attempt", "PX", 60_000);
    writeFileSync(gate, "");
    await c.until((evs) => evs.some((e) => e.type === "branch.result_refused" || e.type === "branch.finished"));
    // That attempt goes away: its lock is gone, and the next stalled-job check (not held off by
    // wA's long interval) gives the job to another worker.
    await client.del(`${jobKey(job)}:lock`, "bull:vouch-branches:stalled-check");
    workers.push(await WorkerProc.start(redis().url, "wB", home(), 1));
    const { code, events } = await c.doneWithin(90_000);
    const b = onlyBranch(events);
    expect(b.status, JSON.stringify(events.filter((e) => e.type.startsWith("branch.")))).toBe("passed");
    expect(of(events, "branch.result_refused")).toMatchObject([{ attempt: 1, worker: "wA", status: "failed" }]);
    expect(of(events, "branch.result_refused")[0]!.reason).toContain("no longer held the job");
    expect(of(events, "branch.cut_off")).toMatchObject([{ attempt: 1, worker: "wA" }]);
    expect(code).toBe(0);
  });

  test("an attempt that died before it streamed anything still leaves a branch.cut_off", async () => {
    dir = tempDir("integrity");
    const c = start("echo '{}'");
    await dispatched(c);
    // A worker takes the job and is killed before it sends a word: a BullMQ worker of its own
    // (a process, killed by pid), holding the job under a lock that nobody renews once it is gone.
    const ghost = Bun.spawn([FROM_SOURCE[0]!, GHOST, redis().url], { stdout: "pipe", stderr: "inherit" });
    const reader = ghost.stdout.getReader();
    let said = "";
    while (!said.includes("took")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the ghost worker ended: ${said}`);
      said += new TextDecoder().decode(value);
    }
    process.kill(ghost.pid, "SIGKILL");
    await ghost.exited;
    workers.push(await WorkerProc.start(redis().url, "w0", home()));
    const { code, events } = await c.doneWithin(90_000);
    expect(onlyBranch(events).status).toBe("passed");
    const cut = of(events, "branch.cut_off");
    expect(cut).toHaveLength(1);
    expect(cut[0]).toMatchObject({ attempt: 1, worker: "" });
    expect(code).toBe(0);
  });
});
