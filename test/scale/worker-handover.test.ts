// One handover store per worker (ADR 0090): the worker's jobs share one handover folder
// instead of a folder made and removed per job, yet every job still reads the data of its
// own run, the folder's input folders stay bounded on a long-lived worker, and a stop
// removes it. Counted, not timed: the folders the jobs' commands were handed.
import { afterAll, expect, test } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../e2e/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { sealJob } from "../../src/executor/job-seal.ts";
import { WorkerHost, type TakenJob } from "../../src/executor/worker-host.ts";
import { KEEP_RELEASED } from "../../src/spawn/handover-files.ts";

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

test("N jobs on one worker are handed one folder, not N; its input folders stay bounded; a stop removes it", async () => {
  const h = host();
  const seen = join(dir.path, "seen");
  const n = KEEP_RELEASED + 8;
  // Sequential runs, each with inputs of its own: every job names the folder it was handed.
  for (let i = 0; i < n; i++) {
    const end = await h.run(
      job(`run-s${i}`, `dirname "$VOUCH_STATE_FILE" >> ${seen}; cat "$VOUCH_INPUT_NOTE_FILE" >/dev/null`, `note ${i}`),
    );
    expect(end).toEqual(passed);
  }
  // And a batch at once.
  const ends = await Promise.all(
    Array.from({ length: 8 }, (_, i) => h.run(job(`run-c${i}`, `dirname "$VOUCH_STATE_FILE" >> ${seen}`, `c ${i}`))),
  );
  expect(ends).toEqual(Array(8).fill(passed));
  const folders = new Set(readFileSync(seen, "utf8").trim().split("\n"));
  expect(folders.size).toBe(1);
  const [folder] = [...folders];
  expect(existsSync(folder!)).toBe(true);
  // Each run's inputs are a folder of their own: emptied ones go, so a long-lived worker keeps at most the bound.
  const inputFolders = readdirSync(folder!).filter((f) => f.startsWith("inputs-"));
  expect(inputFolders.length).toBeLessThanOrEqual(KEEP_RELEASED);
  await h.stop(async () => {});
  expect(existsSync(folder!)).toBe(false);
  expect(dirname(folder!)).not.toBe(folder);
});
