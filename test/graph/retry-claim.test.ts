// retry.max_cost and claim at load (ADR 0068): max_cost needs an agent with a budget_usd
// cap (its own or the defaults'), is a share in (0, 1]; claim is a path into the output.
import { describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const problems = (text: string) => loadGraph("g.yaml", text).problems.map((p) => `${p.line}: ${p.message}`);

describe("retry.max_cost", () => {
  test("on an agent with a budget cap (its own or the defaults'): valid", () => {
    expect(
      problems("version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: p, caps: { budget_usd: 1 }, retry: { max: 2, max_cost: 0.5 } }\n"),
    ).toEqual([]);
    expect(
      problems(
        "version: 1\nname: t\ndefaults:\n  caps: { budget_usd: 1 }\n  retry: { max: 2, max_cost: 1 }\nnodes:\n  a: { kind: agent, prompt: p }\n",
      ),
    ).toEqual([]);
  });

  test("without a budget cap, on a script, or out of (0, 1]: refused where it is written", () => {
    expect(problems("version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: p, retry: { max: 2, max_cost: 0.5 } }\n")).toEqual([
      "4: retry.max_cost is a share of the node's budget, and the node has no budget_usd cap",
    ]);
    expect(
      problems("version: 1\nname: t\ndefaults:\n  retry: { max: 2, max_cost: 0.5 }\nnodes:\n  a: { kind: agent, prompt: p }\n"),
    ).toEqual([`4: node "a" inherits retry.max_cost (a share of the node's budget), and has no budget_usd cap`]);
    expect(problems("version: 1\nname: t\nnodes:\n  s: { kind: script, run: 'true', retry: { max: 1, max_cost: 0.5 } }\n")).toEqual([
      "4: retry.max_cost is for agent nodes: a script spends no model money, so no share of it stops a retry",
    ]);
    for (const bad of ["0", "1.5", "-1"])
      expect(
        problems(
          `version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: p, caps: { budget_usd: 1 }, retry: { max: 2, max_cost: ${bad} } }\n`,
        ),
      ).toEqual([expect.stringMatching(/^4: retry.max_cost is a share of the node's budget, (greater than 0|at most 1)$/)]);
  });
});

describe("claim", () => {
  test("a path into the output; anything else is refused", () => {
    expect(problems("version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: p, claim: output.verdict }\n")).toEqual([]);
    for (const bad of ["verdict", "output.", "nodes.x.output", "output.a b", "output..x"])
      expect(problems(`version: 1\nname: t\nnodes:\n  a: { kind: agent, prompt: p, claim: "${bad}" }\n`)).toEqual([
        `4: claim is a path into the output: output.FIELD (output.verdict) (got "${bad}")`,
      ]);
  });
});
