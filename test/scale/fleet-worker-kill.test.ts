// kill -9 of a worker whose branch runs a long child (issue 27, item 10; ADR 0046),
// through the real binary: the branch's processes die with the worker instead of being
// reparented to init while another worker runs the branch again. Processes are counted
// by their command lines after the kill.
import { afterEach, describe, expect, test } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { Coordinator, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const pgrep = (marker: string) => spawnSync(["pgrep", "-f", marker]).stdout.toString().trim();

describe.skipIf(!HAVE_REDIS)("a worker killed with -9", { timeout: 120_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  afterEach(async () => {
    await stopAll(workers);
    spawnSync(["pkill", "-9", "-f", "sleep 97.531"]); // a failed test leaves none behind either
    dir.cleanup();
  });

  test("takes its branch's processes with it (a shell and its sleeping child); another worker decides the branch", async () => {
    dir = tempDir("worker-kill");
    const home = join(dir.path, ".vouch");
    // On w0 the branch sits in a long child of the shell: a grandchild of the worker.
    writeFileSync(
      join(dir.path, "g.yaml"),
      `version: 1
name: kill
nodes:
  items: { kind: script, run: "echo [0]", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work: { kind: script, run: 'if [ "$VOUCH_WORKER" = w0 ]; then sleep 97.531; echo late; fi; printf "{\\"w\\":\\"%s\\"}" "$VOUCH_WORKER"', output: { format: json } }
`,
    );
    const w0 = await WorkerProc.start(redis().url, "w0", home, 1);
    workers.push(w0);
    const c = new Coordinator(["run", "g.yaml", "--executor", redis().url], home, dir.path);
    await c.until((evs) => evs.some((e) => e.type === "node.started" && e.remote?.worker === "w0"));
    while (pgrep("sleep 97.531") === "") await Bun.sleep(20); // the child is up
    w0.kill9();
    await w0.proc.exited;
    // Bounded wait for the kill to land: the shell and its sleep are gone.
    let left = pgrep("sleep 97.531");
    for (let i = 0; i < 100 && left !== ""; i++) {
      await Bun.sleep(50);
      left = pgrep("sleep 97.531");
    }
    expect(left).toBe("");
    workers.push(await WorkerProc.start(redis().url, "w1", home, 1));
    const { code, events } = await c.doneWithin(60_000);
    expect(code, c.err).toBe(0);
    const finished = of(events, "branch.finished");
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ status: "passed", output: { w: "w1" } });
    expect(of(events, "branch.cut_off")).toMatchObject([{ attempt: 1, worker: "w0" }]);
  });
});
