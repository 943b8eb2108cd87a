// Retries by cause with the failure quoted, backoff, fallback, feedback loops.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";
import { byNode, FakeAgentRunner, FakeCommandRunner } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";

describe("retry", () => {
  const graph = `
version: 1
name: t
nodes:
  parse:
    kind: agent
    prompt: "Extract the findings."
    output: { format: json, schema: { type: object, required: [findings], properties: { findings: { type: array } } } }
    retry: { max: 2, on: [output_invalid], backoff: 30s }
`;

  test("output_invalid is retried with the validator's reason quoted into the next prompt, after the backoff", async () => {
    const clock = new FakeClock();
    const startedAt: number[] = [];
    const agents = new FakeAgentRunner((a) => {
      startedAt.push(clock.now());
      return a.attempt === 1 ? { resultText: '{"items": []}' } : { resultText: '{"findings": [{"id": 1}]}' };
    });
    const r = await run(graph, { agents, clock });
    expect(r.outcome.status).toBe("passed");
    const [first, second] = agents.prompts("parse");
    expect(first).toBe("Extract the findings.");
    expect(second!.startsWith("Extract the findings.\n\n---\nYour previous attempt (attempt 1) did not pass.")).toBe(true);
    expect(second).toContain("cause: output_invalid");
    expect(second).toContain("must have required property 'findings'");
    expect(startedAt[1]! - startedAt[0]!).toBe(30_000); // virtual time: no real waiting
    const retrying = ofType(r.events, "node.retrying");
    expect(retrying).toHaveLength(1);
    expect(retrying[0]).toMatchObject({ node: "parse", attempt: 1, cause: "output_invalid", backoff_ms: 30_000 });
    expect(retrying[0]!.reason).toContain("must have required property 'findings'");
    // The one-line why, for the outputs (the quoted reason is the whole message to the model).
    expect(retrying[0]!.error).toMatch(/^output does not match the schema: .*must have required property 'findings'/);
    expect(retrying[0]!.error).not.toContain("\n");
    expect(ofType(r.events, "node.started").map((e) => e.attempt)).toEqual([1, 2]);
    expect(finishedOf(r.events, "parse")).toMatchObject({ attempt: 2, status: "passed", qualifier: "exit-only", cost_usd: 0.02, turns: 2 });
  });

  test("a run stopped during the backoff keeps the API retries the attempts made", async () => {
    const clock = new FakeClock();
    const agents = new FakeAgentRunner(() => ({ resultText: '{"items": []}', apiRetries: 3 }));
    const r = await run(graph, { agents, clock, options: { wallMs: 10_000 } });
    expect(agents.assignments).toHaveLength(1); // the wall cut the 30 s backoff
    expect(finishedOf(r.events, "parse")).toMatchObject({ status: "error", api_retries: 3 });
  });

  test("a cause not listed in `on` is not retried", async () => {
    const agents = new FakeAgentRunner(() => ({ exitCode: 2 }));
    const r = await run(graph, { agents });
    expect(agents.assignments).toHaveLength(1);
    expect(finishedOf(r.events, "parse")).toMatchObject({ status: "failed", cause: "nonzero_exit", attempt: 1 });
  });

  test("retries stop at max (max 2 → 3 attempts) and the node ends with the last failure", async () => {
    const agents = new FakeAgentRunner(() => ({ resultText: "no json here" }));
    const r = await run(graph, { agents });
    expect(agents.assignments.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(ofType(r.events, "node.retrying").map((e) => e.attempt)).toEqual([1, 2]);
    expect(finishedOf(r.events, "parse")).toMatchObject({ status: "failed", cause: "output_invalid", attempt: 3 });
    expect(r.outcome).toMatchObject({ status: "failed", exitCode: 1 });
  });

  test("a retried check failure quotes every failed check with its tail", async () => {
    const commands = new FakeCommandRunner((spec, ctx) =>
      ctx.attempt === 1 && spec.name !== "fmt" ? { passed: false, exit: 1, stdoutTail: `${spec.name}: 3 errors\nline 12: boom` } : {},
    );
    const r = await run(
      `
version: 1
name: t
checks: { tests: { run: "bun test" }, lint: { run: "bun run lint" }, fmt: { run: "gofmt -l .", expect: empty_output } }
nodes:
  fix: { kind: agent, prompt: "Fix it.", success: { checks: [tests, lint, fmt] }, retry: { max: 1 } }
`,
      { commands },
    );
    const second = r.agents.prompts("fix")[1]!;
    expect(second).toContain("- tests: exit 1");
    expect(second).toContain("- lint: exit 1");
    expect(second).not.toContain("- fmt");
    expect(second).toContain("line 12: boom");
    expect(finishedOf(r.events, "fix")).toMatchObject({ status: "passed", qualifier: "verified", attempt: 2 });
  });
});

describe("fallback", () => {
  test("after the retries are exhausted the fallback runs once; the failed node keeps its status and its dependents are skipped", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  parse:
    kind: agent
    prompt: "p"
    output: { format: json }
    retry: { max: 1, on: [output_invalid] }
    fallback: parse_fault
  parse_fault:
    kind: end
    status: error
    output: { verdicts: [{ id: PIPELINE-FAULT, note: "{{ nodes.parse.error }}" }] }
  verify: { kind: agent, prompt: "v", needs: [parse] }
  done: { kind: end, needs: [verify], output: { ok: true } }
`,
      { agents: byNode({ parse: [{ resultText: "nope" }] }) },
    );
    expect(r.agents.prompts("parse")).toHaveLength(2);
    expect(finishedOf(r.events, "parse")).toMatchObject({ status: "failed", cause: "output_invalid", fallback: "parse_fault" });
    expect(finishedOf(r.events, "verify")).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(finishedOf(r.events, "done")).toMatchObject({ status: "skipped" });
    const fault = finishedOf(r.events, "parse_fault");
    expect(fault).toMatchObject({ status: "error", cause: "end_error" });
    expect((fault.output as { verdicts: { note: string }[] }).verdicts[0]!.note).toContain("output is not JSON");
    // The end node that ran decides: error, with its output.
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3 });
    expect(r.outcome.output).toEqual(fault.output);
    const order = r.events
      .filter((e) => e.type === "node.finished" || e.type === "node.started")
      .map((e) => `${e.type}:${(e as { node: string }).node}`);
    expect(order.indexOf("node.finished:parse")).toBeLessThan(order.indexOf("node.started:parse_fault"));
  });

  test("an unused fallback is skipped fallback_unused and does not decide the run", async () => {
    const r = await run(`
version: 1
name: t
nodes:
  parse: { kind: agent, prompt: "p", fallback: parse_fault }
  parse_fault: { kind: end, status: error }
`);
    expect(finishedOf(r.events, "parse_fault")).toMatchObject({ status: "skipped", cause: "fallback_unused", attempt: 0 });
    expect(r.outcome.status).toBe("passed");
  });
});

describe("feedback loops", () => {
  const graph = (max: number) => `
version: 1
name: t
checks: { tests: { run: "bun test" } }
nodes:
  implement: { kind: agent, prompt: "Implement the change." }
  verify: { kind: script, run: "bun test", needs: [implement], feedback: { to: implement, max: ${max} } }
  ship: { kind: agent, prompt: "ship", needs: [verify] }
`;

  test("a failing node sends its failure back to the ancestor; the chain re-runs until it passes", async () => {
    let runs = 0;
    const commands = new FakeCommandRunner(undefined, () =>
      ++runs < 3 ? { exit: 1, stderrTail: `2 tests failed (round ${runs})` } : { stdoutTail: "ok" },
    );
    const r = await run(graph(3), { commands });
    const prompts = r.agents.prompts("implement");
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toBe("Implement the change.");
    expect(prompts[1]).toContain("Feedback from verify after round 1 (status failed)");
    expect(prompts[1]).toContain("2 tests failed (round 1)");
    expect(prompts[2]).toContain("2 tests failed (round 2)");
    const rounds = ofType(r.events, "node.started")
      .filter((e) => e.node === "implement")
      .map((e) => e.round);
    expect(rounds).toEqual([1, 2, 3]);
    // The sitting is told its round too (attempts restart each round; replay fixtures are keyed by round).
    expect(r.agents.assignments.filter((a) => a.node === "implement").map((a) => [a.round, a.attempt])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    // ship waited for the loop to settle: it ran once, after the passing round.
    expect(r.agents.prompts("ship")).toHaveLength(1);
    expect(
      ofType(r.events, "node.finished")
        .filter((e) => e.node === "verify")
        .map((e) => e.status),
    ).toEqual(["failed", "failed", "passed"]);
    // node.finished says its round too, so a reader can tell round 2's attempt 1 from round 1's.
    expect(
      ofType(r.events, "node.finished")
        .filter((e) => e.node === "verify")
        .map((e) => e.round),
    ).toEqual([1, 2, 3]);
    expect(
      ofType(r.events, "node.finished")
        .filter((e) => e.node === "implement")
        .map((e) => e.round),
    ).toEqual([1, 2, 3]);
    expect(ofType(r.events, "node.finished").find((e) => e.node === "ship")!.round).toBeUndefined();
    expect(r.outcome.status).toBe("passed");
    expect(r.outcome.counts).toEqual({ passed: 3, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 });
  });

  test("the loop is bounded by max: after max rounds the failure stands", async () => {
    const commands = new FakeCommandRunner(undefined, () => ({ exit: 1 }));
    const r = await run(graph(2), { commands });
    expect(r.agents.prompts("implement")).toHaveLength(3); // first pass + 2 rounds
    expect(commands.scripts).toHaveLength(3);
    expect(finishedOf(r.events, "verify")).toMatchObject({ status: "failed", cause: "nonzero_exit" });
    expect(finishedOf(r.events, "ship")).toMatchObject({ status: "skipped" });
    expect(r.outcome.status).toBe("failed");
  });

  test("feedback `when` can loop on a passing node's output, and the head sees it quoted", async () => {
    const agents = new FakeAgentRunner((a) => {
      if (a.node === "review")
        return { resultText: a.prompt.includes("v2") ? '{"verdict":"clean"}' : '{"verdict":"changes","notes":"rename x"}' };
      return { resultText: a.prompt.includes("rename x") ? "v2" : "v1" };
    });
    const r = await run(
      `
version: 1
name: t
nodes:
  draft: { kind: agent, prompt: "Draft it." }
  review:
    kind: agent
    prompt: "Review {{ nodes.draft.output }}"
    needs: [draft]
    output: { format: json }
    feedback: { to: draft, max: 3, when: { nodes.review.output.verdict: changes } }
`,
      { agents },
    );
    expect(agents.prompts("draft")).toHaveLength(2);
    expect(agents.prompts("draft")[1]).toContain('"notes":"rename x"');
    expect(finishedOf(r.events, "review").output).toEqual({ verdict: "clean" });
    expect(r.outcome.status).toBe("passed");
  });
});
