// Redis restarted under a running fleet (issue 27, item 11; ADR 0046), through the real
// binary: with an append-only file keeping every key, a restart within the coordinator's
// reconnect bound is ridden out and the run ends as if nothing happened; one longer than
// the bound ends the run `error` (reason executor), resumable.
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import type { VouchEvent } from "../../src/engine/events.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, FLEET_ENV, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const BRANCHES = 24;
const GRAPH = `version: 1
name: restart
nodes:
  items: { kind: script, run: "seq 0 ${BRANCHES - 1} | paste -sd, | sed 's/.*/[&]/'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: ': vouch-restart-5b2d; sleep 0.3; printf "{\\"i\\":%s}" "$(cat "$VOUCH_ITEM_FILE")"', output: { format: json } }
`;

/** Each branch index's number of branch.finished, over one or more sessions. */
function finishedPer(events: VouchEvent[]): Map<number, number> {
  const n = new Map<number, number>();
  for (const e of of(events, "branch.finished")) n.set(e.branch.index, (n.get(e.branch.index) ?? 0) + 1);
  return n;
}

describe.skipIf(!HAVE_REDIS)("a Redis restart under a running fleet (AOF keeps every key)", { timeout: 180_000 }, () => {
  const redis = useRedis({ aof: true });
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  const home = () => join(dir.path, ".vouch");

  afterEach(async () => {
    await redis().ensureUp();
    // However the run ended, no process of its branches is left on the (still running) workers.
    let left = "";
    for (let i = 0; i < 100; i++) {
      left = spawnSync(["pgrep", "-f", "vouch-restart-5b2d"]).stdout.toString().trim();
      if (left === "") break;
      await Bun.sleep(50);
    }
    await stopAll(workers);
    expect(left, "processes left by the branches").toBe("");
    dir.cleanup();
  });

  async function fleet(): Promise<string> {
    dir = tempDir("restart");
    for (let i = 0; i < 3; i++) workers.push(await WorkerProc.start(redis().url, `w${i}`, home(), 4));
    const file = join(dir.path, "restart.yaml");
    writeFileSync(file, GRAPH);
    return file;
  }

  test("a restart within the bound is ridden out: every branch passes once, the run passes", async () => {
    const file = await fleet();
    const c = new Coordinator(["run", file, "--concurrency", "12", "--executor", redis().url], home(), dir.path);
    await c.until((evs) => of(evs, "branch.finished").length >= 4);
    // A restart that takes a moment (loading the append-only file): the fault's length, not a wait for anything.
    await redis().down();
    await Bun.sleep(1500);
    await redis().up();
    const { code, events } = await c.doneWithin(120_000);
    expect(of(events, "run.finished")[0], c.err).toMatchObject({ status: "passed" });
    expect(code).toBe(0);
    const per = finishedPer(events);
    expect(per.size).toBe(BRANCHES);
    expect([...per.values()].every((n) => n === 1)).toBe(true);
    expect(of(events, "branch.finished").every((e) => e.status === "passed")).toBe(true);
    // It said what happened, on stderr: the connection lost, then back.
    expect(c.err).toContain("reconnecting");
  });

  test("Redis gone longer than the bound: the run ends error (reason executor), and resumes once Redis is back", async () => {
    const file = await fleet();
    const c = new Coordinator(["run", file, "--concurrency", "12", "--executor", redis().url], home(), dir.path, {
      VOUCH_EXECUTOR_RECONNECT_MS: "2000",
    });
    await c.until((evs) => of(evs, "branch.finished").length >= 4);
    await redis().down();
    const { code, events } = await c.doneWithin(60_000);
    expect(code).toBe(3);
    expect(of(events, "run.finished")[0]).toMatchObject({ status: "error", reason: "executor" });
    expect(c.err).toContain("2 s");
    await redis().up();
    const resumed = await vouch(["resume", "last", "--json"], { home: home(), cwd: dir.path, env: FLEET_ENV });
    const second = parseNdjson(resumed.stdout);
    expect(resumed.code, resumed.stderr).toBe(0);
    const passed = new Map<number, number>();
    for (const e of of([...events, ...second], "branch.finished"))
      if (e.status === "passed") passed.set(e.branch.index, (passed.get(e.branch.index) ?? 0) + 1);
    expect(passed.size).toBe(BRANCHES);
    expect([...passed.values()].every((n) => n === 1)).toBe(true);
  });
});
