// The scale-out fault suite (issue 19, ADR 0026) through the real binary: a real
// redis-server on a free loopback port, three `vouch worker`s, a 60-branch map.
// Workers and Redis are killed by pid; every assertion reads the coordinator's ledger.
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const BRANCHES = 60;
/** A 60-branch map; each branch sleeps (SLEEP) and prints its item as JSON. */
function graph(sleep: string, n = BRANCHES): string {
  return `version: 1
name: fleet
nodes:
  items: { kind: script, run: "seq 0 ${n - 1} | paste -sd, | sed 's/.*/[&]/'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    verdict: output.v
    branch:
      work:
        kind: script
        run: 'sleep ${sleep}; i=$(cat "$VOUCH_ITEM_FILE"); printf "{\\"i\\":%s,\\"v\\":\\"%s\\"}" "$i" "$([ $((i % 7)) -eq 3 ] && echo odd || echo ok)"'
        output: { format: json }
        success:
          checks: [{ name: eleven, run: 'test $(( $(cat "$VOUCH_ITEM_FILE") % 11 )) -ne 5' }]
`;
}

const finishedBranches = (events: VouchEvent[]) => of(events, "branch.finished");

// Real processes on a shared machine: generous bounds, never a timed assertion.
describe.skipIf(!HAVE_REDIS)("map branches on a fleet of workers over Redis", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  const home = () => join(dir.path, ".vouch");

  afterEach(async () => {
    await redis().ensureUp(); // a test that failed with Redis down must not take the next ones with it
    await stopAll(workers);
    dir.cleanup();
  });

  async function fleet(n = 3, env: Record<string, string> = {}): Promise<void> {
    dir = tempDir("fleet");
    for (let i = 0; i < n; i++) workers.push(await WorkerProc.start(redis().url, `w${i}`, home(), 4, env));
  }

  function graphFile(sleep: string, n = BRANCHES): string {
    const file = join(dir.path, "fleet.yaml");
    writeFileSync(file, graph(sleep, n));
    return file;
  }

  test("3 workers, a 60-branch map: every branch passes once, the same ledger as a local run", async () => {
    await fleet();
    // `vouch workers` lists the live workers from their heartbeats.
    const listed = await vouch(["workers", redis().url, "--json"], { home: home(), cwd: dir.path, env: FLEET_ENV });
    expect(listed.code).toBe(0);
    const fleetNow = JSON.parse(listed.stdout) as { workers: { name: string; concurrency: number }[]; jobs: { waiting: number } };
    expect(fleetNow.workers.map((w) => [w.name, w.concurrency])).toEqual([
      ["w0", 4],
      ["w1", 4],
      ["w2", 4],
    ]);
    const file = graphFile("0.05");
    const local = await vouch(["run", file, "--json", "--concurrency", "12"], { home: home(), cwd: dir.path });
    const remote = await vouch(["run", file, "--json", "--concurrency", "12", "--executor", redis().url], {
      home: home(),
      cwd: dir.path,
      env: FLEET_ENV,
    });
    expect(remote.stderr).toBe("");
    const [l, r] = [parseNdjson(local.stdout), parseNdjson(remote.stdout)];
    expect(remote.code).toBe(local.code);
    expect(local.code).toBe(1); // the checks fail some branches, the same ones in both
    const essence = (evs: VouchEvent[]) => ({
      branches: finishedBranches(evs)
        .map((e) => [e.branch.index, e.status, e.verdict, e.output, e.error ?? null])
        .sort((a, b) => (a[0] as number) - (b[0] as number)),
      nodes: of(evs, "node.finished")
        .map((e) => [e.node, e.branch?.index ?? -1, e.status, e.cause, e.output ?? null, e.evidence])
        .sort((a, b) => (a[1] as number) - (b[1] as number)),
      run: (({ status, counts, reason }) => ({ status, counts, reason }))(of(evs, "run.finished")[0]!),
    });
    expect(essence(r)).toEqual(essence(l));
    expect(finishedBranches(r)).toHaveLength(BRANCHES);
    // The branches ran on the workers, each tagged; all three took some.
    const names = new Set(r.filter((e) => e.remote).map((e) => e.remote!.worker));
    expect([...names].sort()).toEqual(["w0", "w1", "w2"]);
    expect(of(r, "branch.dispatched")).toHaveLength(BRANCHES);
    expect(of(r, "branch.cut_off")).toHaveLength(0);
  });

  test("kill -9 one worker mid-branch: the run still passes, the cut-off attempt is recorded, no branch passes twice", async () => {
    await fleet();
    const file = graphFile("0.4");
    const c = new Coordinator(["run", file, "--concurrency", "12", "--executor", redis().url], home(), dir.path);
    await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "w1"));
    workers[1]!.kill9();
    const { code, events } = await c.done();
    expect([0, 1]).toContain(code); // the checks decide, not the kill
    const cut = of(events, "branch.cut_off");
    expect(cut.length).toBeGreaterThan(0);
    // w1's attempts; one it took and died before it said a word is cut off with no worker named (ADR 0046).
    expect(
      cut.every((e) => (e.worker === "w1" || e.worker === "") && e.attempt === 1),
      JSON.stringify(cut),
    ).toBe(true);
    const byIndex = new Map<number, number>();
    for (const e of finishedBranches(events)) byIndex.set(e.branch.index, (byIndex.get(e.branch.index) ?? 0) + 1);
    expect(byIndex.size).toBe(BRANCHES);
    expect([...byIndex.values()].every((n) => n === 1)).toBe(true);
    // A cut-off branch was finished by another worker's second attempt.
    for (const e of cut) {
      const last = events.filter((x) => x.type === "node.finished" && x.branch?.index === e.branch.index).at(-1)!;
      expect(last.remote).toMatchObject({ attempt: 2 });
      expect(last.remote!.worker).not.toBe("w1");
    }
    expect(of(events, "run.finished")[0]!.status).not.toBe("error");
  });

  test("kill -9 the coordinator: resume re-attaches to the jobs by id, every branch passes once", async () => {
    await fleet();
    const file = graphFile("0.3");
    const c = new Coordinator(["run", file, "--concurrency", "12", "--executor", redis().url], home(), dir.path);
    await c.until((evs) => finishedBranches(evs).length >= 10);
    process.kill(c.proc.pid, "SIGKILL");
    const first = await c.done();
    const firstDispatch = new Map(of(first.events, "branch.dispatched").map((e) => [e.branch.index, e.job]));
    const resumed = await vouch(["resume", "last", "--json"], { home: home(), cwd: dir.path, env: FLEET_ENV });
    const second = parseNdjson(resumed.stdout);
    expect(resumed.stderr).not.toContain("internal");
    // A branch dispatched but unfinished when the coordinator died is the same job again.
    const unfinished = [...firstDispatch.keys()].filter((i) => !finishedBranches(first.events).some((e) => e.branch.index === i));
    expect(unfinished.length).toBeGreaterThan(0);
    for (const i of unfinished) expect(of(second, "branch.dispatched").find((e) => e.branch.index === i)?.job).toBe(firstDispatch.get(i));
    const all = [...first.events, ...second];
    // A branch that passed is never run again (one that failed is: that is what resume does).
    const passed = new Map<number, number>();
    for (const e of finishedBranches(all)) if (e.status === "passed") passed.set(e.branch.index, (passed.get(e.branch.index) ?? 0) + 1);
    expect([...passed.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(finishedBranches(all).map((e) => e.branch.index)).size).toBe(BRANCHES);
    for (const e of finishedBranches(first.events).filter((x) => x.status === "passed")) {
      expect(second.some((x) => x.type === "node.started" && x.branch?.index === e.branch.index)).toBe(false);
    }
    // Nothing a worker sent is recorded twice, across the two sessions.
    const tags = all.filter((e) => e.remote).map((e) => `${e.remote!.job}:${e.remote!.attempt}:${e.remote!.seq}`);
    expect(new Set(tags).size).toBe(tags.length);
    expect(of(second, "run.finished")[0]!.status).toBe(of(second, "run.finished")[0]!.counts.failed > 0 ? "failed" : "passed");
  });

  test("Redis stopped mid-run: the run ends error (reason executor) once down past the bound, and resumes once Redis is back", async () => {
    await fleet();
    const file = graphFile("0.3");
    // A short bound (the default is 30 s): test/scale/fleet-restart.test.ts rides out a shorter outage.
    const c = new Coordinator(["run", file, "--concurrency", "12", "--executor", redis().url], home(), dir.path, {
      VOUCH_EXECUTOR_RECONNECT_MS: "2000",
    });
    await c.until((evs) => finishedBranches(evs).length >= 5);
    await redis().down();
    const { code, events } = await c.done();
    expect(code).toBe(3);
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "error", reason: "executor" });
    await redis().up();
    const resumed = await vouch(["resume", "last", "--json"], { home: home(), cwd: dir.path, env: FLEET_ENV });
    const second = parseNdjson(resumed.stdout);
    expect([0, 1]).toContain(resumed.code);
    const passedOnce = new Map<number, number>();
    for (const e of finishedBranches([...events, ...second]))
      if (e.status === "passed") passedOnce.set(e.branch.index, (passedOnce.get(e.branch.index) ?? 0) + 1);
    expect([...passedOnce.values()].every((n) => n === 1)).toBe(true);
    expect(of(second, "run.finished")[0]!.reason).toBeUndefined();
  });

  test("the run's wall crossed: dispatch stops, running jobs are cancelled, no process is left on any worker", async () => {
    await fleet();
    const marker = "31.4159"; // a sleep no other test runs
    const file = graphFile(marker);
    const ran = await vouch(["run", file, "--json", "--concurrency", "12", "--wall", "3s", "--executor", redis().url], {
      home: home(),
      cwd: dir.path,
      env: FLEET_ENV,
    });
    const events = parseNdjson(ran.stdout);
    expect(ran.code).toBe(3);
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "error", reason: "wall" });
    expect(of(events, "branch.dispatched").length).toBeLessThanOrEqual(12); // nothing new after the stop
    expect(finishedBranches(events).every((e) => e.status !== "passed")).toBe(true);
    // The workers killed their process groups: no `sleep 31.4159` is left (bounded wait for the kill to land).
    let left = "";
    for (let i = 0; i < 100; i++) {
      left = spawnSync(["pgrep", "-f", `sleep ${marker}`])
        .stdout.toString()
        .trim();
      if (left === "") break;
      await Bun.sleep(50);
    }
    expect(left).toBe("");
  });

  test("SIGTERM on a worker: it takes nothing new, hands its running jobs back, exits 0; commands see VOUCH_WORKER", async () => {
    await fleet(2);
    const file = join(dir.path, "who.yaml");
    writeFileSync(
      file,
      `version: 1
name: who
nodes:
  items: { kind: script, run: "echo [0,1,2,3,4,5,6,7,8,9,10,11]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      who: { kind: script, run: 'sleep 1; printf "{\\"w\\":\\"%s\\"}" "$VOUCH_WORKER"', output: { format: json } }
`,
    );
    const c = new Coordinator(["run", file, "--concurrency", "8", "--executor", redis().url], home(), dir.path);
    await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "w0"));
    const termCode = await workers[0]!.term();
    expect(workers[0]!.stderr + termCode).toContain("handing running ones back");
    expect(termCode, workers[0]!.stderr).toBe(0);
    const { code, events } = await c.done();
    expect(
      code,
      JSON.stringify(
        events.filter((e) => e.type === "branch.finished" && e.status !== "passed").concat(of(events, "run.finished") as never[]),
      ),
    ).toBe(0);
    const cut = of(events, "branch.cut_off");
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.every((e) => e.worker === "w0")).toBe(true);
    // Handed back, then finished by w1: each branch's output names the worker that ran it.
    const done = of(events, "node.finished").filter((e) => e.node === "who" && e.status === "passed");
    expect(done).toHaveLength(12);
    for (const e of done) expect(e.output).toEqual({ w: e.remote!.worker });
    for (const e of cut) expect(done.find((d) => d.branch!.index === e.branch.index)!.remote!.worker).toBe("w1");
  });

  test("Redis unreachable at start: exit 2 with the URL and the error, no run recorded", async () => {
    dir = tempDir("fleet");
    const file = graphFile("0");
    const ran = await vouch(["run", file, "--executor", "redis://127.0.0.1:1"], { home: home(), cwd: dir.path, env: FLEET_ENV });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("cannot reach Redis at redis://127.0.0.1:1");
    expect(ran.stderr).toContain("ECONNREFUSED");
    const runs = await vouch(["runs", "--json"], { home: home(), cwd: dir.path });
    expect(runs.stdout.trim() === "" || runs.stdout.trim() === "[]").toBe(true);
  });
});
