// The worker host with no Redis at all (ADR 0037): a transport in miniature, in
// memory, hands it jobs, as a second executor would. Real processes run the
// branches. What a worker promises is the host's, not the transport's: messages
// in order with the result last, nothing run twice or after a cancel, VOUCH_WORKER
// in every command, and a stop that kills what runs and hands its job back.
import { afterAll, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../e2e/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import type { BranchJob } from "../../src/engine/ports.ts";
import type { StreamMessage } from "../../src/executor/protocol.ts";
import { WorkerHost, type TakenJob } from "../../src/executor/worker-host.ts";

const dir = tempDir("worker-host");
afterAll(() => dir.cleanup());

function jobFor(runId: string, run: string): BranchJob {
  const r = loadGraph(
    "g.yaml",
    `version: 1\nname: host\ninputs:\n  items: { description: the items }\nnodes:\n  each:\n    kind: map\n    over: inputs.items\n    branch:\n      work: { kind: script, run: ${JSON.stringify(run)}, timeout: 60s }\n`,
  );
  if (!r.graph) throw new Error(JSON.stringify(r.problems));
  const ctx = {
    options: { graph: r.graph, runId, graphDigest: "d", graphPath: "g.yaml", baseDir: dir.path, version: "0" },
    inputs: { items: [0] },
    limits: { concurrency: 1 },
    resume: null,
  } as unknown as RunContext;
  return branchJob(ctx, "each", r.graph.nodes.each as never, 0, 0, {}, "memory");
}

/** An in-memory transport's job: what was sent, whether it was handed back, a settable cancel. */
function memoryJob(data: BranchJob | null, o: { delivered?: boolean; claimed?: boolean; cancel?: string } = {}) {
  const sent: StreamMessage[] = [];
  const state = { handedBack: 0, cancel: o.cancel ?? null, watchers: [] as ((r: string) => void)[] };
  const job: TakenJob = {
    id: data?.jobId ?? "junk",
    attempt: 1,
    data,
    send: async (m) => void sent.push(m),
    sent: async () => {},
    delivered: async () => o.delivered ?? false,
    cancelReason: async () => state.cancel,
    watchCancel: (stop) => {
      state.watchers.push(stop);
      return () => (state.watchers = state.watchers.filter((w) => w !== stop));
    },
    claimResult: async () => !(o.claimed ?? false),
    handBack: async () => void state.handedBack++,
  };
  const cancel = (reason: string) => {
    state.cancel = reason;
    for (const w of state.watchers) w(reason);
  };
  return { job, sent, state, cancel };
}

const host = (name: string) => new WorkerHost({ name, env: { PATH: process.env.PATH } });

/** Resolves once `path` exists (the script got that far); bounded by the test's timeout. */
async function appeared(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 20));
}

test("a job runs on the host: attempt first, the branch's events, the result last; commands see VOUCH_WORKER", async () => {
  const out = join(dir.path, "who");
  const m = memoryJob(jobFor("run-a", `printf %s "$VOUCH_WORKER" > ${out}`));
  expect(await host("w-mem").run(m.job)).toEqual({ kind: "delivered", status: "passed" });
  expect(readFileSync(out, "utf8")).toBe("w-mem");
  expect(m.sent[0]).toEqual({ kind: "attempt", job: m.job.id, worker: "w-mem", attempt: 1 });
  expect(m.sent.at(-1)).toMatchObject({ kind: "result", outcome: { status: "passed", worker: "w-mem", attempt: 1 } });
  const events = m.sent.filter((s) => s.kind === "event");
  expect(events.map((e) => e.event.seq)).toEqual(events.map((_, i) => i));
  expect(events.map((e) => e.event.body.type)).toContain("node.finished");
  expect(m.state.handedBack).toBe(0);
});

test("nothing runs twice, nothing runs once cancelled, and junk is an error result", async () => {
  const marker = join(dir.path, "ran-twice");
  const again = memoryJob(jobFor("run-b", `touch ${marker}`), { delivered: true });
  expect(await host("w").run(again.job)).toEqual({ kind: "already-delivered" });
  expect(again.sent).toEqual([]);
  const cancelled = memoryJob(jobFor("run-c", `touch ${marker}`), { cancel: "budget" });
  expect(await host("w").run(cancelled.job)).toEqual({ kind: "delivered", status: "cancelled" });
  expect(cancelled.sent).toEqual([
    expect.objectContaining({
      kind: "result",
      outcome: expect.objectContaining({ status: "cancelled", error: "cancelled before it started" }),
    }),
  ]);
  expect(existsSync(marker)).toBe(false);
  const junk = memoryJob(null);
  expect(await host("w").run(junk.job)).toEqual({ kind: "delivered", status: "error" });
  expect(junk.sent).toEqual([expect.objectContaining({ kind: "result", outcome: expect.objectContaining({ status: "error" }) })]);
});

test("a result another attempt delivered first is not sent again", async () => {
  const m = memoryJob(jobFor("run-d", "true"), { claimed: true });
  expect(await host("w").run(m.job)).toEqual({ kind: "already-delivered" });
  expect(m.sent.filter((s) => s.kind === "result")).toEqual([]);
});

test("the coordinator's cancel stops a running branch: its process is stopped and the result says so", async () => {
  const started = join(dir.path, "cancel-started");
  const finished = join(dir.path, "cancel-finished");
  const m = memoryJob(jobFor("run-e", `touch ${started}; sleep 29.9791; touch ${finished}`));
  const running = host("w").run(m.job);
  await appeared(started);
  m.cancel("budget");
  const end = await running;
  expect(end.kind).toBe("delivered");
  expect(end.kind === "delivered" && end.status).not.toBe("passed");
  expect(existsSync(finished)).toBe(false);
});

test("a stop kills what runs, hands the job back once, sends no result; a job taken after it is handed back untouched", async () => {
  const pidFile = join(dir.path, "pid");
  // Written whole, then renamed: once the file is there, it holds the pid.
  const m = memoryJob(jobFor("run-f", `echo $$ > ${pidFile}.part; mv ${pidFile}.part ${pidFile}; exec sleep 29.9793`));
  const h = host("w-stop");
  const running = h.run(m.job);
  await appeared(pidFile);
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  expect(h.heartbeat(2)).toMatchObject({ name: "w-stop", concurrency: 2, running: [m.job.id] });
  let drained = 0;
  expect(await h.stop(async () => void drained++)).toBe(1);
  expect(drained).toBe(1);
  expect(await running).toEqual({ kind: "handed-back" });
  expect(m.state.handedBack).toBe(1);
  expect(m.sent.filter((s) => s.kind === "result")).toEqual([]);
  expect(() => process.kill(pid, 0)).toThrow();
  const late = memoryJob(jobFor("run-g", "true"));
  expect(await h.run(late.job)).toEqual({ kind: "handed-back" });
  expect(late.sent).toEqual([]);
  expect(late.state.handedBack).toBe(1);
});
