// attempt.judged (ADR 0068): each judged attempt says what the model claimed beside
// the verdict, what that attempt alone spent, and which cause it is a retry of; and
// retry.max_cost stops a cause's retries at its share of the node's budget.
import { describe, expect, test } from "vitest";
import { ofType, run } from "./helpers/run-helper.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";

const judged = (events: Parameters<typeof ofType>[0]) =>
  ofType(events, "attempt.judged").map((e) => [e.node, e.attempt, e.claim ?? "-", e.status, e.cause, e.retry_of ?? "-", e.cost_usd]);

describe("what the model claimed", () => {
  test("claim: the value at the node's claim path, the verdict beside it, each attempt's own cost", async () => {
    let n = 0;
    const r = await run(
      `
version: 1
name: t
checks: { cites: { run: "true" } }
nodes:
  v:
    kind: agent
    prompt: p
    output: { format: json }
    claim: output.verdict
    success: { checks: [cites] }
    retry: { max: 2, on: [check_failed] }
`,
      {
        agents: () => ({ resultText: `{"verdict":"${++n === 3 ? "FALSE" : "VERIFIED"}"}`, costUsd: 0.1 * n, turns: n }),
        commands: new FakeCommandRunner(() => (n < 3 ? { passed: false, exit: 1, reason: "exit 1" } : {})),
      },
    );
    expect(judged(r.events)).toEqual([
      ["v", 1, "VERIFIED", "failed", "check_failed", "-", 0.1],
      ["v", 2, "VERIFIED", "failed", "check_failed", "check_failed", 0.2],
      ["v", 3, "FALSE", "passed", null, "check_failed", expect.closeTo(0.3, 9)],
    ]);
    // node.finished sums the attempts; attempt.judged keeps each one's own.
    expect(ofType(r.events, "node.finished")[0]!.cost_usd).toBeCloseTo(0.6, 9);
    // Each attempt.judged comes before its node.retrying or node.finished.
    const types = r.events.map((e) => e.type).filter((t) => t === "attempt.judged" || t === "node.retrying" || t === "node.finished");
    expect(types).toEqual(["attempt.judged", "node.retrying", "attempt.judged", "node.retrying", "attempt.judged", "node.finished"]);
  });

  test("result_matches: done or not done; no claim path: done when it completed; a cap stop claims nothing", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  said: { kind: agent, prompt: p, success: { result_matches: "ALL TESTS PASS" } }
  unsaid: { kind: agent, prompt: q, success: { result_matches: "ALL TESTS PASS" } }
  plain: { kind: agent, prompt: r }
  stopped: { kind: agent, prompt: s }
  missing: { kind: agent, prompt: t, output: { format: json }, claim: output.verdict }
`,
      {
        agents: (a) =>
          a.node === "said"
            ? { resultText: "ALL TESTS PASS" }
            : a.node === "unsaid"
              ? { resultText: "some fail" }
              : a.node === "stopped"
                ? { stopReason: "turns" }
                : a.node === "missing"
                  ? { resultText: '{"note":"no verdict here"}' }
                  : {},
      },
    );
    const claims = Object.fromEntries(ofType(r.events, "attempt.judged").map((e) => [e.node, [e.claim, e.status, e.qualifier]]));
    expect(claims).toEqual({
      said: ["done", "passed", "self-reported"],
      unsaid: ["not done", "failed", null],
      plain: ["done", "passed", "exit-only"],
      stopped: [null, "error", null],
      missing: [null, "passed", "exit-only"],
    });
  });

  test("a hostile claim is one bounded line; an object at the claim path is no claim", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  long: { kind: agent, prompt: p, output: { format: json }, claim: output.verdict }
  obj: { kind: agent, prompt: q, output: { format: json }, claim: output.verdict }
  proto: { kind: agent, prompt: r, output: { format: json }, claim: output.__proto__ }
`,
      {
        agents: (a) => ({
          resultText:
            a.node === "long"
              ? JSON.stringify({ verdict: `\u001b[31mVERI\nFIED${"x".repeat(500)}` })
              : a.node === "obj"
                ? '{"verdict":{"a":1}}'
                : '{"x":1}',
        }),
      },
    );
    const claims = Object.fromEntries(ofType(r.events, "attempt.judged").map((e) => [e.node, e.claim]));
    expect(claims.obj).toBeNull();
    expect(claims.proto).toBeNull();
    expect(claims.long).toMatch(/^\[31mVERI FIEDx+…$/);
    expect([...(claims.long as string)]).toHaveLength(60);
  });

  test("a script's attempts are judged without a claim; a usage-limited or unstarted attempt is not judged", async () => {
    const r = await run(
      `
version: 1
name: t
caps: { budget_usd: 0.05 }
nodes:
  s: { kind: script, run: "true" }
  a: { kind: agent, prompt: p, needs: [s], caps: { budget_usd: 1 } }
`,
      {},
    );
    const rows = ofType(r.events, "attempt.judged");
    expect(rows.map((e) => [e.node, e.kind, "claim" in e, e.cost_usd])).toEqual([["s", "script", false, 0]]);
    expect(ofType(r.events, "node.finished").find((e) => e.node === "a")?.cause).toBe("budget_insufficient");
  });
});

describe("retry.max_cost", () => {
  const graph = (maxCost: number) => `
version: 1
name: t
checks: { t1: { run: "true" }, t2: { run: "true" } }
nodes:
  fix:
    kind: agent
    prompt: p
    caps: { budget_usd: 1 }
    success: { checks: [t1, t2] }
    retry: { max: 4, on: [check_failed], max_cost: ${maxCost} }
`;

  test("a cause whose retries spent its share of the node's budget without progress stops, named on node.finished", async () => {
    // Budget 1 per sitting, 5 attempts allowed: a share of 0.25 is $1.25 of retries.
    const r = await run(graph(0.25), {
      agents: () => ({ costUsd: 0.5 }),
      commands: new FakeCommandRunner(() => ({ passed: false, exit: 1, reason: "exit 1" })),
    });
    expect(judged(r.events).map((j) => j[1])).toEqual([1, 2, 3, 4]); // retries 2..4 spent $1.50 ≥ $1.25
    const f = ofType(r.events, "node.finished")[0]!;
    expect([f.status, f.cause, f.attempt]).toEqual(["failed", "check_failed", 4]);
    expect(f.retry_stopped).toEqual({ cause: "check_failed", spent_usd: 1.5, limit_usd: 1.25 });
  });

  test("progress (fewer failed checks) starts the count again; without max_cost every retry is made", async () => {
    let n = 0;
    const failing = (spec: { name: string }) => (n <= 2 || spec.name === "t2" ? { passed: false, exit: 1, reason: "exit 1" } : {});
    const withProgress = await run(graph(0.25), {
      agents: () => (n++, { costUsd: 0.5 }),
      commands: new FakeCommandRunner(failing),
    });
    // Attempts 1-2 fail both checks, 3 fails one (progress: the count starts again), 4-5 fail one.
    expect(judged(withProgress.events).map((j) => j[1])).toEqual([1, 2, 3, 4, 5]);
    expect(ofType(withProgress.events, "node.finished")[0]!.retry_stopped).toBeUndefined();
    n = 0;
    const unlimited = await run(graph(1), {
      agents: () => ({ costUsd: 0.5 }),
      commands: new FakeCommandRunner(() => ({ passed: false, exit: 1, reason: "exit 1" })),
    });
    expect(judged(unlimited.events)).toHaveLength(5);
    expect(ofType(unlimited.events, "node.finished")[0]!.retry_stopped).toBeUndefined();
  });

  test("a retry whose cost the harness did not report adds nothing: the retries are all made", async () => {
    const r = await run(graph(0.01), {
      agents: () => ({ costUsd: null }),
      commands: new FakeCommandRunner(() => ({ passed: false, exit: 1, reason: "exit 1" })),
    });
    expect(judged(r.events)).toHaveLength(5);
    expect(ofType(r.events, "node.finished")[0]!.retry_stopped).toBeUndefined();
  });
});
