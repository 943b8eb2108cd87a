// Caps kept by the real claude: its turns stop and its budget stop, the run
// budget handed down to it (issue 13 item 1) and turns counted as the model
// responses really made (item 5). Through dist/vouch, against the fake server.
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { always, answer, text, toolUse, toolsForever, type Script } from "./servers/anthropic.ts";
import { MODEL, usageCosting } from "./claude-pricing.ts";
import { delegating } from "./claude-recorded.ts";

const CONTRACT_TIMEOUT = 90_000;
const model = `model: ${MODEL}`;

/** Calls a harmless tool forever, each response costing `usd`. */
const costlyTools =
  (usd: number): Script =>
  (n) => ({ kind: "message", blocks: [text(`Again (${n + 1}).`), toolUse("Glob", { pattern: "*.none" })], usage: usageCosting(usd) });

describeCli("claude", "claude caps", () => {
  it("a turns stop: error cap_stop, turns = the 2 responses made, no overrun (item 5)", { timeout: CONTRACT_TIMEOUT }, async () => {
    const r = await runClaudeScenario({
      script: toolsForever,
      graph: oneAgentGraph({ fields: [model, "tools: [Glob]", "caps: { turns: 2 }"] }),
    });
    const f = r.finished("ask");
    expect([r.code, f.status, f.qualifier, f.stop_reason, f.cause]).toEqual([3, "error", null, "turns", "cap_stop"]);
    expect(r.server.requests).toHaveLength(2);
    expect(f.turns).toBe(2);
    // claude says num_turns 3 at this stop; only 2 responses were consumed, within the cap.
    expect(r.overruns()).toEqual([]);
    expect(r.progress("ask").every((p) => (p.turns ?? 0) <= 2)).toBe(true);
  });

  it("a sub-agent's responses are not turns: 3 main responses under turns: 3 pass, no overrun", { timeout: CONTRACT_TIMEOUT }, async () => {
    const r = await runClaudeScenario({
      script: delegating,
      graph: oneAgentGraph({ fields: [model, "tools: [Agent]", "caps: { turns: 3 }"] }),
    });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason]).toEqual([0, "passed", "complete"]);
    // 4 model requests: 3 of the main conversation, 1 of the sub-agent.
    expect(r.server.requests).toHaveLength(4);
    expect(f.turns).toBe(3);
    expect(r.overruns()).toEqual([]);
  });

  it("a huge usage under the node's budget_usd: claude's own budget stop, the overrun reported", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    const r = await runClaudeScenario({
      script: always(answer("Hello.", usageCosting(7.5))),
      graph: oneAgentGraph({ fields: [model, "caps: { budget_usd: 0.5 }"] }),
    });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([3, "error", "budget", "cap_stop"]);
    expect(f.cost_usd).toBeCloseTo(7.5, 6);
    expect(f.turns).toBe(1);
    expect(r.server.requests).toHaveLength(1);
    expect(r.overruns().map((o) => [o.scope, o.cap, o.limit, Number(o.actual.toFixed(6))])).toEqual([["node", "budget_usd", 0.5, 7.5]]);
  });

  it("the run budget reaches claude as --max-budget-usd; the stop recorded is claude's (item 1)", {
    timeout: CONTRACT_TIMEOUT,
  }, async () => {
    // No budget_usd on the node; the run has $0.50; every response costs $0.30.
    const r = await runClaudeScenario({
      script: costlyTools(0.3),
      graph: oneAgentGraph({ fields: [model, "tools: [Glob]", "caps: { turns: 5 }"] }),
      args: ["--budget", "0.5"],
    });
    const f = r.finished("ask");
    // claude stopped itself after the response that crossed $0.50 (2 of them), not at its turns cap (5).
    expect(r.server.requests).toHaveLength(2);
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([3, "error", "budget", "cap_stop"]);
    expect(f.cost_usd).toBeCloseTo(0.6, 6);
    expect(f.turns).toBe(2);
    const run = r.overruns().filter((o) => o.scope === "run");
    expect(run.map((o) => [o.cap, o.limit, Number(o.actual.toFixed(6))])).toEqual([["budget_usd", 0.5, 0.6]]);
    expect(r.run().cost_usd).toBeCloseTo(0.6, 6);
  });

  it("a later node gets only what is left of the run budget (item 1)", { timeout: CONTRACT_TIMEOUT }, async () => {
    // first spends $0.30 and passes; second (no budget_usd of its own) has $0.20 left of $0.50.
    const graph = [
      "version: 1",
      "name: contract",
      "nodes:",
      "  first:",
      "    kind: agent",
      '    prompt: "Say hello."',
      `    ${model}`,
      "  second:",
      "    kind: agent",
      "    needs: [first]",
      '    prompt: "Look around."',
      `    ${model}`,
      "    tools: [Glob]",
      "    caps: { turns: 5 }",
      "",
    ].join("\n");
    const script: Script = (n, body) => (n === 0 ? answer("Hello.", usageCosting(0.3)) : costlyTools(0.3)(n, body));
    const r = await runClaudeScenario({ script, graph, args: ["--budget", "0.5"] });
    expect(r.finished("first").status).toBe("passed");
    const f = r.finished("second");
    // With $0.20 handed down, claude stops after one $0.30 response; with the whole $0.50 it would make two.
    expect(r.server.requests).toHaveLength(2);
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([3, "error", "budget", "cap_stop"]);
    expect(f.cost_usd).toBeCloseTo(0.3, 6);
  });
});
