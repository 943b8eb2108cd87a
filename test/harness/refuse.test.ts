// refuse(): what a harness cannot keep is rejected before any process starts,
// with the harness and the field named.
import { describe, expect, test } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { refuse } from "../../src/spawn/harness/refuse.ts";
import { claudeAdapter } from "../../src/spawn/harness/claude/adapter.ts";
import { codexAdapter } from "../../src/spawn/harness/codex/adapter.ts";
import { geminiAdapter } from "../../src/spawn/harness/gemini/adapter.ts";
import { commandAdapter } from "../../src/spawn/harness/command/adapter.ts";
import { replayDescriptor } from "../../src/spawn/harness/replay/adapter.ts";
import { createAgentRunner } from "../../src/spawn/harness/agent-runner.ts";
import type { AgentPlan } from "../../src/engine/ports.ts";
import { HARNESS_NAMES } from "../../src/engine/harnesses.ts";

const plan = (p: Partial<AgentPlan>): AgentPlan => ({ node: "n", harness: "claude", caps: {}, ...p });

const STUBS = join(import.meta.dirname, "..", "stubs", "harness");

describe("refuse", () => {
  test("codex + budget_usd is refused, naming the harness and the field, and the harnesses that keep it", () => {
    const refusals = createAgentRunner({ parentEnv: { PATH: STUBS } }).refuse(plan({ harness: "codex", caps: { budgetUsd: 0.5 } }));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.harness).toBe("codex");
    expect(refusals[0]!.field).toBe("caps.budget_usd");
    expect(refusals[0]!.message).toContain('harness "codex"');
    expect(refusals[0]!.message).toContain("caps.budget_usd");
    expect(refusals[0]!.message).toContain("claude");
  });

  test("codex + budget_usd: run() refuses too, and no process is started", async () => {
    let started = 0;
    const runner = createAgentRunner({
      parentEnv: {},
      runProcess: async () => {
        started += 1;
        throw new Error("must not start");
      },
    });
    const sitting = await runner.run(
      {
        runId: "r",
        node: "n",
        attempt: 1,
        harness: "codex",
        prompt: "hi",
        cwd: tmpdir(),
        passEnv: [],
        caps: { budgetUsd: 0.5 },
        output: { format: "text" },
      },
      { signal: new AbortController().signal, onProgress: () => {} },
    );
    expect(started).toBe(0);
    expect(sitting.stopReason).toBe("unavailable");
    expect(sitting.error).toContain("caps.budget_usd");
  });

  test("every cap a harness declares `none` is refused; every other cap is accepted", () => {
    for (const h of [claudeAdapter, codexAdapter, geminiAdapter, commandAdapter, replayDescriptor]) {
      for (const [cap, key, value] of [
        ["turns", "turns", 3],
        ["budget_usd", "budgetUsd", 1],
        ["wall", "wallMs", 1000],
        ["idle", "idleMs", 1000],
      ] as const) {
        const fields = refuse(h, plan({ harness: h.name, caps: { [key]: value } })).map((r) => r.field);
        expect(fields.includes(`caps.${cap}`), `${h.name} ${cap}`).toBe(h.guarantees.caps[cap] === "none");
      }
    }
  });

  test("negative, zero, non-finite and fractional turn caps are refused on every harness", () => {
    const r = refuse(claudeAdapter, plan({ caps: { turns: -1, budgetUsd: 0, wallMs: Number.NaN, idleMs: -5 } }));
    expect(r.map((x) => x.field)).toEqual(["caps.turns", "caps.budget_usd", "caps.wall", "caps.idle"]);
    expect(refuse(claudeAdapter, plan({ caps: { turns: 1.5 } }))[0]!.message).toContain("whole number");
  });

  test("model, tools and permission_mode a harness ignores are refused; values outside its vocabulary too", () => {
    const cmd = refuse(commandAdapter, plan({ harness: "command", model: "m", tools: ["Read"], permissionMode: "plan" }));
    expect(cmd.map((r) => r.field)).toEqual(["model", "tools", "permission_mode"]);
    expect(refuse(codexAdapter, plan({ harness: "codex", tools: [] })).map((r) => r.field)).toEqual(["tools"]);
    const bad = refuse(codexAdapter, plan({ harness: "codex", permissionMode: "acceptEdits" }));
    expect(bad[0]!.message).toContain("read-only, workspace-write, danger-full-access");
    expect(refuse(codexAdapter, plan({ harness: "codex", permissionMode: "workspace-write", model: "gpt-5" }))).toEqual([]);
    expect(refuse(claudeAdapter, plan({ model: "opus", tools: ["Read"], permissionMode: "dontAsk" }))).toEqual([]);
  });

  test("an empty prompt and a missing or relative working directory are refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "vouch-refuse-"));
    writeFileSync(join(dir, "file"), "");
    expect(refuse(claudeAdapter, plan({ prompt: "  \n" }))[0]!.field).toBe("prompt");
    expect(refuse(claudeAdapter, plan({ cwd: join(dir, "nope") }))[0]!.message).toContain("does not exist");
    expect(refuse(claudeAdapter, plan({ cwd: join(dir, "file") }))[0]!.message).toContain("not a directory");
    expect(refuse(claudeAdapter, plan({ cwd: "relative/dir" }))[0]!.message).toContain("not an absolute path");
    expect(refuse(claudeAdapter, plan({ prompt: "do it", cwd: dir }))).toEqual([]);
  });

  test("the runner refuses an unknown harness, a command harness with no program, replay with no folder", () => {
    const runner = createAgentRunner({ parentEnv: {} });
    expect(runner.refuse(plan({ harness: "nope" as never }))[0]!.field).toBe("harness");
    expect(runner.refuse(plan({ harness: "command" }))[0]!.message).toContain("VOUCH_COMMAND");
    expect(runner.refuse(plan({ harness: "replay" }))[0]!.message).toContain("--replay-dir");
    const configured = createAgentRunner({ parentEnv: { VOUCH_COMMAND: '["agent-cmd","--x"]', PATH: STUBS }, replayDir: tmpdir() });
    expect(configured.refuse(plan({ harness: "command" }))).toEqual([]);
    expect(configured.refuse(plan({ harness: "replay" }))).toEqual([]);
  });

  // Issue 27 item 18 (test first: nothing was refused; each sitting then ended error unavailable).
  test("a harness whose program is not on PATH is refused before the run starts, naming it and how to install it", () => {
    const runner = createAgentRunner({ parentEnv: { PATH: "/nonexistent", VOUCH_COMMAND: "no-such-agent-program" } });
    for (const [harness, program, pkg] of [
      ["claude", "claude", "@anthropic-ai/claude-code"],
      ["codex", "codex", "@openai/codex"],
      ["gemini", "gemini", "@google/gemini-cli"],
    ] as const) {
      expect(runner.refuse(plan({ harness }))).toEqual([
        {
          harness,
          field: "harness",
          message: `harness "${harness}": ${program} was not found on PATH (searched /nonexistent): install it (npm install -g ${pkg}) or put it on PATH; vouch doctor checks every harness`,
        },
      ]);
    }
    expect(runner.refuse(plan({ harness: "command" }))[0]!.message).toContain("no-such-agent-program was not found on PATH");
    // On PATH: nothing to say. A sitting that may run on a worker is the worker's to have.
    expect(createAgentRunner({ parentEnv: { PATH: STUBS } }).refuse(plan({ harness: "claude" }))).toEqual([]);
    expect(runner.refuse({ ...plan({ harness: "claude" }), elsewhere: true })).toEqual([]);
  });

  // The acp harness's program is the graph's acp.command[0] (ADR 0051). Test first: after the merge
  // of the acp harness nothing was refused (its descriptor names no binary), and the sitting ended
  // error unavailable once the run was under way.
  test("acp: the program of acp.command not on PATH is refused, with the tested agent's package; a path is the sitting's", () => {
    const runner = createAgentRunner({ parentEnv: { PATH: "/nonexistent" } });
    const acp = (command: string[]) => runner.refuse(plan({ harness: "acp", acp: { command } }));
    expect(acp(["gemini", "--acp"])).toEqual([
      {
        harness: "acp",
        field: "acp.command",
        message:
          'harness "acp": gemini was not found on PATH (searched /nonexistent): install it (npm install -g @google/gemini-cli) or put it on PATH',
      },
    ]);
    expect(acp(["claude-code-acp"])[0]!.message).toContain("npm install -g @zed-industries/claude-code-acp");
    // An untested agent: no package to name, and doctor does not probe ACP agents, so it is not pointed at.
    expect(acp(["my-acp-agent", "--stdio"])[0]!.message).toBe(
      'harness "acp": my-acp-agent was not found on PATH (searched /nonexistent): put it on PATH',
    );
    expect(acp(["./bin/agent"])).toEqual([]);
    expect(runner.refuse({ ...plan({ harness: "acp", acp: { command: ["gemini", "--acp"] } }), elsewhere: true })).toEqual([]);
    expect(
      createAgentRunner({ parentEnv: { PATH: STUBS } }).refuse(plan({ harness: "acp", acp: { command: ["gemini", "--acp"] } })),
    ).toEqual([]);
    // No command at all is the harness's own refusal, said once.
    expect(runner.refuse(plan({ harness: "acp" })).map((r) => r.message)).toEqual([
      expect.stringContaining("needs the agent's command line"),
    ]);
  });

  // The runner found the adapter by key (adapters[harness]): "constructor" found
  // Object, and refuse() threw a TypeError on its missing guarantees.
  test("a harness named like an Object property is unknown, never found on the prototype", () => {
    const runner = createAgentRunner({ parentEnv: {} });
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      const refusals = runner.refuse(plan({ harness: name as never, caps: { turns: 3 } }));
      expect(refusals, name).toEqual([
        { harness: name, field: "harness", message: `unknown harness "${name}": use one of ${HARNESS_NAMES.join(", ")}` },
      ]);
    }
  });
});
