// Issue 6's crash test, second half: kill -9 of vouch and, at the same moment,
// of every process group it started (a power cut), at seeded random moments,
// then resume (see crash-loop.ts). Replay a failure with VOUCH_CRASH_SEED=<seed>.
import { afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { checkRun, crashLoop, seedFromEnv, SLOW_GRAPH, STEP_SH } from "./crash-loop.ts";
import { ensureBinary, tempProject, type Project } from "./vouch-process.ts";

let p: Project;
beforeAll(() => void ensureBinary(), 120_000);
beforeEach(() => {
  p = tempProject();
  p.write("graph.yaml", SLOW_GRAPH);
  p.write("step.sh", STEP_SH);
});
afterEach(() => p.cleanup());

const KILLS = 11;

test(`kill -9 vouch ${KILLS} times and its children (a reboot), resume last until exit 0: each node passed once, none re-run`, async () => {
  const seed = seedFromEnv();
  console.log(`crash-reboot seed ${seed} (replay: VOUCH_CRASH_SEED=${seed})`);
  const r = await crashLoop(p, { seed, kills: KILLS, maxDelayMs: 700, crash: "reboot" });
  console.log(`${r.kills} kills (${r.killsBeforeStart} before run.started), ${r.runs.length} run(s) finished, ${r.sessions} sessions`);
  expect(r.kills).toBe(KILLS);
  expect(r.runs.length).toBeGreaterThanOrEqual(1);
  for (const run of r.runs) await checkRun(p, run, seed);
}, 120_000);
