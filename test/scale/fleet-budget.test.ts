// The run budget crossed across workers (issue 19, "Done when"), through the real
// binary: a real redis-server, three `vouch worker`s, a map whose branches each
// sit once with the stub claude (test/stubs/harness/, a real process that reports
// a cost, no network) and then, for every third item, hold a long `sleep`. The
// coordinator adds up the streamed costs, crosses the budget while branches run
// on the workers, stops dispatching and cancels them; the workers kill their
// process groups.
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { HARNESS_STUBS } from "../faults/fault-run.ts";
import { eventually, groupAlive } from "../spawn/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { FLEET_ENV, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const BRANCHES = 60;
const MARKER = "27.1828"; // a sleep no other test runs
const TURN_COST = 0.013;
const BUDGET = 0.1; // crossed by the 8th finished sitting (8 x 0.013 = 0.104)

/** Each branch: one claude sitting (cost TURN_COST), then a script that holds every third item. */
function graph(pids: string): string {
  return `version: 1
name: fleet-budget
nodes:
  items: { kind: script, run: "seq 0 ${BRANCHES - 1} | paste -sd, | sed 's/.*/[&]/'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      pay:
        kind: agent
        harness: claude
        prompt: do the work
        caps: { wall: 60s }
        sandbox: off # the stub records pids; sealed, its group's leader is outside its namespace (pgid 0)
      hold:
        kind: script
        needs: [pay]
        run: 'echo "$$ $(cut -d" " -f5 /proc/$$/stat)" >> ${pids}; i=$(cat "$VOUCH_ITEM_FILE"); if [ $((i % 3)) -eq 0 ]; then sleep ${MARKER}; fi; echo held'
`;
}

function groupsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return [
    ...new Set(
      readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => Number(l.split(" ")[1]))
        .filter((g) => g > 1), // never kill(-0): this test's own group
    ),
  ];
}

describe.skipIf(!HAVE_REDIS)("the run budget crossed across workers", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  const home = () => join(dir.path, ".vouch");

  afterEach(async () => {
    await stopAll(workers);
    for (const g of [...groupsIn(join(dir.path, "stub.pids")), ...groupsIn(join(dir.path, "hold.pids"))]) {
      try {
        process.kill(-g, "SIGKILL"); // what a failed case left behind
      } catch {
        // gone
      }
    }
    dir.cleanup();
  });

  test("dispatch stops at the crossing, running jobs are cancelled, no process is left on any worker", async () => {
    dir = tempDir("fleet-budget");
    const stubPids = join(dir.path, "stub.pids");
    const holdPids = join(dir.path, "hold.pids");
    // The workers' own environment: the stubs first on PATH, the stub's cost per turn.
    const env = { PATH: `${HARNESS_STUBS}:/usr/local/bin:/usr/bin:/bin`, STUB_TURN_COST: String(TURN_COST), STUB_PIDS: stubPids };
    for (let i = 0; i < 3; i++) workers.push(await WorkerProc.start(redis().url, `w${i}`, home(), 4, env));
    const file = join(dir.path, "budget.yaml");
    writeFileSync(file, graph(holdPids));
    // The job carries the names only; each worker passes its own values.
    const args = [
      "run",
      file,
      "--json",
      "--concurrency",
      "12",
      "--budget",
      String(BUDGET),
      "--pass-env",
      "STUB_TURN_COST",
      "--pass-env",
      "STUB_PIDS",
      "--executor",
      redis().url,
    ];
    const ran = await vouch(args, { home: home(), cwd: dir.path, env: { PATH: env.PATH, ...FLEET_ENV } });
    const events = parseNdjson(ran.stdout);
    expect(ran.stderr).not.toMatch(/^\s+at /m);
    expect(ran.code, ran.stderr).toBe(3);
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "error", reason: "budget" });

    // The sittings ran on the workers and reported their costs; the crossing is recorded once.
    const paid = of(events, "node.finished").filter((e) => e.node === "pay" && typeof e.cost_usd === "number");
    expect(paid.length).toBeGreaterThanOrEqual(8);
    expect(paid.every((e) => e.remote !== undefined)).toBe(true);
    const overruns = of(events, "cap.overrun").filter((e) => e.scope === "run");
    expect(overruns).toHaveLength(1);
    expect(overruns[0]).toMatchObject({ cap: "budget_usd", limit: BUDGET });
    expect(overruns[0]!.actual).toBeGreaterThan(BUDGET);

    // Nothing is dispatched once the budget is crossed: every dispatch comes before the overrun.
    const crossedAt = events.indexOf(overruns[0]!);
    const dispatched = of(events, "branch.dispatched");
    expect(dispatched.every((e) => events.indexOf(e) < crossedAt)).toBe(true);
    expect(dispatched.length).toBeLessThan(BRANCHES);
    // Each dispatched branch ends once; none passes after the stop took it.
    const finished = of(events, "branch.finished");
    expect(new Set(finished.map((e) => e.branch.index)).size).toBe(finished.length);

    // Jobs running at the crossing were stopped on their workers: a branch holding its
    // `sleep` (it would have passed 27 s later) ends as a local one stopped by the
    // run budget does (error, cause run_budget), recorded from the worker that ran it.
    const holding = of(events, "node.started").filter((e) => e.node === "hold" && e.branch!.index % 3 === 0);
    expect(holding.length).toBeGreaterThan(0);
    for (const h of holding) {
      const end = of(events, "node.finished").find((e) => e.node === "hold" && e.branch!.index === h.branch!.index);
      expect(end, `hold of branch ${h.branch!.index}`).toMatchObject({ status: "error", cause: "run_budget" });
      expect(end!.remote?.worker).toBe(h.remote?.worker);
      expect(finished.find((e) => e.branch.index === h.branch!.index)).toMatchObject({
        status: "error",
        error: "stopped: the run budget was crossed",
      });
    }
    // Branches never dispatched end cancelled, without a job: all 60 are accounted for once.
    const undispatched = finished.filter((e) => !dispatched.some((d) => d.branch.index === e.branch.index));
    expect(undispatched.length).toBe(BRANCHES - dispatched.length);
    expect(undispatched.every((e) => e.status === "cancelled")).toBe(true);
    expect(finished).toHaveLength(BRANCHES);

    // No process of any branch is left on any worker: every group a sitting or a
    // script ran in is empty, and no `sleep 27.1828` runs (bounded wait for the kills to land).
    const groups = [...groupsIn(stubPids), ...groupsIn(holdPids)];
    expect(groupsIn(holdPids).length).toBeGreaterThan(0);
    await eventually(() => groups.every((g) => !groupAlive(g)), 10_000);
    expect(groups.filter(groupAlive)).toEqual([]);
    let left = "";
    for (let i = 0; i < 100; i++) {
      left = spawnSync(["pgrep", "-f", `sleep ${MARKER}`])
        .stdout.toString()
        .trim();
      if (left === "") break;
      await Bun.sleep(50);
    }
    expect(left).toBe("");
  });
});
