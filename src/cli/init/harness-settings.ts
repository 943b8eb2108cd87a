// What the starter graph's agent node says for each harness: the settings that
// let it edit files (and, where the harness has a tool list, run the tests), and
// only the caps that harness can keep: a cap it cannot keep is refused before a
// run starts (docs/architecture.md §6), so codex, gemini and the command harness
// get no budget_usd, and the command harness no turns.
import { UsageError } from "../../engine/errors.ts";
import { didYouMean } from "../../engine/graph/did-you-mean.ts";
import { HARNESS_NAMES } from "../../engine/graph/schema.ts";
import type { HarnessName } from "../../engine/ports.ts";

/** One line of YAML (without indentation) and the comment that explains it. */
export type Row = readonly [text: string, comment: string];

export interface HarnessSettings {
  harnessComment: string;
  /** tools / permission_mode lines. */
  rows: Row[];
  /** The sitting's caps as a flow mapping, with the comment saying them in words. */
  caps: Row;
  /** The run-wide caps line. */
  runCaps: Row;
}

const CLAUDE_ROWS: Row[] = [
  ["tools: [Read, Grep, Glob, Edit, Write, Bash]", "what it may use: read, search, edit, and run commands (the tests)"],
  ["permission_mode: acceptEdits", "its edits are accepted without asking (it works in its own worktree)"],
];

export function harnessSettings(harness: HarnessName): HarnessSettings {
  const priced = harness === "claude" || harness === "replay";
  const runCaps: Row = priced
    ? ["caps: { budget_usd: 5, wall: 45m }", "the whole run stops (an error, never a pass) past $5 or 45 minutes"]
    : ["caps: { wall: 45m }", `the whole run stops (an error, never a pass) past 45 minutes (${harness} reports no cost)`];
  switch (harness) {
    case "claude":
    case "replay":
      return {
        harnessComment:
          harness === "claude"
            ? "Claude Code (claude on PATH); codex and gemini work too: vouch harnesses"
            : "plays recorded sittings from vouch.graph.replay/ (demos and tests; claude for real work)",
        rows: CLAUDE_ROWS,
        caps: ["caps: { turns: 40, budget_usd: 3, wall: 30m }", "one sitting stops past 40 turns, $3 or 30 minutes"],
        runCaps,
      };
    case "codex":
      return {
        harnessComment: "the Codex CLI (codex on PATH); vouch harnesses lists the others",
        rows: [["permission_mode: workspace-write", "codex's sandbox: it may write in its folder (its own worktree)"]],
        caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (codex reports no cost)"],
        runCaps,
      };
    case "gemini":
      return {
        harnessComment: "the Gemini CLI (gemini on PATH); vouch harnesses lists the others",
        rows: [["permission_mode: auto_edit", "gemini's approval mode: its edits are accepted without asking"]],
        caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (gemini reports no cost)"],
        runCaps,
      };
    case "acp":
      return {
        harnessComment: "any agent that speaks ACP on stdio, here gemini --acp; vouch harnesses lists the tested agents",
        rows: [
          ["acp: { command: [gemini, --acp] }", "the agent's command line (claude-code-acp, codex-acp, qwen --acp … work too)"],
          ["permission_mode: accept-edits", "vouch answers the agent's permission requests: file edits yes, commands no"],
        ],
        caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (gemini reports no cost)"],
        runCaps,
      };
    case "command":
      return {
        harnessComment: "the program VOUCH_COMMAND names: the prompt on its stdin, its stdout the answer",
        rows: [],
        caps: ["caps: { wall: 30m }", "one sitting stops past 30 minutes (the command harness counts no turns or cost)"],
        runCaps,
      };
  }
}

/** --harness NAME: one of the known harnesses, or a usage error with the closest name. */
export function initHarness(value: string | undefined): HarnessName {
  if (value === undefined) return "claude";
  if ((HARNESS_NAMES as readonly string[]).includes(value)) return value as HarnessName;
  throw new UsageError(
    `--harness "${value}" is not a harness${didYouMean(value, HARNESS_NAMES)}; the harnesses: ${HARNESS_NAMES.join(", ")}`,
    "see: vouch harnesses",
  );
}
