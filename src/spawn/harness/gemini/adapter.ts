// The Gemini CLI adapter: `gemini --output-format stream-json -p TEXT`. The
// prompt goes on stdin (docs/architecture.md §7: prompts may carry model text, so they
// stay off the command line); `-p` is required for headless mode and its
// value is appended to stdin, so it carries one fixed sentence. Gemini has no
// turn or budget flag and reports no cost: turns are counted from the stream
// (stream.ts) and supervised by the runner's backstop; a budget cap is
// refused. vouch chose the working folder, so it trusts it for the sitting
// (--skip-trust, ADR 0018): gemini otherwise exits 55 in any folder it was not
// told to trust.
import { SpawnError } from "../../../engine/errors.ts";
import type { AgentAssignment } from "../../../engine/ports.ts";
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { supervision } from "../common/argv-format.ts";
import { checkedSessionId } from "../common/session-id.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, SessionToContinue } from "../types.ts";
import { geminiProbe } from "./probe.ts";
import { createGeminiParser } from "./stream.ts";
import { geminiTranscripts } from "./transcripts.ts";
import { join } from "node:path";

export const GEMINI_GUARANTEES: Guarantees = {
  caps: { turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: true,
  tools: false,
  permissionMode: true,
};

/** `gemini --approval-mode` choices. */
export const GEMINI_APPROVAL_MODES = ["default", "auto_edit", "yolo", "plan"] as const;

/** The fixed `-p` text; the real prompt comes first, on stdin. */
export const GEMINI_PROMPT_FLAG_TEXT = "Carry out the task given above.";

/** `--resume=<id>`; gemini 0.61.0 has no fork. */
export function geminiSessionArgs(s: SessionToContinue | undefined): string[] {
  if (!s) return [];
  if (s.mode === "fork")
    throw new SpawnError("gemini cannot fork a session", "use session: { continue: NODE }, or a harness that forks (claude, codex)");
  return [`--resume=${checkedSessionId(s, "gemini")}`];
}

export function buildGeminiCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["gemini", "--output-format", "stream-json", "--skip-trust"];
  // Values always in the `=` form: yargs reads `-m --yolo` as the yolo flag,
  // `--model=--yolo` as the model "--yolo" (ADR 0019).
  if (a.model !== undefined) argv.push(`--model=${a.model}`);
  if (a.permissionMode !== undefined) argv.push(`--approval-mode=${a.permissionMode}`);
  argv.push(...geminiSessionArgs(a.session));
  argv.push("-p", GEMINI_PROMPT_FLAG_TEXT);
  return { argv, stdin: a.prompt, ...supervision(GEMINI_GUARANTEES, a) };
}

export const geminiAdapter: HarnessAdapter = {
  name: "gemini",
  starter: {
    comment: "the Gemini CLI (gemini on PATH); vouch harnesses lists the others",
    rows: [["permission_mode: auto_edit", "gemini's approval mode: its edits are accepted without asking"]],
    caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (gemini reports no cost)"],
  },
  binary: "gemini",
  protocol: "json-stream",
  guarantees: GEMINI_GUARANTEES,
  permissionModes: GEMINI_APPROVAL_MODES,
  sessions: SESSION_SUPPORT.gemini,
  readOnly: { permission_mode: "plan" },
  testedVersion: { package: "@google/gemini-cli", version: "0.61.0" },
  probe: geminiProbe,
  transcripts: geminiTranscripts,
  // What the CLI writes besides the tree (ADR 0040): settings, sessions, transcripts (~/.gemini).
  stateDirs: (env) => (env.HOME ? [join(env.HOME, ".gemini")] : []),
  sessionArgs: geminiSessionArgs,
  buildCommand: buildGeminiCommand,
  createParser: () => createGeminiParser(),
};
