// The checks' history and the judged sittings of a fleet run (ADR 0067, 0068), through
// the real binary, a real redis-server and `vouch worker`s: a branch whose worker is
// killed with -9 after its flaky check (reruns on the worker) reported, and which another
// worker then runs again, counts once; every branch's outcome is flaky.
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { spawnSync } from "bun";
import { join } from "node:path";
import { tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

/** The pids of the slow check's sleep (pgrep reads; a leftover is killed by its pid). */
const sleeping = () => spawnSync(["pgrep", "-f", "sleep 86.42"]).stdout.toString().trim().split("\n").filter(Boolean);

describe.skipIf(!HAVE_REDIS)("history of a fleet run", { timeout: 120_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  afterEach(async () => {
    await stopAll(workers);
    for (const pid of sleeping()) process.kill(Number(pid), "SIGKILL"); // a failed test leaves none behind
    dir.cleanup();
  });

  test("a branch run again on another worker after a kill -9 counts once", async () => {
    dir = tempDir("fleet-history");
    const home = join(dir.path, ".vouch");
    const count = join(dir.path, "count");
    // Per worker, the probe fails on odd runs and passes on even ones (a counter file per
    // worker, outside any tree): with reruns: 1 every branch's probe is flaky. On w0 the next
    // check then waits, so the worker is killed after the probe reported.
    writeFileSync(
      join(dir.path, "g.yaml"),
      `version: 1
name: fleet-history
checks:
  probe: { run: 'c=${count}-$VOUCH_WORKER; n=$(cat "$c" 2>/dev/null || echo 0); echo $((n + 1)) > "$c"; [ $((n % 2)) -eq 1 ]', reruns: 1 }
  slow: { run: 'if [ "$VOUCH_WORKER" = w0 ]; then sleep 86.42; fi; true' }
nodes:
  items: { kind: script, run: "echo [0, 1]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: "true", success: { checks: [probe, slow] } }
`,
    );
    const w0 = await WorkerProc.start(redis().url, "w0", home, 1);
    workers.push(w0);
    const c = new Coordinator(["run", "g.yaml", "--executor", redis().url], home, dir.path);
    await c.until((evs) => evs.some((e) => e.type === "check.finished" && e.flaky === true && e.remote?.worker === "w0"));
    while (sleeping().length === 0) await Bun.sleep(20); // the slow check runs
    w0.kill9();
    await w0.proc.exited;
    // Its check's processes die with it (ADR 0046): bounded wait for the reaper's kill to land.
    for (let i = 0; i < 100 && sleeping().length > 0; i++) await Bun.sleep(50);
    expect(sleeping()).toEqual([]);
    workers.push(await WorkerProc.start(redis().url, "w1", home, 1));
    const { code, events } = await c.doneWithin(60_000);
    expect(code, c.err).toBe(3); // every branch errored (flaky_check)
    expect(of(events, "branch.cut_off")).toMatchObject([{ attempt: 1, worker: "w0" }]);
    // The stream holds branch 0's check twice (w0's, then w1's), and branch 1's once...
    const flakyRuns = of(events, "check.finished").filter((e) => e.flaky === true);
    expect(flakyRuns.map((e) => [e.branch?.index, e.remote?.worker]).sort()).toEqual([
      [0, "w0"],
      [0, "w1"],
      [1, "w1"],
    ]);
    // ...the history one outcome per branch.
    const h = await vouch(["checks", "probe", "--history", "--json"], { home, cwd: dir.path, env: FLEET_ENV });
    expect(JSON.parse(h.stdout)).toMatchObject([{ name: "probe", runs: 1, flaky: 2, passed: 0, failed: 0, flaky_runs: 1, marked: true }]);
    // The slow check passed once per branch: w0's cut-off run of branch 0 is not counted.
    const slow = JSON.parse((await vouch(["checks", "slow", "--history", "--json"], { home, cwd: dir.path })).stdout);
    expect(slow).toMatchObject([{ name: "slow", runs: 1, passed: 2 }]);
  });
});
