// runSummary (what `vouch show` prints): nodes in graph order, branches under
// their map, attempts, every check tail and overrun, sessions of a resumed run.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { openLedger, type RunLedger } from "../../src/ledger/index.ts";
import { fullRun, RunScript, T0 } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

let t: ReturnType<typeof tempHome>;
let ledger: RunLedger;
let now = T0;
beforeEach(() => {
  t = tempHome();
  ledger = openLedger({ home: t.home, now: () => now });
});
afterEach(() => {
  ledger.close();
  t.cleanup();
});

describe("a finished run", () => {
  test("carries every check.finished and every cap.overrun the events carried, tails included", () => {
    const run = fullRun();
    ledger.write(run.events);
    const s = ledger.runSummary(run.run);
    const checks = [...s.nodes, ...s.branches.flatMap((b) => b.nodes)].flatMap((n) => n.attempts.flatMap((a) => a.checks));
    const emitted = run.events.filter((e): e is EventOf<"check.finished"> => e.type === "check.finished");
    expect(checks.map((c) => c.seq).sort()).toEqual(emitted.map((e) => e.seq).sort());
    for (const e of emitted) {
      const c = checks.find((x) => x.seq === e.seq)!;
      expect(c.stdout_tail).toBe(e.stdout_tail);
      expect(c.stderr_tail).toBe(e.stderr_tail);
      expect(c).toMatchObject({ name: e.name, passed: e.passed, exit: e.exit, attempt: e.attempt });
    }
    const overruns = [
      ...s.overruns,
      ...[...s.nodes, ...s.branches.flatMap((b) => b.nodes)].flatMap((n) => n.attempts.flatMap((a) => a.overruns)),
    ];
    const emittedOverruns = run.events.filter((e) => e.type === "cap.overrun");
    expect(overruns.map((o) => o.seq).sort()).toEqual(emittedOverruns.map((e) => e.seq).sort());
    expect(s.overruns).toEqual([expect.objectContaining({ scope: "run", cap: "budget_usd", limit: 0.05, actual: 0.07 })]);
  });

  test("nodes come in graph order with status, qualifier, cause, attempts; branches under their map with verdicts", () => {
    ledger.write(fullRun().events);
    const s = ledger.runSummary("r-full-0001");
    expect(s.nodes.map((n) => [n.node, n.status, n.qualifier, n.cause, n.attempts.length])).toEqual([
      ["build", "passed", "verified", null, 2],
      ["review", "passed", "self-reported", null, 1],
      ["each", "failed", null, "map_failed", 1],
      ["done", "not started", null, null, 0],
    ]);
    expect(s.nodes[0]!.attempts[0]).toMatchObject({
      status: "failed",
      retry_cause: "check_failed",
      retry_reason: "check tests failed: exit 1",
    });
    expect(s.nodes[0]!.output).toEqual({ artifacts: 3 });
    expect(s.nodes[1]!.attempts[0]!.tokens).toEqual({ input: 10, output: 40, cache_read: 9000, cache_creation: 5 });
    expect(s.branches.map((b) => [b.map, b.index, b.label, b.status, b.verdict, b.nodes.map((n) => `${n.node}:${n.status}`)])).toEqual([
      ["each", 0, "F-0", "passed", "CONFIRMED", ["verify:passed"]],
      ["each", 1, "F-1", "failed", "REFUTED", ["verify:failed"]],
    ]);
    expect(s.branches[1]!.item).toEqual({ id: "F-1" });
    expect(s.run).toMatchObject({
      status: "failed",
      exit_code: 1,
      cost_usd: 0.07,
      cost_unknown: 1,
      counts: { passed: 2, failed: 1, error: 0, skipped: 1, cancelled: 0 },
      output: { verdicts: [] },
      inputs: { topic: "x" },
      caps: { budget_usd: 5, wall_ms: null },
      graph_digest: "sha256:aaaa",
    });
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]!.paused).toEqual([{ node: "gate", prompt: "ship it?" }]);
  });
});

describe("a resumed run", () => {
  function crashedThenResumed(): { first: RunScript; second: RunScript } {
    const first = new RunScript("r-resumed");
    first.started();
    first.nodeStarted({ node: "build" }, "script");
    first.finished({ node: "build" }, "passed", { cost_usd: 0 });
    first.nodeStarted({ node: "review" }, "agent");
    first.ev("node.progress", { node: "review", attempt: 1, cost_usd: 0.03 });
    // kill -9 here: no run.finished
    const second = new RunScript("r-resumed", first.seq);
    second.clock = first.clock + 60_000;
    second.started({ resumed: true, graph_digest: "sha256:bbbb" });
    second.nodeStarted({ node: "review" }, "agent");
    second.finished({ node: "review" }, "passed", { qualifier: "self-reported", cost_usd: 0.04 });
    second.runFinished("passed", { cost_usd: 0.04, wall_ms: 5000 });
    return { first, second };
  }

  test("sessions: the crashed one abandoned, the resume passed; a kept node keeps its first-session result", () => {
    const { first, second } = crashedThenResumed();
    ledger.write(first.events);
    // The killed sitting had already spent 0.03 (its last node.progress): that counts.
    expect(ledger.listRuns()[0]).toMatchObject({ status: "abandoned", cost_usd: 0.03, sessions: 1 });
    ledger.write(second.events);
    const s = ledger.runSummary("r-resumed");
    expect(s.sessions.map((x) => [x.session, x.resumed, x.status, x.graph_digest])).toEqual([
      [1, false, "abandoned", "sha256:aaaa"],
      [2, true, "passed", "sha256:bbbb"],
    ]);
    expect(s.run).toMatchObject({ status: "passed", exit_code: 0, sessions: 2, graph_digest: "sha256:bbbb" });
    const build = s.nodes.find((n) => n.node === "build")!;
    expect(build.status).toBe("passed");
    expect(build.attempts.map((a) => a.session)).toEqual([1]);
    const review = s.nodes.find((n) => n.node === "review")!;
    expect(review.attempts.map((a) => [a.session, a.status])).toEqual([
      [1, null],
      [2, "passed"],
    ]);
    expect(review.status).toBe("passed");
    // Wall: the abandoned session up to its last event, plus the resume's own.
    expect(s.run.wall_ms).toBe(first.clock - 100 + 5000);
    // Cost: what the abandoned session spent (finished nodes and live progress), plus the resume's run.finished.
    expect(s.run.cost_usd).toBeCloseTo(0.04 + 0.03, 10);
    expect(ledger.lastSeq("r-resumed")).toBe(second.seq - 1);
    expect(ledger.runEvents("r-resumed").map((e) => e.seq)).toEqual(Array.from({ length: second.seq }, (_, i) => i));
  });

  test("an abandoned session counts what every attempt spent, not only the attempt it died in", () => {
    const s = new RunScript("r-retry-killed");
    s.started();
    s.nodeStarted({ node: "review" }, "agent");
    s.ev("node.progress", { node: "review", attempt: 1, turns: 3, cost_usd: 0.25 });
    s.ev("node.retrying", { node: "review", attempt: 1, cause: "output_invalid", reason: "output is not JSON", backoff_ms: 0 });
    s.nodeStarted({ node: "review" }, "agent", 2);
    s.ev("node.progress", { node: "review", attempt: 2, turns: 1, cost_usd: 0.01 });
    // kill -9 here: attempt 1's $0.25 was spent all the same
    ledger.write(s.events);
    expect(ledger.listRuns()[0]!.cost_usd).toBeCloseTo(0.26, 10);
    const dead = new RunScript("r-retry-killed-2");
    dead.started();
    dead.nodeStarted({ node: "review" }, "agent");
    dead.ev("node.progress", { node: "review", attempt: 1, cost_usd: 0.25 });
    dead.ev("node.retrying", { node: "review", attempt: 1, cause: "output_invalid", reason: "output is not JSON", backoff_ms: 0 });
    dead.nodeStarted({ node: "review" }, "agent", 2);
    // killed before attempt 2 reported anything
    ledger.write(dead.events);
    expect(ledger.runSummary("r-retry-killed-2").run.cost_usd).toBeCloseTo(0.25, 10);
  });

  test("a node whose attempt never finished shows `unfinished` once the run is abandoned", () => {
    ledger.write(crashedThenResumed().first.events);
    const s = ledger.runSummary("r-resumed");
    expect(s.run.status).toBe("abandoned");
    expect(s.nodes.map((n) => `${n.node}:${n.status}`)).toEqual([
      "build:passed",
      "review:unfinished",
      "each:not started",
      "done:not started",
    ]);
  });

  test("the wall of an unfinished session without a live lock stops at its last event, not at now", () => {
    const { first } = crashedThenResumed();
    ledger.write(first.events);
    now = T0 + 10_000_000;
    expect(ledger.listRuns()[0]!.wall_ms).toBe(first.clock - 100);
  });
});

describe("unknown run", () => {
  test("is a usage error (exit 2) naming the ledger file", () => {
    expect(() => ledger.runSummary("nope")).toThrow(`no run nope in ${ledger.file}`);
  });
});

describe("API retries", () => {
  test("each attempt keeps the count of its last node.progress; show adds them up in the node's detail", async () => {
    const s = new RunScript("r-retry-0001");
    s.started({ nodes: [{ id: "ask", kind: "agent", needs: [] }] });
    s.nodeStarted({ node: "ask" }, "agent");
    s.ev("node.progress", { node: "ask", attempt: 1, turns: 0, api_retries: 1, activity: "API retry 1/10, 429" });
    s.ev("node.progress", { node: "ask", attempt: 1, turns: 0, api_retries: 2, activity: "API retry 2/10, 429" });
    // A later progress without the field keeps the count.
    s.ev("node.progress", { node: "ask", attempt: 1, turns: 1, activity: "Hello" });
    s.finished({ node: "ask" }, "error", { cause: "harness_error", stop_reason: "crashed", api_retries: 2 });
    ledger.write(s.events);
    const summary = ledger.runSummary("r-retry-0001");
    const ask = summary.nodes.find((n) => n.node === "ask")!;
    expect(ask.attempts.map((a) => a.api_retries)).toEqual([2]);
    const { renderShow } = await import("../../src/ledger/render-show.ts");
    expect(renderShow(summary)).toContain("2 API retries");
  });
});
