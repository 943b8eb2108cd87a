// Emergent parallelism and map ordering under random completion order.
import { describe, expect, test } from "vitest";
import { finishedOf, ofType, run, setup } from "./helpers/run-helper.ts";
import { FakeAgentRunner } from "./helpers/fakes.ts";
import { FakeClock } from "./helpers/fake-clock.ts";
import { runGraph } from "../../src/engine/run.ts";

/** A seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe("emergent parallelism", () => {
  test("independent nodes run at once up to `concurrency`, never more; a dependent starts as soon as its needs finish", async () => {
    const nodes = Array.from({ length: 9 }, (_, i) => `  n${i}: { kind: agent, prompt: "n${i}" }`).join("\n");
    const gates = new Map<string, () => void>();
    const agents = new FakeAgentRunner((a) => new Promise((resolve) => gates.set(a.node, () => resolve({}))));
    const x = setup(`version: 1\nname: t\nconcurrency: 3\nnodes:\n${nodes}\n  last: { kind: agent, prompt: "last", needs: [n0] }\n`, {
      agents,
    });
    const done = runGraph(x.options);
    const random = rng(7);
    const tick = () => new Promise((r) => setImmediate(r));
    let released = 0;
    while (released < 10) {
      await tick();
      expect(agents.live).toBeLessThanOrEqual(3);
      const open = [...gates.keys()];
      if (open.length === 0) continue;
      const pick = open[Math.floor(random() * open.length)]!;
      gates.get(pick)!();
      gates.delete(pick);
      released++;
    }
    const outcome = await done;
    expect(outcome.status).toBe("passed");
    expect(agents.maxLive).toBe(3);
  });

  test("a dependent starts as soon as its own needs finish, while unrelated work is still running", async () => {
    const gates = new Map<string, () => void>();
    const agents = new FakeAgentRunner((a) => new Promise((resolve) => gates.set(a.node, () => resolve({}))));
    const x = setup(
      `
version: 1
name: t
nodes:
  slow: { kind: agent, prompt: "slow" }
  fast: { kind: agent, prompt: "fast" }
  next: { kind: agent, prompt: "next", needs: [fast] }
`,
      { agents },
    );
    const done = runGraph(x.options);
    const tick = () => new Promise((r) => setImmediate(r));
    await tick();
    expect([...gates.keys()].sort()).toEqual(["fast", "slow"]);
    gates.get("fast")!();
    await tick();
    expect(gates.has("next")).toBe(true); // started while `slow` still runs
    expect(agents.live).toBe(2);
    gates.get("next")!();
    gates.get("slow")!();
    expect((await done).status).toBe("passed");
  });

  test("map branches count against the run's concurrency and the map's max_concurrency", async () => {
    const clock = new FakeClock();
    const random = rng(3);
    const agents = new FakeAgentRunner(async (a) => {
      await clock.sleep(1 + Math.floor(random() * 50));
      return {};
    });
    const r = await run(
      `
version: 1
name: t
concurrency: 4
inputs: { items: { default: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] } }
nodes:
  other: { kind: agent, prompt: "other" }
  each:
    kind: map
    over: inputs.items
    max_concurrency: 2
    branch:
      one: { kind: agent, prompt: "item {{ item }}" }
`,
      { agents, clock },
    );
    expect(r.outcome.status).toBe("passed");
    expect(agents.maxLive).toBeLessThanOrEqual(3); // 2 branches + `other`
    expect(agents.maxLive).toBeGreaterThanOrEqual(2);
    let liveBranches = 0;
    let maxBranches = 0;
    for (const e of r.events) {
      if (e.type === "branch.started") maxBranches = Math.max(maxBranches, ++liveBranches);
      if (e.type === "branch.finished") liveBranches--;
    }
    expect(maxBranches).toBe(2);
  });
});

describe("maps", () => {
  test("results come back in input order whatever order branches finish in", async () => {
    const clock = new FakeClock();
    const random = rng(42);
    const items = Array.from({ length: 30 }, (_, i) => ({ id: `F-${i}`, claim: `claim ${i}` }));
    const finishOrder: number[] = [];
    const agents = new FakeAgentRunner(async (a) => {
      await clock.sleep(Math.floor(random() * 1000));
      finishOrder.push(a.branch!.index);
      const item = items[a.branch!.index]!;
      return { resultText: JSON.stringify({ verdict: item.id.endsWith("3") ? "REFUTED" : "CONFIRMED", echo: item.claim }) };
    });
    const r = await run(
      `
version: 1
name: t
concurrency: 8
inputs: { findings: { required: true } }
nodes:
  each:
    kind: map
    over: inputs.findings
    as: finding
    branch:
      verify: { kind: agent, prompt: "Check {{ finding | json }}", output: { format: json } }
    verdict: output.verdict
  done: { kind: end, needs: [each], output: { results: "{{ nodes.each.results }}" } }
`,
      { agents, clock, inputs: { findings: items } },
    );
    expect(finishOrder).not.toEqual([...finishOrder].sort((a, b) => a - b)); // really out of order
    const results = finishedOf(r.events, "each").output as {
      results: { index: number; item: unknown; status: string; verdict: string; output: { echo: string } }[];
      counts: unknown;
    };
    expect(results.results.map((x) => x.index)).toEqual(items.map((_, i) => i));
    expect(results.results.map((x) => x.item)).toEqual(items);
    expect(results.results.map((x) => x.output.echo)).toEqual(items.map((i) => i.claim));
    expect(results.results[3]!.verdict).toBe("REFUTED");
    expect(results.counts).toEqual({ passed: 30, failed: 0, error: 0, skipped: 0, cancelled: 0, recovered: 0 });
    expect((r.outcome.output as { results: unknown[] }).results).toHaveLength(30);
    const bf = ofType(r.events, "branch.finished").find((e) => e.branch.index === 13)!;
    expect(bf.verdict).toBe("REFUTED");
    const bs = ofType(r.events, "branch.started").find((e) => e.branch.index === 13)!;
    expect(bs.label).toBe("F-13");
    // Events of a branch node carry the branch.
    expect(
      ofType(r.events, "node.finished")
        .filter((e) => e.node === "verify")
        .every((e) => e.branch?.map === "each"),
    ).toBe(true);
    expect(r.agents.prompts("verify")[5]).toBe(`Check ${JSON.stringify(items[5])}`);
  });

  test("`over` that is not a list is a map error, not a failure", async () => {
    const r = await run(`
version: 1
name: t
inputs: { items: { default: { a: 1 } } }
nodes:
  each: { kind: map, over: inputs.items, branch: { one: { kind: agent, prompt: "x" } } }
`);
    expect(finishedOf(r.events, "each")).toMatchObject({ status: "error", cause: "map_error" });
    expect(finishedOf(r.events, "each").error).toContain("is not a list (it is a object)");
    expect(r.outcome.status).toBe("error");
  });

  test("a text runs the map once per non-empty line, trimmed; node.started says how many items", async () => {
    const r = await run(`
version: 1
name: t
inputs: { files: { default: "src/a.js\\n\\n  src/b.js  \\nsrc/c.js\\n" } }
nodes:
  each: { kind: map, over: inputs.files, as: file, branch: { one: { kind: agent, prompt: "review {{ file }}" } } }
`);
    expect(r.agents.prompts("one").sort()).toEqual(["review src/a.js", "review src/b.js", "review src/c.js"]);
    expect(ofType(r.events, "node.started").find((e) => e.node === "each")!.items).toBe(3);
    expect(r.outcome.status).toBe("passed");
  });
});
