// runGraph end to end with fakes: events, skips, routers, ends, templates,
// inputs, refusals, and what commands receive.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run, runFinished, setup } from "./helpers/run-helper.ts";
import { FakeAgentRunner, FakeCommandRunner, byNode } from "./helpers/fakes.ts";
import { planRun, runGraph } from "../../src/engine/run.ts";
import type { AgentPlan } from "../../src/engine/ports.ts";
import { InputError, PortNotProvidedError, RefusalError } from "../../src/engine/errors.ts";

describe("events", () => {
  test("every node that runs gets node.started and node.finished; run.started first, run.finished last", async () => {
    const r = await run(`
version: 1
name: t
nodes:
  a: { kind: agent, prompt: "A" }
  s: { kind: script, run: "echo hi", needs: [a] }
  r: { kind: router, needs: [s], routes: [{ when: { nodes.s.status: passed }, to: [e] }] }
  e: { kind: end, output: { ok: true } }
`);
    const types = r.events.map((e) => e.type);
    expect(types[0]).toBe("run.started");
    expect(types[types.length - 1]).toBe("run.finished");
    for (const id of ["a", "s", "r", "e"]) {
      expect(ofType(r.events, "node.started").filter((e) => e.node === id)).toHaveLength(1);
      expect(ofType(r.events, "node.finished").filter((e) => e.node === id)).toHaveLength(1);
    }
    const started = ofType(r.events, "run.started")[0]!;
    expect(started.nodes.map((n) => n.id)).toEqual(["a", "s", "r", "e"]);
    expect(started.resumed).toBe(false);
    expect(r.outcome).toMatchObject({ status: "passed", exitCode: 0, output: { ok: true } });
    expect(runFinished(r.events).counts).toEqual({ passed: 4, self_reported: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 });
  });

  test("a wrong event fails the run loudly (the checking ledger is not a no-op)", async () => {
    const x = setup(`
version: 1
name: t
nodes: { a: { kind: agent, prompt: "A" } }
`);
    // A sitting reporting negative turns makes node.finished invalid (turns >= 0).
    const agents = new FakeAgentRunner(() => ({ turns: -1 }));
    await expect(x.clock.drive(runGraph({ ...x.options, ports: { ...x.options.ports, agents } }))).rejects.toThrow(
      /invalid attempt.judged event/, // the first event that carries the sitting's turns
    );
  });

  test("costs: run cost sums known sittings; unknown costs are counted, never invented as 0", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  a: { kind: agent, prompt: "A" }
  b: { kind: agent, prompt: "B" }
`,
      { agents: byNode({ a: [{ costUsd: 0.25 }], b: [{ costUsd: null }] }) },
    );
    expect(runFinished(r.events)).toMatchObject({ cost_usd: 0.25, cost_unknown: 1 });
    expect(finishedOf(r.events, "b").cost_usd).toBeNull();
  });
});

describe("skips, routers, joins, ends", () => {
  test("when false → skipped condition_false, and what only it leads to → upstream_not_passed", async () => {
    const r = await run(
      `
version: 1
name: t
inputs: { mode: { default: quick } }
nodes:
  deep: { kind: agent, prompt: "deep", when: { inputs.mode: thorough } }
  after: { kind: agent, prompt: "after", needs: [deep] }
  quick: { kind: agent, prompt: "quick", when: { inputs.mode: quick } }
`,
    );
    expect(finishedOf(r.events, "deep")).toMatchObject({ status: "skipped", cause: "condition_false", attempt: 0 });
    expect(finishedOf(r.events, "after")).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(finishedOf(r.events, "quick").status).toBe("passed");
    expect(ofType(r.events, "node.started").map((e) => e.node)).toEqual(["quick"]); // skipped nodes never start
    expect(r.agents.assignments.map((a) => a.node)).toEqual(["quick"]);
    expect(r.outcome.status).toBe("passed");
  });

  test("a router runs one side; the other is not_chosen; a join after both runs", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  triage: { kind: agent, prompt: "triage", output: { format: json } }
  route:
    kind: router
    needs: [triage]
    routes:
      - { when: { nodes.triage.output.size: small }, to: [quick_fix] }
      - { when: { nodes.triage.output.size: { in: [large, huge] } }, to: [big_fix] }
    default: [big_fix]
  quick_fix: { kind: agent, prompt: "quick" }
  big_fix: { kind: agent, prompt: "big" }
  big_followup: { kind: agent, prompt: "more", needs: [big_fix] }
  report: { kind: agent, prompt: "report", needs: [quick_fix, big_fix] }
`,
      { agents: byNode({ triage: [{ resultText: '{"size":"small"}' }] }) },
    );
    expect(finishedOf(r.events, "route").output).toEqual({ route: 0, to: ["quick_fix"] });
    expect(finishedOf(r.events, "route").qualifier).toBeNull();
    expect(finishedOf(r.events, "quick_fix").status).toBe("passed");
    expect(finishedOf(r.events, "big_fix")).toMatchObject({ status: "skipped", cause: "not_chosen" });
    expect(finishedOf(r.events, "big_followup")).toMatchObject({ status: "skipped", cause: "upstream_not_passed" });
    expect(finishedOf(r.events, "report").status).toBe("passed");
    expect(r.agents.assignments.map((a) => a.node).sort()).toEqual(["quick_fix", "report", "triage"]);
    expect(r.outcome.status).toBe("passed");
  });

  test("the end node that ran decides the run's status and output", async () => {
    const yaml = (status: string) => `
version: 1
name: t
nodes:
  work: { kind: agent, prompt: "w", output: { format: json } }
  done: { kind: end, needs: [work], status: ${status}, output: { sentinel: RESULTS, found: "{{ nodes.work.output.found }}" } }
`;
    const agents = () => byNode({ work: [{ resultText: '{"found": [1, 2]}' }] });
    const ok = await run(yaml("success"), { agents: agents() });
    expect(ok.outcome).toMatchObject({ status: "passed", exitCode: 0, output: { sentinel: "RESULTS", found: [1, 2] } });
    const bad = await run(yaml("failure"), { agents: agents() });
    expect(bad.outcome).toMatchObject({ status: "failed", exitCode: 1 });
    expect(finishedOf(bad.events, "done")).toMatchObject({ status: "failed", cause: "end_failure" });
    const err = await run(yaml("error"), { agents: agents() });
    expect(err.outcome).toMatchObject({ status: "error", exitCode: 3 });
  });

  test("a missing template key at run time is a template_error, never an empty string", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  parse: { kind: agent, prompt: "p", output: { format: json } }
  use: { kind: agent, prompt: "Fix {{ nodes.parse.output.file }} now", needs: [parse] }
`,
      { agents: byNode({ parse: [{ resultText: '{"other": 1}' }] }) },
    );
    expect(finishedOf(r.events, "use")).toMatchObject({ status: "error", cause: "template_error", attempt: 1 });
    expect(finishedOf(r.events, "use").error).toContain("nodes.parse.output.file");
    expect(r.agents.assignments.map((a) => a.node)).toEqual(["parse"]); // nothing was started with a hole in its prompt
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3 });
  });
});

describe("before anything starts", () => {
  const yaml = `
version: 1
name: t
inputs: { findings: { required: true } }
nodes:
  parse: { kind: agent, prompt: "{{ inputs.findings }}", caps: { turns: 3, budget_usd: 0.2 } }
  each:
    kind: map
    over: nodes.parse.output
    branch:
      verify: { kind: agent, prompt: "v", harness: codex, caps: { idle: 30s } }
`;
  test("a missing required input is an InputError: no event, no process", async () => {
    const x = setup(yaml);
    await expect(runGraph(x.options)).rejects.toBeInstanceOf(InputError);
    expect(x.ledger.count).toBe(0);
    expect(x.agents.assignments).toHaveLength(0);
  });

  test("refuse() is asked for every agent node, branch nodes included; a refusal throws RefusalError before any event", async () => {
    const agents = new FakeAgentRunner(undefined, (plan) =>
      plan.harness === "codex" && plan.caps.idleMs !== undefined
        ? [{ harness: "codex", field: "caps.idle", message: "codex cannot keep an idle cap" }]
        : [],
    );
    const x = setup(yaml, { agents, inputs: { findings: "x" } });
    const err = await runGraph(x.options).catch((e) => e);
    expect(err).toBeInstanceOf(RefusalError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain("node verify: codex cannot keep an idle cap");
    expect(agents.plans.map((p) => p.node)).toEqual(["parse", "verify"]);
    expect(agents.plans[0]).toMatchObject({ harness: "claude", caps: { turns: 3, budgetUsd: 0.2 }, cwd: "/work/project" });
    expect(x.ledger.count).toBe(0);
    expect(agents.assignments).toHaveLength(0);
  });

  test("--harness overrides every agent node; planRun reports order, caps and refusals and starts nothing", () => {
    const agents = new FakeAgentRunner();
    const x = setup(yaml, { agents, inputs: { findings: "x" }, options: { harness: "replay", budgetUsd: 3 } });
    const plan = planRun(x.options);
    expect(plan.order).toEqual(["parse", "each"]);
    expect(plan.nodes.map((n) => [n.id, n.map ?? null, n.harness ?? null])).toEqual([
      ["parse", null, "replay"],
      ["each", null, null],
      ["verify", "each", "replay"],
    ]);
    expect(plan.caps).toEqual({ budgetUsd: 3, wallMs: null });
    expect(plan.refusals).toEqual([]);
    expect(x.ledger.count).toBe(0);
  });

  test("a run budget is refused for a node whose harness cannot count cost (its spending would be unseen)", async () => {
    const noCost = (plan: AgentPlan) =>
      plan.harness === "codex" && plan.caps.budgetUsd !== undefined
        ? [{ harness: "codex", field: "caps.budget_usd", message: "codex cannot keep caps.budget_usd" }]
        : [];
    const graph = `
version: 1
name: t
caps: { budget_usd: 2 }
nodes:
  a: { kind: agent, prompt: "x", harness: claude }
  b: { kind: agent, prompt: "y", harness: codex }
`;
    const agents = new FakeAgentRunner(undefined, noCost);
    const err = await runGraph(setup(graph, { agents }).options).catch((e) => e);
    expect(err).toBeInstanceOf(RefusalError);
    expect(err.refusals).toEqual([expect.objectContaining({ node: "b", harness: "codex", field: "run caps.budget_usd" })]);
    expect(err.message).toContain("cannot keep the run's budget_usd ($2)");
    // Without a run budget the same graph is accepted; a node's own budget cap is refused once, not twice.
    expect(
      planRun(setup(graph.replace("caps: { budget_usd: 2 }\n", ""), { agents: new FakeAgentRunner(undefined, noCost) }).options).refusals,
    ).toEqual([]);
    const own = graph.replace("harness: codex }", "harness: codex, caps: { budget_usd: 1 } }");
    expect(planRun(setup(own, { agents: new FakeAgentRunner(undefined, noCost) }).options).refusals.map((r) => r.field)).toEqual([
      "caps.budget_usd",
    ]);
  });

  test("a port that was not injected fails loudly", async () => {
    const x = setup(`
version: 1
name: t
nodes: { s: { kind: script, run: "true" } }
`);
    const { commands: _omit, ...ports } = x.options.ports;
    await expect(x.clock.drive(runGraph({ ...x.options, ports }))).rejects.toBeInstanceOf(PortNotProvidedError);
  });
});

describe("data reaches commands only through variables and files", () => {
  test("an injection in model output never reaches a command line", async () => {
    const evil = '$(touch /tmp/pwned-XXXX); "; rm -rf /';
    const commands = new FakeCommandRunner();
    const r = await run(
      `
version: 1
name: t
inputs: { target: { default: "src/app.ts" } }
checks:
  tests: { run: "bun test \\"$VOUCH_INPUT_TARGET\\"" }
nodes:
  write:
    kind: agent
    prompt: "Write a title for {{ inputs.target }}"
    output: { format: json }
  publish:
    kind: script
    needs: [write]
    run: "jq -r .nodes.write.output.title \\"$VOUCH_STATE_FILE\\""
    success: { checks: [tests, { name: inline, run: "test -s \\"$VOUCH_STATE_FILE\\"" }] }
`,
      { agents: byNode({ write: [{ resultText: JSON.stringify({ title: evil }) }] }), commands },
    );
    expect(r.outcome.status).toBe("passed");
    const script = commands.scripts[0]!;
    expect(script.spec.run).toBe('jq -r .nodes.write.output.title "$VOUCH_STATE_FILE"');
    expect(script.spec.argv).toBeUndefined();
    expect(commands.checks.map((c) => c.spec.run)).toEqual(['bun test "$VOUCH_INPUT_TARGET"', 'test -s "$VOUCH_STATE_FILE"']);
    // The model's text is in the state only, as data.
    expect((script.ctx.state as { nodes: Record<string, { output: { title: string } }> }).nodes.write!.output.title).toBe(evil);
    for (const c of [...commands.scripts, ...commands.checks]) {
      expect(c.spec.run).not.toContain("pwned");
      expect(c.spec.run).not.toContain("rm -rf");
      expect(Object.values(c.ctx.vars).join("\n")).not.toContain("pwned");
    }
    expect(script.ctx.vars).toEqual({ VOUCH_RUN_ID: "run-test", VOUCH_NODE: "publish", VOUCH_GRAPH_DIR: "/work" });
    expect(script.ctx.inputs).toEqual([{ stem: "TARGET", text: "src/app.ts" }]);
    // A check sees the node's own output (VOUCH_OUTPUT_FILE): here the script's stdout text.
    expect(commands.checks.every((c) => c.ctx.output !== undefined)).toBe(true);
    expect(script.ctx.cwd).toBe("/work/project");
  });

  test("an agent's checks get its parsed, stamped output (VOUCH_OUTPUT_FILE), not the raw text", async () => {
    const commands = new FakeCommandRunner();
    await run(
      `
version: 1
name: t
checks: { cites: { run: "sh check.sh" } }
nodes:
  verify:
    kind: agent
    prompt: "verify"
    output: { format: json }
    stamp: { id: "F9" }
    success: { checks: [cites] }
`,
      { agents: byNode({ verify: [{ resultText: '{"id": "model-said", "verdict": "VERIFIED"}' }] }), commands },
    );
    expect(commands.checks).toHaveLength(1);
    expect(commands.checks[0]!.ctx.output).toEqual({ id: "F9", verdict: "VERIFIED" });
  });

  test("inputs reach commands by stem, in the graph's order (JSON when not strings); the state holds inputs and node results", async () => {
    const commands = new FakeCommandRunner(undefined, () => ({ stdoutTail: '{"count": 2}\n' }));
    const r = await run(
      `
version: 1
name: t
inputs: { limits: { default: { max: 3 } }, name: { default: x } }
nodes:
  first: { kind: script, run: "count" }
  second: { kind: script, run: "use", needs: [first] }
`,
      { commands },
    );
    expect(finishedOf(r.events, "first").output).toEqual({ count: 2 });
    const second = commands.scripts[1]!;
    expect(second.ctx.inputs).toEqual([
      { stem: "LIMITS", text: '{"max":3}' },
      { stem: "NAME", text: "x" },
    ]);
    expect(second.ctx.state).toEqual({
      inputs: { limits: { max: 3 }, name: "x" },
      nodes: { first: { status: "passed", output: { count: 2 } } },
    });
    expect(second.spec.timeoutMs).toBe(120_000);
  });
});
