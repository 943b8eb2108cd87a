// What each adapter asks the spawn seam to run: argv, stdin, supervision.
import { describe, expect, test } from "vitest";
import { buildClaudeCommand } from "../../src/spawn/harness/claude/adapter.ts";
import { buildCodexCommand } from "../../src/spawn/harness/codex/adapter.ts";
import { buildGeminiCommand, GEMINI_PROMPT_FLAG_TEXT } from "../../src/spawn/harness/gemini/adapter.ts";
import { buildCommandHarnessCommand, commandArgvFromEnv } from "../../src/spawn/harness/command/adapter.ts";
import { flagNumber } from "../../src/spawn/harness/common/argv-format.ts";
import { SpawnError } from "../../src/engine/errors.ts";
import type { AgentAssignment } from "../../src/engine/ports.ts";

const PROMPT = "--help; $(rm -rf ~) `id` 'quoted' \"double\"\nsecond line";
const a = (p: Partial<AgentAssignment> = {}): AgentAssignment => ({
  runId: "r",
  node: "n",
  attempt: 1,
  harness: "claude",
  prompt: PROMPT,
  cwd: "/tmp",
  passEnv: [],
  caps: {},
  output: { format: "text" },
  ...p,
});

describe("claude command", () => {
  test("print mode, stream-json with --verbose, caps as native flags, tools in the = form, prompt on stdin only", () => {
    const cmd = buildClaudeCommand(
      a({
        model: "opus",
        tools: ["Read", "Bash(git diff:*)"],
        permissionMode: "dontAsk",
        caps: { turns: 8, budgetUsd: 0.5, wallMs: 60_000, idleMs: 5000 },
      }),
    );
    expect(cmd.argv).toEqual([
      "claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model=opus",
      "--max-turns",
      "8",
      "--max-budget-usd",
      "0.5",
      "--tools=Read,Bash",
      "--allowedTools=Read,Bash(git diff:*)",
      "--permission-mode=dontAsk",
    ]);
    expect(cmd.stdin).toBe(PROMPT);
    expect(cmd.wallMs).toBe(60_000);
    expect(cmd.idleMs).toBe(5000);
    expect(cmd.argv.join(" ")).not.toContain("rm -rf");
  });

  test("tools: [] means no tools at all (--tools= empty, nothing pre-approved); no tools key means Claude's own defaults", () => {
    const none = buildClaudeCommand(a({ tools: [] }));
    expect(none.argv).toContain("--tools=");
    expect(none.argv.some((x) => x.startsWith("--allowedTools"))).toBe(false);
    const unset = buildClaudeCommand(a());
    expect(unset.argv.some((x) => x.startsWith("--tools") || x.startsWith("--allowedTools"))).toBe(false);
  });

  test("never --fallback-model; no cap flags when no caps", () => {
    const cmd = buildClaudeCommand(a({ model: "sonnet" }));
    expect(cmd.argv.some((x) => x.includes("fallback"))).toBe(false);
    expect(cmd.argv.some((x) => x.startsWith("--max-"))).toBe(false);
    expect(cmd.wallMs).toBeUndefined();
  });
});

describe("codex, gemini and command commands", () => {
  test("codex: exec --json, outside git too, prompt on stdin via '-', sandbox from permission_mode, wall supervised", () => {
    const cmd = buildCodexCommand(
      a({ harness: "codex", model: "gpt-5", permissionMode: "workspace-write", caps: { turns: 3, wallMs: 1000 } }),
    );
    expect(cmd.argv).toEqual(["codex", "exec", "--json", "--skip-git-repo-check", "--model=gpt-5", "--sandbox=workspace-write", "-"]);
    expect(cmd.stdin).toBe(PROMPT);
    expect(cmd.wallMs).toBe(1000);
  });

  test("gemini: stream-json, the chosen folder trusted, prompt on stdin, a fixed -p text", () => {
    const cmd = buildGeminiCommand(a({ harness: "gemini", model: "gemini-2.5-pro", permissionMode: "auto_edit", caps: { idleMs: 2000 } }));
    expect(cmd.argv).toEqual([
      "gemini",
      "--output-format",
      "stream-json",
      "--skip-trust",
      "--model=gemini-2.5-pro",
      "--approval-mode=auto_edit",
      "-p",
      GEMINI_PROMPT_FLAG_TEXT,
    ]);
    expect(cmd.stdin).toBe(PROMPT);
    expect(cmd.idleMs).toBe(2000);
  });

  test("command: the configured argv, prompt on stdin, a large stdout tail; no program is a SpawnError", () => {
    const cmd = buildCommandHarnessCommand(a({ harness: "command", caps: { wallMs: 10 } }), { commandArgv: ["./agent.sh", "--fast"] });
    expect(cmd.argv).toEqual(["./agent.sh", "--fast"]);
    expect(cmd.stdin).toBe(PROMPT);
    expect(cmd.keepBytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(cmd.wallMs).toBe(10);
    expect(() => buildCommandHarnessCommand(a({ harness: "command" }), {})).toThrow(SpawnError);
  });

  test("VOUCH_COMMAND: a JSON argv array or one program path; a bad array is ignored", () => {
    expect(commandArgvFromEnv({ VOUCH_COMMAND: '["bun","agent.ts"]' })).toEqual(["bun", "agent.ts"]);
    expect(commandArgvFromEnv({ VOUCH_COMMAND: "/usr/local/bin/my agent" })).toEqual(["/usr/local/bin/my agent"]);
    expect(commandArgvFromEnv({ VOUCH_COMMAND: "[1,2]" })).toBeUndefined();
    expect(commandArgvFromEnv({})).toBeUndefined();
  });

  test("flag numbers never use exponent form", () => {
    expect(flagNumber(0.0000001)).toBe("0.0000001");
    expect(flagNumber(0.5)).toBe("0.5");
    expect(flagNumber(12)).toBe("12");
  });
});

describe("values that start with - are never a flag of their own (issue 12)", () => {
  const hostile = {
    model: "--yolo",
    tools: ["--dangerously-skip-permissions"],
    permissionMode: "--dangerously-bypass-approvals-and-sandbox",
  };
  const builds = {
    claude: () => buildClaudeCommand(a(hostile)).argv,
    codex: () => buildCodexCommand(a({ ...hostile, harness: "codex" })).argv,
    gemini: () => buildGeminiCommand(a({ ...hostile, harness: "gemini" })).argv,
  };
  test.each(Object.keys(builds))("%s: every value sits after a = in its own flag", (name) => {
    const argv = builds[name as keyof typeof builds]();
    for (const value of [hostile.model, hostile.permissionMode, hostile.tools[0]!]) {
      expect(argv).not.toContain(value);
    }
    expect(argv.filter((x) => x.endsWith("=--yolo"))).toHaveLength(1);
    expect(argv.filter((x) => x.endsWith(`=${hostile.permissionMode}`))).toHaveLength(1);
  });
});
