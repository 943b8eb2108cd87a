// The real claude (the version clis/package.json pins) through dist/vouch,
// against the fake Anthropic server: answers and the fields a node sets.
// Every scenario asserts what a user reads in node.finished and the exit code.
import { expect, it } from "vitest";
import { describeCli } from "./lib/skip.ts";
import { oneAgentGraph, runClaudeScenario } from "./lib/claude.ts";
import { always, answer, sequence, text, toolUse, type Reply } from "./servers/anthropic.ts";
import { costOf, MODEL } from "./claude-pricing.ts";

const CONTRACT_TIMEOUT = 90_000;
const model = `model: ${MODEL}`;

describeCli("claude", "claude answers", () => {
  it("a plain answer passes exit-only, with claude's cost and one turn", { timeout: CONTRACT_TIMEOUT }, async () => {
    const r = await runClaudeScenario({
      script: always(answer("Hello there.", { input_tokens: 12, output_tokens: 5 })),
      graph: oneAgentGraph({ fields: [model] }),
    });
    const f = r.finished("ask");
    expect([r.code, f.status, f.qualifier, f.stop_reason, f.cause]).toEqual([0, "passed", "exit-only", "complete", null]);
    expect(f.cost_usd).toBeCloseTo(costOf(12, 5), 9);
    expect(f.turns).toBe(1);
    expect(f.result_tail).toBe("Hello there.");
    expect(r.overruns()).toEqual([]);
    expect(r.server.requests).toHaveLength(1);
    // The prompt reached the model on stdin, and the node's model was asked for.
    expect(JSON.stringify(r.server.requests[0]!.body.messages)).toContain("Say hello.");
    expect(r.server.requests[0]!.body.model).toBe(MODEL);
  });

  it("a JSON answer with a check that reads it passes verified", { timeout: CONTRACT_TIMEOUT }, async () => {
    const graph = oneAgentGraph({
      fields: [
        model,
        "output: { format: json, schema: { type: object, required: [verdict], properties: { verdict: { enum: [clean, dirty] } } } }",
        `success: { checks: [{ name: says-clean, run: "grep -q clean \\"$VOUCH_OUTPUT_FILE\\"" }] }`,
      ],
    });
    const r = await runClaudeScenario({ script: always(answer('Here it is:\n```json\n{"verdict":"clean"}\n```')), graph });
    const f = r.finished("ask");
    expect([r.code, f.status, f.qualifier, f.stop_reason]).toEqual([0, "passed", "verified", "complete"]);
    expect(f.output).toEqual({ verdict: "clean" });
  });

  it("a JSON answer that breaks the schema fails output_invalid", { timeout: CONTRACT_TIMEOUT }, async () => {
    const graph = oneAgentGraph({ fields: [model, "output: { format: json, schema: { type: object, required: [verdict] } }"] });
    const r = await runClaudeScenario({ script: always(answer('{"other": 1}')), graph });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason, f.cause]).toEqual([1, "failed", "complete", "output_invalid"]);
  });

  it("several content blocks per message count as one turn per model response", { timeout: CONTRACT_TIMEOUT }, async () => {
    const blocks: Reply = {
      kind: "message",
      blocks: [text("One."), text("Two."), toolUse("Glob", { pattern: "*.none" })],
      usage: { input_tokens: 10, output_tokens: 10 },
    };
    const done: Reply = { kind: "message", blocks: [text("Done."), text("Really done.")], usage: { input_tokens: 10, output_tokens: 10 } };
    const r = await runClaudeScenario({
      script: sequence(blocks, done),
      graph: oneAgentGraph({ fields: [model, "tools: [Glob]", "caps: { turns: 5 }"] }),
    });
    const f = r.finished("ask");
    expect([r.code, f.status, f.stop_reason]).toEqual([0, "passed", "complete"]);
    expect(r.server.requests).toHaveLength(2);
    expect(f.turns).toBe(2);
    expect(f.cost_usd).toBeCloseTo(2 * costOf(10, 10), 9);
    // The tool really ran: its result went back to the model in the second request.
    expect(JSON.stringify(r.server.requests[1]!.body.messages)).toContain("tool_result");
    // Only the tools the node names exist for the model.
    const tools = (r.server.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toEqual(["Glob"]);
  });
});

describeCli("claude", "claude permission modes (issue 13 item 6)", () => {
  for (const mode of ["auto", "manual", "dontAsk", "plan"]) {
    it(`permission_mode ${mode} is accepted by vouch and by claude`, { timeout: CONTRACT_TIMEOUT }, async () => {
      const r = await runClaudeScenario({
        script: always(answer("Hello.")),
        graph: oneAgentGraph({ fields: [model, `permission_mode: ${mode}`] }),
      });
      expect(r.stderr).not.toContain("unknown permission_mode");
      const f = r.finished("ask");
      expect([r.code, f.status, f.stop_reason]).toEqual([0, "passed", "complete"]);
    });
  }
});
