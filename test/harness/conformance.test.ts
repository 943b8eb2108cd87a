// The conformance kit over all six adapters (acp with two stub agents), with stub executables first on
// PATH (never a real model), and over deliberately broken doubles that the
// kit must catch.
import { describe, expect, test } from "vitest";
import { claudeAdapter } from "../../src/spawn/harness/claude/adapter.ts";
import { codexAdapter } from "../../src/spawn/harness/codex/adapter.ts";
import { geminiAdapter } from "../../src/spawn/harness/gemini/adapter.ts";
import { commandAdapter } from "../../src/spawn/harness/command/adapter.ts";
import { replayDescriptor } from "../../src/spawn/harness/replay/adapter.ts";
import { acpAdapter } from "../../src/spawn/harness/acp/adapter.ts";
import { acpGuarantees } from "../../src/spawn/harness/acp/agents.ts";
import type { HarnessAdapter } from "../../src/spawn/harness/types.ts";
import { KIT_CHECKS, runKit } from "./kit/conformance-kit.ts";
import type { KitSubject } from "./kit/kit-sitting.ts";

const SUBJECTS: KitSubject[] = [
  { label: "claude", harness: "claude", descriptor: claudeAdapter },
  { label: "codex", harness: "codex", descriptor: codexAdapter },
  { label: "gemini", harness: "gemini", descriptor: geminiAdapter },
  { label: "replay", harness: "replay", descriptor: replayDescriptor },
  { label: "command", harness: "command", descriptor: commandAdapter },
  // acp: a stub agent named like a tested one keeps what that agent is declared to keep; any other
  // agent only wall and idle (ADR 0051). Both speak ACP (test/stubs/harness/lib/stub-acp.cjs).
  {
    label: "acp (a tested agent)",
    harness: "acp",
    descriptor: { ...acpAdapter, guarantees: acpGuarantees(["claude-code-acp"]) },
    acpCommand: ["claude-code-acp"],
  },
  { label: "acp (any agent)", harness: "acp", descriptor: acpAdapter, acpCommand: ["acp-kit-agent"] },
];

/** The checks that do not apply to an adapter, because of what it declares (the
 *  kit says why in its detail). Everything else must pass: a check that quietly
 *  became not_applicable (an adapter that stopped declaring a cap, say) fails here. */
const NOT_APPLICABLE: Record<string, readonly string[]> = {
  claude: [],
  codex: ["budget cap is kept as declared"],
  gemini: ["budget cap is kept as declared"],
  replay: [
    "model, tools and permission mode reach the harness when declared honoured",
    "a setting that looks like a flag arrives as a value, never as a flag",
    "a grandchild holding the pipe does not hang the sitting",
    "a flood of output is bounded",
  ],
  "acp (a tested agent)": ["a setting that looks like a flag arrives as a value, never as a flag", "budget cap is kept as declared"],
  "acp (any agent)": [
    "a setting that looks like a flag arrives as a value, never as a flag",
    "turns cap is kept as declared",
    "budget cap is kept as declared",
  ],
  command: [
    "model, tools and permission mode reach the harness when declared honoured",
    "a setting that looks like a flag arrives as a value, never as a flag",
    "turns cap is kept as declared",
    "budget cap is kept as declared",
  ],
};

for (const subject of SUBJECTS) {
  describe(`conformance: ${subject.label}`, () => {
    for (const check of KIT_CHECKS) {
      const expected = NOT_APPLICABLE[subject.label]!.includes(check.name) ? "not_applicable" : "passed";
      test(`${check.name} (${expected})`, { timeout: 60_000 }, async () => {
        const [result] = await runKit(subject, [check.name]);
        expect(result!.status, result!.detail).toBe(expected);
      });
    }
  });
}

test("every not_applicable entry names a check of the kit", () => {
  const names = new Set(KIT_CHECKS.map((c) => c.name));
  expect(
    Object.values(NOT_APPLICABLE)
      .flat()
      .filter((n) => !names.has(n)),
  ).toEqual([]);
});

describe("the kit catches a broken adapter", () => {
  test("claude double that drops --max-turns while declaring turns native: the turns check fails", { timeout: 60_000 }, async () => {
    const dropsTurns: HarnessAdapter = {
      ...claudeAdapter,
      buildCommand(a, ctx) {
        const cmd = claudeAdapter.buildCommand(a, ctx);
        const i = cmd.argv.indexOf("--max-turns");
        if (i >= 0) cmd.argv.splice(i, 2);
        return cmd;
      },
    };
    const report = await runKit({ label: "claude-drops-turns", harness: "claude", descriptor: dropsTurns, adapter: dropsTurns }, [
      "turns cap is kept as declared",
      "budget cap is kept as declared",
    ]);
    expect(report.find((r) => r.check === "turns cap is kept as declared")).toMatchObject({
      status: "failed",
      detail: expect.stringContaining('declares turns native, but a sitting past a turns cap of 1 stopped "complete"'),
    });
    // Only the dropped cap is reported: the budget flag is still passed.
    expect(report.find((r) => r.check === "budget cap is kept as declared")!.status).toBe("passed");
  });

  test("codex double that claims supervised wall but never asks for it: the wall check fails", { timeout: 60_000 }, async () => {
    const noWall: HarnessAdapter = {
      ...codexAdapter,
      buildCommand(a, ctx) {
        const { wallMs: _dropped, ...cmd } = codexAdapter.buildCommand(a, ctx);
        return cmd;
      },
    };
    const [result] = await runKit({ label: "codex-no-wall", harness: "codex", descriptor: noWall, adapter: noWall }, [
      "wall cap: a hang is stopped on time",
    ]);
    expect(result!.status).toBe("failed");
    expect(result!.detail).toContain("declares wall supervised");
    expect(result!.detail).toContain("the kit had to cancel it");
  });

  test("a double that declares budget observed while reporting no cost: the budget check fails", { timeout: 60_000 }, async () => {
    const liar: HarnessAdapter = {
      ...geminiAdapter,
      guarantees: { ...geminiAdapter.guarantees, caps: { ...geminiAdapter.guarantees.caps, budget_usd: "observed" } },
    };
    const [result] = await runKit({ label: "gemini-claims-cost", harness: "gemini", descriptor: liar, adapter: liar }, [
      "budget cap is kept as declared",
    ]);
    expect(result!.status).toBe("failed");
    expect(result!.detail).toContain("declares budget_usd observed");
  });

  test("a double that puts the prompt on the command line: the success check fails", { timeout: 60_000 }, async () => {
    const onArgv: HarnessAdapter = {
      ...codexAdapter,
      buildCommand(a, ctx) {
        const cmd = codexAdapter.buildCommand(a, ctx);
        cmd.argv[cmd.argv.length - 1] = a.prompt;
        delete cmd.stdin;
        return cmd;
      },
    };
    const [result] = await runKit({ label: "codex-prompt-on-argv", harness: "codex", descriptor: onArgv, adapter: onArgv }, [
      "success: complete, prompt intact on its channel, nothing invented",
    ]);
    expect(result!.status).toBe("failed");
    expect(result!.detail).toContain("command line");
  });
});
