// The worker host with no Redis at all (ADR 0037): a transport in miniature, in
// memory, hands it jobs, as a second executor would. Real processes run the
// branches. What a worker promises is the host's, not the transport's: messages
// in order with the result last, nothing run twice or after a cancel, VOUCH_WORKER
// in every command, and a stop that kills what runs and hands its job back.
import { afterAll, describe, expect, test } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../e2e/helpers.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import type { BranchJob } from "../../src/engine/ports.ts";
import { openMessage, type SealedMessage, type StreamMessage } from "../../src/executor/protocol.ts";
import { FleetKey } from "../../src/executor/fleet-key.ts";
import { runOfJobId, sealJob } from "../../src/executor/job-seal.ts";
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

const KEY = FleetKey.of("worker-host-test-key-0123456789abcdef", "test");

/** An in-memory transport's job: what was sent (opened with the key, or "unverified"), whether it
 *  was handed back, a settable cancel. `data` is sealed unless `raw` says to hand it over as is. */
function memoryJob(
  data: BranchJob | null,
  o: { delivered?: boolean; claimed?: boolean; leaseLost?: boolean; cancel?: string; raw?: unknown; id?: string } = {},
) {
  const sent: (StreamMessage | "unverified")[] = [];
  const state = { handedBack: 0, cancel: o.cancel ?? null, watchers: [] as ((r: string) => void)[] };
  const id = o.id ?? data?.jobId ?? "run-junk.each.0.1";
  const open = (m: SealedMessage) => openMessage(runOfJobId(id), m.text, m.mac, KEY) ?? "unverified";
  const job: TakenJob = {
    id,
    attempt: 1,
    data: "raw" in o ? o.raw : data === null ? null : sealJob(data, KEY),
    send: async (m) => void sent.push(open(m)),
    sent: async () => {},
    before: async () => ({ delivered: o.delivered ?? false, cancelReason: state.cancel }),
    watchCancel: (stop) => {
      state.watchers.push(stop);
      return () => (state.watchers = state.watchers.filter((w) => w !== stop));
    },
    deliver: async (result, refused) => {
      if (o.leaseLost) {
        sent.push(open(refused));
        return "lease-lost";
      }
      if (o.claimed) return "already";
      sent.push(open(result));
      return "delivered";
    },
    handBack: async () => void state.handedBack++,
  };
  const cancel = (reason: string) => {
    state.cancel = reason;
    for (const w of state.watchers) w(reason);
  };
  return { job, sent, state, cancel };
}

const logged: string[] = [];
const host = (name: string, key = KEY) =>
  new WorkerHost({ name, env: { PATH: process.env.PATH }, key, version: "0", log: (l) => logged.push(l) });

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
  expect(m.sent).not.toContain("unverified");
  const events = m.sent.filter((s) => s !== "unverified" && s.kind === "event") as Extract<StreamMessage, { kind: "event" }>[];
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
  expect(m.sent).toEqual([
    expect.objectContaining({ kind: "attempt" }),
    ...m.sent.slice(1).map(() => expect.objectContaining({ kind: "event" })),
  ]);
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
  expect(m.sent.filter((s) => s !== "unverified" && s.kind === "result")).toEqual([]);
  expect(() => process.kill(pid, 0)).toThrow();
  const late = memoryJob(jobFor("run-g", "true"));
  expect(await h.run(late.job)).toEqual({ kind: "handed-back" });
  expect(late.sent).toEqual([]);
  expect(late.state.handedBack).toBe(1);
});

describe("a job runs only when it opens with the fleet key and comes from this vouch (ADR 0045)", () => {
  const refusal = (m: ReturnType<typeof memoryJob>) => {
    expect(m.sent).toHaveLength(1);
    const r = m.sent[0];
    if (r === "unverified" || r?.kind !== "result") throw new Error(`not a result: ${JSON.stringify(r)}`);
    expect(r.outcome.status).toBe("error");
    return r.outcome.error ?? "";
  };

  test("a sealed job whose text was changed, one sealed with another key, one under another id, and an unsealed one: refused, nothing run", async () => {
    const marker = join(dir.path, "ran-refused");
    const job = jobFor("run-k", `touch ${marker}`);
    const sealed = sealJob(job, KEY);
    const cases: [unknown, string, string][] = [
      [{ ...sealed, job: sealed.job.replace("touch", "rm -f") }, job.jobId, "does not verify"],
      [sealJob(job, FleetKey.of("another-key-of-the-right-length-000000", "t")), job.jobId, "does not verify"],
      [sealed, "run-k.each.1.1", "does not verify"],
      [job, job.jobId, "not a sealed vouch job"],
      [{ seal: 2, job: sealed.job, mac: sealed.mac }, job.jobId, "not a sealed vouch job"],
      // the last hex digit changed: to "0" it would be no change when it is "0" already (1 run in 16)
      [
        { seal: 1, job: sealed.job, mac: `${sealed.mac.slice(0, -1)}${sealed.mac.endsWith("0") ? "1" : "0"}` },
        job.jobId,
        "does not verify",
      ],
    ];
    for (const [raw, id, why] of cases) {
      const m = memoryJob(job, { raw, id });
      expect(await host("w").run(m.job)).toEqual({ kind: "delivered", status: "error" });
      expect(refusal(m)).toContain(why);
    }
    expect(existsSync(marker)).toBe(false);
  });

  test("a job from another vouch version is refused naming both versions", async () => {
    const job = { ...jobFor("run-l", "true"), version: "9.9.9" };
    const m = memoryJob(job);
    expect(await host("w").run(m.job)).toEqual({ kind: "delivered", status: "error" });
    expect(refusal(m)).toBe("the job is from vouch 9.9.9; this worker is vouch 0: run workers of the coordinator's version");
  });

  test("a worker holding another key: what it sends does not open with the coordinator's", async () => {
    const m = memoryJob(jobFor("run-m", "true"));
    await host("w", FleetKey.of("a-worker-with-the-wrong-key-000000000", "t")).run(m.job);
    expect(m.sent).toEqual(["unverified"]);
  });
});

describe("only the attempt that holds the job delivers (ADR 0046)", () => {
  test("a result ready after the lease was lost is refused: the refusal is sent instead, and the worker says so", async () => {
    const m = memoryJob(jobFor("run-n", "true"), { leaseLost: true });
    expect(await host("w-lease").run(m.job)).toEqual({ kind: "lease-lost" });
    expect(m.sent.filter((s) => s !== "unverified" && s.kind === "result")).toEqual([]);
    expect(m.sent.at(-1)).toMatchObject({ kind: "refused", worker: "w-lease", attempt: 1, status: "passed" });
    expect(logged.some((l) => l.includes("w-lease") && l.includes("lost its lease"))).toBe(true);
  });

  test("told that another attempt took the job, the host stops its branch: its process is killed, nothing more is sent", async () => {
    const pidFile = join(dir.path, "lease-pid");
    const m = memoryJob(jobFor("run-o", `echo $$ > ${pidFile}.part; mv ${pidFile}.part ${pidFile}; exec sleep 29.9794`));
    const h = host("w-lost");
    const running = h.run(m.job);
    await appeared(pidFile);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    const before = m.sent.length;
    h.leaseLost(m.job.id);
    expect(await running).toEqual({ kind: "lease-lost" });
    expect(m.sent.length).toBe(before);
    expect(m.state.handedBack).toBe(0);
    // Stopped as a local stop stops it: SIGTERM to its group, SIGKILL after the grace (bounded wait).
    const gone = () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 200 && !gone(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(gone()).toBe(true);
  });
});
