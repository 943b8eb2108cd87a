// Usage and rate limits (issue 16, ADR 0022) on the fake clock: a limited
// attempt is recorded (node.limited), never judged or counted against
// retry.max; no new sitting of that harness starts; other harnesses' work goes
// on; when nothing else can run the run pauses (exit 4) — or, with
// --wait-limits, waits on the clock to the reset and goes on.
import { describe, expect, test } from "vitest";
import { priorFromEvents, runGraph } from "../../src/engine/run.ts";
import type { Sitting } from "../../src/engine/ports.ts";
import { finishedOf, ofType, run, runFinished, setup } from "./helpers/run-helper.ts";
import { byNode } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";

const HOUR = 3_600_000;
const START = new FakeClock().now();
const limited = (resetsAt: number | undefined): Partial<Sitting> => ({
  stopReason: "rate_limited",
  resultText: "",
  turns: 0,
  costUsd: 0,
  exitCode: 1,
  error: "claude hit a usage or rate limit: You've hit your 5-hour limit",
  ...(resetsAt !== undefined ? { resetsAt } : {}),
});

// Two claude nodes (the second starts only after the first was limited) and a codex chain.
const graph = `
version: 1
name: limits
nodes:
  write: { kind: agent, harness: claude, prompt: "write", retry: { max: 1, on: [harness_error] } }
  review: { kind: agent, harness: claude, prompt: "review", needs: [lint] }
  lint: { kind: agent, harness: codex, prompt: "lint" }
  test: { kind: agent, harness: codex, prompt: "test", needs: [lint] }
`;

describe("a usage limit pauses the run", () => {
  test("the limited node is held, the other harness's work goes on, the run ends paused (exit 4) naming the reset", async () => {
    const resets = START + 3 * HOUR;
    const r = await run(graph, { agents: byNode({ write: [limited(resets)] }) });
    expect(r.outcome).toMatchObject({ status: "paused", exitCode: 4, reason: "rate_limited" });
    // codex's work went on; review (claude) never started a sitting while claude was limited.
    expect(finishedOf(r.events, "lint").status).toBe("passed");
    expect(finishedOf(r.events, "test").status).toBe("passed");
    expect(r.agents.assignments.map((a) => a.node).sort()).toEqual(["lint", "test", "write"]);
    // The limited attempt: recorded, not judged, not retried (retry.on harness_error, max 1: one sitting only).
    expect(ofType(r.events, "node.limited")).toEqual([
      expect.objectContaining({ node: "write", attempt: 1, harness: "claude", resets_at: new Date(resets).toISOString() }),
    ]);
    expect(ofType(r.events, "node.retrying")).toEqual([]);
    expect(
      ofType(r.events, "node.finished")
        .map((e) => e.node)
        .sort(),
    ).toEqual(["lint", "test"]);
    const paused = ofType(r.events, "run.paused")[0]!;
    expect(paused).toMatchObject({ reason: "rate_limited", harness: "claude", resets_at: new Date(resets).toISOString(), approvals: [] });
    expect(paused.limited!.map((l) => l.node).sort()).toEqual(["review", "write"]);
    expect(runFinished(r.events)).toMatchObject({ status: "paused", exit_code: 4, reason: "rate_limited" });
    expect(r.outcome.counts).toMatchObject({ passed: 2, error: 0, failed: 0 });
  });

  test("resume after the reset runs the limited nodes again, not what passed", async () => {
    const first = await run(graph, { agents: byNode({ write: [limited(START + HOUR)] }) });
    const second = await run(graph, { options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.assignments.map((a) => a.node).sort()).toEqual(["review", "write"]);
    expect(second.outcome).toMatchObject({ status: "passed", exitCode: 0 });
    expect(second.outcome.counts.passed).toBe(4);
  });
});

describe("--wait-limits", () => {
  test("waits on the clock to the reset, then goes on; the retry counter is untouched", async () => {
    const resets = START + 3 * HOUR;
    // write: limited, then a crash (the one retry harness_error allows), then a pass.
    const agents = byNode({ write: [limited(resets), { stopReason: "crashed", error: "boom" }, {}] });
    const r = await run(graph, { agents, options: { waitLimits: true } });
    expect(r.outcome).toMatchObject({ status: "passed", exitCode: 0 });
    const waiting = ofType(r.events, "run.waiting");
    expect(waiting).toEqual([
      expect.objectContaining({
        reason: "rate_limited",
        harness: "claude",
        resets_at: new Date(resets).toISOString(),
        until: new Date(resets).toISOString(),
      }),
    ]);
    // lint and test ran before the wait: the wait began only when nothing else could run.
    expect(waiting[0]!.wait_ms).toBe(3 * HOUR);
    expect(r.clock.now()).toBeGreaterThanOrEqual(resets);
    const w = finishedOf(r.events, "write");
    expect([w.status, w.attempt]).toEqual(["passed", 3]);
    // One retry spent (attempt 2's crash); the limited attempt 1 spent none.
    expect(ofType(r.events, "node.retrying").map((e) => [e.node, e.attempt])).toEqual([["write", 2]]);
    const writes = r.agents.assignments.filter((a) => a.node === "write");
    expect(writes.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // No sitting of claude started before the reset.
    const order = r.events.filter((e) => e.type === "node.started" && (e.node === "review" || (e.node === "write" && e.attempt === 2)));
    for (const e of order) expect(Date.parse(e.t)).toBeGreaterThanOrEqual(resets);
  });

  test("an unknown reset waits vouch's backoff: 1 min, then 2 min for the next limit in a row", async () => {
    const agents = byNode({ write: [limited(undefined), limited(undefined), {}] });
    const r = await run(graph, { agents, options: { waitLimits: true } });
    expect(r.outcome.status).toBe("passed");
    expect(ofType(r.events, "run.waiting").map((e) => [e.resets_at, e.wait_ms])).toEqual([
      [null, 60_000],
      [null, 120_000],
    ]);
  });

  test("a reset further off than --max-wait is not waited for: the run pauses", async () => {
    const agents = byNode({ write: [limited(START + 10 * HOUR)] });
    const r = await run(graph, { agents, options: { waitLimits: true, maxWaitMs: 2 * HOUR } });
    expect(r.outcome).toMatchObject({ status: "paused", exitCode: 4, reason: "rate_limited" });
    expect(ofType(r.events, "run.waiting")).toEqual([]);
  });

  test("the run wall cap still applies during the wait: error run_wall, nothing waits on", async () => {
    const agents = byNode({ write: [limited(START + 3 * HOUR), {}] });
    const r = await run(graph, { agents, options: { waitLimits: true, wallMs: HOUR } });
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3, reason: "wall" });
    expect(finishedOf(r.events, "write")).toMatchObject({ status: "error", cause: "run_wall" });
    expect(r.agents.assignments.filter((a) => a.node === "write")).toHaveLength(1);
    expect(r.clock.now()).toBeLessThan(START + 3 * HOUR);
  });

  test("Ctrl-C during the wait leaves an interrupted, resumable run", async () => {
    const ctl = new AbortController();
    const x = setup(graph, { agents: byNode({ write: [limited(START + 3 * HOUR)] }), options: { waitLimits: true, signal: ctl.signal } });
    const done = runGraph(x.options);
    // Wait for the run.waiting event, then interrupt.
    while (!x.ledger.events.some((e) => e.type === "run.waiting")) await new Promise((r) => setImmediate(r));
    ctl.abort();
    const outcome = await x.clock.drive(done);
    expect(outcome).toMatchObject({ status: "interrupted", exitCode: 130 });
    expect(finishedOf(x.ledger.events, "write").status).toBe("cancelled");
    const again = await run(graph, { options: { resume: priorFromEvents(x.ledger.events) } });
    expect(again.agents.assignments.map((a) => a.node).sort()).toEqual(["review", "write"]);
    expect(again.outcome.status).toBe("passed");
  });
});

describe("inside a map", () => {
  test("a limited branch node is held; the other branches' work goes on; the run pauses and resume runs only the held branch", async () => {
    const mapGraph = `
version: 1
name: limits-map
inputs: { items: { default: [a, b, c] } }
nodes:
  each:
    kind: map
    over: inputs.items
    branch:
      work: { kind: agent, harness: claude, prompt: "work {{ item }}" }
`;
    const agents = (a: { node: string; prompt: string }) => (a.prompt === "work b" ? limited(START + HOUR) : {});
    const first = await run(mapGraph, { agents });
    expect(first.outcome).toMatchObject({ status: "paused", exitCode: 4, reason: "rate_limited" });
    expect(ofType(first.events, "node.limited").map((e) => e.branch?.index)).toEqual([1]);
    const paused = ofType(first.events, "run.paused")[0]!;
    expect(paused.limited).toEqual([
      { node: "work", branch: { map: "each", index: 1 }, harness: "claude", resets_at: new Date(START + HOUR).toISOString() },
    ]);
    const second = await run(mapGraph, { options: { resume: priorFromEvents(first.events) } });
    expect(second.agents.prompts("work")).toEqual(["work b"]);
    expect(second.outcome.status).toBe("passed");
  });
});
