// One handover store per run on a worker (ADR 0090): the jobs of a run share one handover
// folder instead of a folder made and removed per job, every job reads the data of its own
// run, runs never share a folder (a sealed process sees its folder), a long-lived worker keeps
// the folders of its last few runs only, and a stop removes them. Counted, not timed.
import { afterAll, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../e2e/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealJob } from "../../src/executor/job-seal.ts";
import { WorkerHost, type TakenJob } from "../../src/executor/worker-host.ts";
import { WORKER_RUNS_KEPT } from "../../src/executor/worker-runners.ts";

const dir = tempDir("worker-handover");
afterAll(() => dir.cleanup());
const KEY = FleetKey.of("worker-handover-test-key-0123456789abcdef", "test");

/** A sealed job of run `runId` whose branch runs `run`, with the run input `note`. */
function job(runId: string, run: string, note: string): TakenJob {
  const yaml = `version: 1\nname: h\ninputs:\n  items: { description: the items }\n  note: { description: a note }\nnodes:\n  each:\n    kind: map\n    over: inputs.items\n    branch:\n      work: { kind: script, run: ${JSON.stringify(run)}, timeout: 60s }\n`;
  const r = loadGraph("g.yaml", yaml);
  if (!r.graph) throw new Error(JSON.stringify(r.problems));
  const ctx = {
    options: { graph: r.graph, runId, graphDigest: "d", graphPath: "g.yaml", baseDir: dir.path, version: "0" },
    inputs: { items: [0], note },
    limits: { concurrency: 1 },
    resume: null,
  } as unknown as RunContext;
  const data = branchJob(ctx, "each", r.graph.nodes.each as never, 0, 0, {}, "memory");
  return {
    id: data.jobId,
    attempt: 1,
    data: sealJob(data, KEY),
    send: async () => {},
    sent: async () => {},
    before: async () => ({ delivered: false, cancelReason: null }),
    watchCancel: () => () => {},
    deliver: async () => "delivered",
    handBack: async () => {},
  };
}

const host = () => new WorkerHost({ name: "w-h", env: { PATH: process.env.PATH }, key: KEY, version: "0" });
const passed = { kind: "delivered", status: "passed" };

test("two concurrent jobs of different runs, one input name, different contents: each reads its own", async () => {
  const h = host();
  // Each waits until the other has started, so both hold their handover at once.
  const script = (me: string, other: string) =>
    `touch ${dir.path}/${me}; while [ ! -e ${dir.path}/${other} ]; do sleep 0.01; done; cat "$VOUCH_INPUT_NOTE_FILE" > ${dir.path}/${me}.out; sleep 0.05; cat "$VOUCH_INPUT_NOTE_FILE" >> ${dir.path}/${me}.out`;
  const [a, b] = await Promise.all([
    h.run(job("run-a", script("a", "b"), "note of run a")),
    h.run(job("run-b", script("b", "a"), "note of run b, longer")),
  ]);
  expect([a, b]).toEqual([passed, passed]);
  expect(readFileSync(`${dir.path}/a.out`, "utf8")).toBe("note of run a".repeat(2));
  expect(readFileSync(`${dir.path}/b.out`, "utf8")).toBe("note of run b, longer".repeat(2));
  await h.stop(async () => {});
});

test("jobs of one run share one folder; runs get folders of their own; past the bound an idle run's folder goes", async () => {
  const h = host();
  const seen = join(dir.path, "seen");
  const n = 12;
  // One run, many jobs one after another and at once: one folder (ADR 0090's saving).
  for (let i = 0; i < n; i++) expect(await h.run(job("run-one", `dirname "$VOUCH_STATE_FILE" >> ${seen}`, "x"))).toEqual(passed);
  const ends = await Promise.all(Array.from({ length: 8 }, () => h.run(job("run-one", `dirname "$VOUCH_STATE_FILE" >> ${seen}`, "x"))));
  expect(ends).toEqual(Array(8).fill(passed));
  const one = new Set(readFileSync(seen, "utf8").trim().split("\n"));
  expect(one.size).toBe(1);
  const [first] = [...one];
  // Other runs: a folder each, none inside another's. A sealed process is bound the folder of
  // its handover files read-only (ADR 0073): a shared folder would show it another run's inputs.
  const others = join(dir.path, "others");
  for (let i = 0; i < WORKER_RUNS_KEPT + 2; i++)
    expect(await h.run(job(`run-o${i}`, `dirname "$VOUCH_STATE_FILE" >> ${others}`, `note ${i}`))).toEqual(passed);
  const folders = readFileSync(others, "utf8").trim().split("\n");
  expect(new Set([...folders, first]).size).toBe(WORKER_RUNS_KEPT + 3);
  for (const f of folders) expect(f.startsWith(`${first}/`)).toBe(false);
  // A worker keeps the folders of its last runs, not of every run it ever served.
  expect(existsSync(first!)).toBe(false);
  expect(folders.filter((f) => existsSync(f)).length).toBe(WORKER_RUNS_KEPT);
  await h.stop(async () => {});
  for (const f of folders) expect(existsSync(f)).toBe(false);
});
