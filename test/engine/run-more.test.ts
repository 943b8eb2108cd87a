// Smaller rules: branch data to commands, exhausted at top level, fallback
// agents, template errors in ends, defaults, the real clock.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";
import { byNode, FakeAgentRunner, FakeCommandRunner } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";
import { systemClock } from "../../src/engine/clock.ts";

describe("branch data to commands", () => {
  test("a script in a branch gets the item (VOUCH_ITEM_FILE) and a state with item and index", async () => {
    const commands = new FakeCommandRunner();
    await run(
      `
version: 1
name: t
inputs: { items: { default: [{ id: x1 }, { id: x2 }] } }
nodes:
  prep: { kind: script, run: "prep" }
  each:
    kind: map
    needs: [prep]
    over: inputs.items
    branch:
      check_one: { kind: script, run: "check \\"$VOUCH_ITEM_FILE\\"" }
`,
      { commands },
    );
    const branchRuns = commands.scripts.filter((s) => s.ctx.node === "check_one");
    expect(branchRuns.map((s) => s.ctx.item)).toEqual([{ id: "x1" }, { id: "x2" }]);
    expect(branchRuns.map((s) => s.ctx.branch)).toEqual([
      { map: "each", index: 0 },
      { map: "each", index: 1 },
    ]);
    expect(branchRuns[1]!.ctx.state).toMatchObject({ item: { id: "x2" }, index: 1, nodes: { prep: { status: "passed" } } });
    expect(branchRuns.every((s) => s.spec.run === 'check "$VOUCH_ITEM_FILE"')).toBe(true);
    expect(commands.scripts.find((s) => s.ctx.node === "prep")!.ctx.item).toBeUndefined();
  });
});

describe("recovery at the top level", () => {
  test("exhausted: the node stays failed (counts say so) but its dependents run and the run passes", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  flaky: { kind: agent, prompt: f, output: { format: json }, exhausted: { output: { items: [], note: "{{ error }}" } } }
  use: { kind: agent, prompt: "n={{ nodes.flaky.output.items | json }}", needs: [flaky] }
`,
      { agents: byNode({ flaky: [{ resultText: "oops" }] }) },
    );
    expect(finishedOf(r.events, "flaky")).toMatchObject({ status: "failed", recovered: true, output: { items: [] } });
    expect(r.agents.prompts("use")).toEqual(["n=[]"]);
    expect(r.outcome).toMatchObject({ status: "passed", counts: { passed: 1, failed: 1 } });
  });

  test("a fallback agent that passes speaks for the failed node: the run passes", async () => {
    const r = await run(
      `
version: 1
name: t
nodes:
  fast: { kind: agent, prompt: fast, harness: codex, fallback: careful }
  careful: { kind: agent, prompt: careful }
`,
      { agents: byNode({ fast: [{ stopReason: "crashed", error: "segfault" }] }) },
    );
    expect(finishedOf(r.events, "fast")).toMatchObject({ status: "error", cause: "harness_error", fallback: "careful" });
    expect(finishedOf(r.events, "fast").error).toContain("segfault");
    expect(finishedOf(r.events, "careful").status).toBe("passed");
    expect(r.outcome.status).toBe("passed");
    expect(r.agents.assignments.map((a) => [a.node, a.harness])).toEqual([
      ["fast", "codex"],
      ["careful", "claude"],
    ]);
  });
});

describe("templates and defaults", () => {
  test("an end node naming a missing key errors (template_error) instead of printing an empty value", async () => {
    const r = await run(`
version: 1
name: t
nodes:
  a: { kind: agent, prompt: a }
  done: { kind: end, needs: [a], output: { v: "{{ nodes.a.output.verdict }}" } }
`);
    expect(finishedOf(r.events, "done")).toMatchObject({ status: "error", cause: "template_error" });
    expect(r.outcome.status).toBe("error");
  });

  test("defaults reach agents (harness, model, tools, caps, env, cwd) and --pass-env adds names", async () => {
    const r = await run(
      `
version: 1
name: t
inputs: { project_dir: { default: "repo" } }
defaults:
  harness: gemini
  model: big
  tools: [Read]
  permission_mode: plan
  cwd: "{{ inputs.project_dir }}"
  env: [ANTHROPIC_API_KEY]
  caps: { turns: 5, wall: 10m, idle: 2m }
nodes:
  a: { kind: agent, prompt: a, model: small, env: [GH_TOKEN] }
  s: { kind: script, run: "true" }
`,
      { options: { passEnv: ["EXTRA"] } },
    );
    expect(r.agents.assignments[0]).toMatchObject({
      harness: "gemini",
      model: "small",
      tools: ["Read"],
      permissionMode: "plan",
      cwd: "/work/project/repo",
      passEnv: ["ANTHROPIC_API_KEY", "GH_TOKEN", "EXTRA"],
      caps: { turns: 5, wallMs: 600_000, idleMs: 120_000 },
      output: { format: "text" },
    });
    expect(r.commands.scripts[0]!.ctx).toMatchObject({ cwd: "/work/project/repo", passEnv: ["ANTHROPIC_API_KEY", "EXTRA"] });
    expect(ofType(r.events, "run.started")[0]!.pass_env).toEqual(["EXTRA"]);
  });

  test("a script that exits non-zero fails with its last stderr line; a timeout is an error", async () => {
    const commands = new FakeCommandRunner(undefined, (spec) =>
      spec.run === "bad"
        ? { exit: 2, stderrTail: "warming up\nfatal: no such ref\n" }
        : { exit: null, signal: "SIGTERM", terminationReason: "wall" },
    );
    const r = await run(
      `version: 1\nname: t\nnodes:\n  bad: { kind: script, run: bad }\n  slow: { kind: script, run: slow, timeout: 1s }\n`,
      { commands },
    );
    expect(finishedOf(r.events, "bad")).toMatchObject({
      status: "failed",
      cause: "nonzero_exit",
      error: "exited with status 2: fatal: no such ref",
    });
    expect(finishedOf(r.events, "slow")).toMatchObject({ status: "error", cause: "timeout" });
    expect(commands.scripts.find((s) => s.spec.run === "slow")!.spec.timeoutMs).toBe(1000);
    expect(r.outcome.status).toBe("failed"); // failed outranks error
  });

  test("an agent result cut to the kept tail cannot be read as JSON: an error, never a FAIL", async () => {
    const agents = new FakeAgentRunner(() => ({ resultText: 'xxxx"}', resultTruncated: true }));
    const r = await run(`version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: hi, output: { format: json } }\n`, { agents });
    expect(finishedOf(r.events, "a")).toMatchObject({ status: "error", cause: "harness_error" });
    expect(r.outcome.exitCode).toBe(3);
  });

  test("a script killed by a signal vouch did not send never passes: it crashed, an error", async () => {
    // exit is null when a signal ended the process: exit_zero must not read that as "no non-zero exit".
    const commands = new FakeCommandRunner(undefined, () => ({
      exit: null,
      signal: "SIGSEGV",
      terminationReason: "exit",
      stdoutTail: "partial\n",
      stderrTail: "Segmentation fault\n",
    }));
    const r = await run(`version: 1\nname: t\nnodes:\n  crash: { kind: script, run: crash }\n`, { commands });
    expect(finishedOf(r.events, "crash")).toMatchObject({ status: "error", cause: "harness_error", qualifier: null });
    expect(finishedOf(r.events, "crash").error).toMatch(/SIGSEGV/);
    expect(r.outcome).toMatchObject({ status: "error", exitCode: 3 });
  });
});

describe("systemClock", () => {
  test("a sleep longer than a timer can hold (over ~24.8 days) does not end at once", async () => {
    const ctl = new AbortController();
    let ended = false;
    const p = systemClock.sleep(700 * 3_600_000, ctl.signal).then(
      () => (ended = true),
      () => {},
    );
    // An overflowed timer is due after 1 ms: once a timer due later has fired, it would have too.
    await systemClock.sleep(2);
    await Promise.resolve();
    expect(ended).toBe(false);
    ctl.abort(new Error("stop"));
    await p;
  });
  test("sleeps and can be aborted", async () => {
    const t0 = systemClock.now();
    await systemClock.sleep(5);
    expect(systemClock.now() - t0).toBeGreaterThanOrEqual(4);
    const ctl = new AbortController();
    const p = systemClock.sleep(60_000, ctl.signal);
    ctl.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
  });
});

describe("edges", () => {
  test("a node that needs a node inside a feedback chain waits for the loop to settle and sees the final result", async () => {
    let rounds = 0;
    const commands = new FakeCommandRunner(undefined, () => (++rounds < 2 ? { exit: 1 } : {}));
    const r = await run(
      `
version: 1
name: t
nodes:
  impl: { kind: agent, prompt: "impl" }
  docs: { kind: agent, prompt: "docs for {{ nodes.impl.output }}", needs: [impl] }
  verify: { kind: script, run: "t", needs: [impl], feedback: { to: impl, max: 3 } }
`,
      { commands, agents: (a) => ({ resultText: `${a.node} v${a.prompt.includes("Feedback") ? 2 : 1}` }) },
    );
    expect(r.agents.prompts("impl")).toHaveLength(2);
    expect(r.agents.prompts("docs")).toEqual(["docs for impl v2"]); // ran once, after the loop, on the final output
    expect(r.outcome.status).toBe("passed");
  });

  test("a branch with a router and end nodes: the end that ran gives the branch its output and status", async () => {
    const r = await run(
      `
version: 1
name: t
inputs: { items: { default: [{ n: 1 }, { n: 7 }] } }
nodes:
  each:
    kind: map
    over: inputs.items
    passes: any
    branch:
      pick: { kind: router, routes: [{ when: { item.n: { gt: 5 } }, to: [big] }], default: [small] }
      big: { kind: end, status: failure, output: { verdict: TOO_BIG } }
      small: { kind: end, output: { verdict: OK } }
    verdict: output.verdict
`,
    );
    const bf = ofType(r.events, "branch.finished");
    expect(bf.map((e) => [e.status, e.verdict])).toEqual([
      ["passed", "OK"],
      ["failed", "TOO_BIG"],
    ]);
    expect(finishedOf(r.events, "big", 0)).toMatchObject({ status: "skipped", cause: "not_chosen" });
    expect(finishedOf(r.events, "each").status).toBe("passed");
  });

  test("an approval question that is still open keeps the run going (it is not a pause)", async () => {
    let answer!: (v: "approve") => void;
    const approvals = { requests: [] as unknown[], decide: () => new Promise<"approve">((r) => (answer = r)) };
    const clock = new FakeClock();
    const agents = new FakeAgentRunner(async (a) => {
      if (a.node === "other") {
        await clock.sleep(5000);
        answer("approve"); // the person answers while other work runs
      }
      return {};
    });
    const r = await run(
      `
version: 1
name: t
nodes:
  gate: { kind: approval }
  after: { kind: agent, prompt: a, needs: [gate] }
  other: { kind: agent, prompt: o }
`,
      { agents, clock, approvals: approvals as never },
    );
    expect(r.outcome.status).toBe("passed");
    expect(ofType(r.events, "run.paused")).toHaveLength(0);
    expect(finishedOf(r.events, "after").status).toBe("passed");
  });
});
