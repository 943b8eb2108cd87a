// The Claude Code adapter (docs/architecture.md §9): print mode, stream-json with
// --verbose (required by print mode), the prompt on stdin (flags such as
// --allowedTools swallow a positional prompt), native turn and budget caps,
// a tools list as both --tools (what exists) and --allowedTools (what is
// pre-approved), never --fallback-model (it would change the model a verdict
// was reached with). Its stream is read by stream.ts, its limits by limit.ts,
// its argument parser by probe.ts; transcripts.ts says where it keeps sessions.
import { claudeStateDirs, claudeStateFiles } from "../common/claude-state.ts";
import { quietEvent } from "../common/quiet-line.ts";
import type { AgentAssignment } from "../../../engine/ports.ts";
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { budgetToKeep, flagNumber, supervision } from "../common/argv-format.ts";
import { checkedSessionId } from "../common/session-id.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, SessionToContinue, StarterSettings } from "../types.ts";
import { claudeProbe } from "./probe.ts";
import { carryCost } from "./session-cost.ts";
import { createClaudeParser } from "./stream.ts";
import { claudeTranscripts } from "./transcripts.ts";

export const CLAUDE_GUARANTEES: Guarantees = {
  caps: { turns: "native", budget_usd: "native", wall: "supervised", idle: "supervised" },
  model: true,
  tools: true,
  permissionMode: true,
};

/** `claude --permission-mode` choices, as the pinned claude (clis/package.json) lists them, plus `default`, which it still accepts. */
export const CLAUDE_PERMISSION_MODES = ["default", "acceptEdits", "auto", "bypassPermissions", "manual", "dontAsk", "plan"] as const;

/** Read-only for the planner: tools that only read, and every other tool call refused without asking. */
export const CLAUDE_READ_ONLY = { tools: ["Read", "Glob", "Grep"], permission_mode: "dontAsk" } as const;

/** `--resume=<id> [--fork-session]`; the `=` form: commander reads the value whatever it looks like. */
export function claudeSessionArgs(s: SessionToContinue | undefined): string[] {
  if (!s) return [];
  const args = [`--resume=${checkedSessionId(s, "claude")}`];
  if (s.mode === "fork") args.push("--fork-session");
  return args;
}

export function buildClaudeCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["claude", "-p", "--output-format", "stream-json", "--verbose", ...claudeSessionArgs(a.session)];
  // Values always in the `=` form: a value can never be read as a flag (ADR 0019).
  if (a.model !== undefined) argv.push(`--model=${a.model}`);
  if (a.caps.turns !== undefined) argv.push("--max-turns", flagNumber(a.caps.turns));
  const budget = budgetToKeep(a);
  if (budget !== undefined) argv.push("--max-budget-usd", flagNumber(budget));
  // The `=` form: a multi-value flag must not swallow what follows it.
  // --tools restricts which built-in tools exist at all (base names; [] = none);
  // --allowedTools only pre-approves them (rules such as Bash(git diff:*) kept whole).
  if (a.tools !== undefined) {
    argv.push(`--tools=${[...new Set(a.tools.map(baseToolName))].join(",")}`);
    if (a.tools.length > 0) argv.push(`--allowedTools=${a.tools.join(",")}`);
  }
  if (a.permissionMode !== undefined) argv.push(`--permission-mode=${a.permissionMode}`);
  return { argv, stdin: a.prompt, ...supervision(CLAUDE_GUARANTEES, a) };
}

/** "Bash(git diff:*)" → "Bash": a permission rule names its tool before the parenthesis. */
export function baseToolName(rule: string): string {
  const open = rule.indexOf("(");
  return (open < 0 ? rule : rule.slice(0, open)).trim();
}

/** claude retrying a failed API request: `{"type":"system","subtype":"api_retry",…}`. */
export function claudeQuietLine(line: string): boolean {
  return quietEvent(line, ['"api_retry"'], (e) => e.type === "system" && e.subtype === "api_retry");
}

/** What `vouch init` writes for claude (replay, which plays claude recordings, says the same but its comment). */
export const CLAUDE_STARTER: StarterSettings = {
  comment: "Claude Code (claude on PATH); codex and gemini work too: vouch harnesses",
  rows: [
    ["tools: [Read, Grep, Glob, Edit, Write, Bash]", "what it may use: read, search, edit, and run commands (the tests)"],
    ["permission_mode: acceptEdits", "its edits are accepted without asking (it works in its own worktree)"],
  ],
  caps: ["caps: { turns: 40, budget_usd: 3, wall: 30m }", "one sitting stops past 40 turns, $3 or 30 minutes"],
};

export const claudeAdapter: HarnessAdapter = {
  name: "claude",
  starter: CLAUDE_STARTER,
  binary: "claude",
  protocol: "json-stream",
  guarantees: CLAUDE_GUARANTEES,
  permissionModes: CLAUDE_PERMISSION_MODES,
  sessions: SESSION_SUPPORT.claude,
  readOnly: CLAUDE_READ_ONLY,
  testedVersion: { package: "@anthropic-ai/claude-code", version: "2.1.332" },
  probe: claudeProbe,
  transcripts: claudeTranscripts,
  // What the CLI writes besides the tree (ADR 0040): settings, sessions, transcripts.
  stateDirs: claudeStateDirs,
  stateFiles: claudeStateFiles,
  sessionArgs: claudeSessionArgs,
  buildCommand: buildClaudeCommand,
  // A resumed session's total_cost_usd counts its earlier sittings: report this sitting's own.
  createParser: (a) => carryCost(createClaudeParser(), a.session?.carriedCostUsd),
  quietLine: claudeQuietLine,
};
