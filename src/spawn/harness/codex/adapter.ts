// The Codex CLI adapter: `codex exec --json -` with the prompt on stdin (then
// closed), so model text never sits on a command line and nothing blocks on
// "Reading additional input from stdin". Codex has no turn or budget flag and
// reports no cost: turns are counted from the stream (stream.ts, turns.ts) and
// supervised by the runner's backstop; a budget cap is refused. permission_mode
// takes Codex's own sandbox names (-s). vouch chose the working folder, so it
// passes --skip-git-repo-check (ADR 0018): codex otherwise refuses any folder
// outside a git repository.
import type { AgentAssignment } from "../../../engine/ports.ts";
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { supervision } from "../common/argv-format.ts";
import { quietEvent } from "../common/quiet-line.ts";
import { checkedSessionId } from "../common/session-id.ts";
import type { Guarantees, HarnessAdapter, HarnessCommand, SessionToContinue } from "../types.ts";
import { codexProbe } from "./probe.ts";
import { createCodexParser } from "./stream.ts";
import { codexTranscripts } from "./transcripts.ts";
import { cliHome } from "../common/store-files.ts";

export const CODEX_GUARANTEES: Guarantees = {
  caps: { turns: "supervised", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: true,
  tools: false,
  permissionMode: true,
};

export const CODEX_SANDBOX_MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

/** `exec … resume -- <id> -` | `exec … fork -- <id> -`: the subcommand and its id, placed
 *  after exec's own options and before the prompt's "-". `--` ends option parsing: the id
 *  is a positional whatever it looks like. */
export function codexSessionArgs(s: SessionToContinue | undefined): string[] {
  if (!s) return [];
  return [s.mode === "fork" ? "fork" : "resume", "--", checkedSessionId(s, "codex")];
}

export function buildCodexCommand(a: AgentAssignment): HarnessCommand {
  const argv = ["codex", "exec", "--json", "--skip-git-repo-check"];
  // Values always in the `=` form (clap reads --model=--x as the value "--x"):
  // a value can never be read as a flag (ADR 0019).
  if (a.model !== undefined) argv.push(`--model=${a.model}`);
  if (a.permissionMode !== undefined) argv.push(`--sandbox=${a.permissionMode}`);
  // resume/fork is exec's subcommand: after exec's options, before the prompt.
  argv.push(...codexSessionArgs(a.session));
  argv.push("-"); // read the prompt from stdin
  return { argv, stdin: a.prompt, ...supervision(CODEX_GUARANTEES, a) };
}

/** codex waiting for the network or retrying a request: `{"type":"error","message":"Reconnecting... …"}`. */
export function codexQuietLine(line: string): boolean {
  return quietEvent(
    line,
    ['"error"', "Reconnecting"],
    (e) => e.type === "error" && typeof e.message === "string" && e.message.startsWith("Reconnecting"),
  );
}

export const codexAdapter: HarnessAdapter = {
  name: "codex",
  starter: {
    comment: "the Codex CLI (codex on PATH); vouch harnesses lists the others",
    rows: [["permission_mode: workspace-write", "codex's sandbox: it may write in its folder (its own worktree)"]],
    caps: ["caps: { turns: 40, wall: 30m }", "one sitting stops past 40 turns or 30 minutes (codex reports no cost)"],
  },
  binary: "codex",
  protocol: "json-stream",
  guarantees: CODEX_GUARANTEES,
  permissionModes: CODEX_SANDBOX_MODES,
  sessions: SESSION_SUPPORT.codex,
  readOnly: { permission_mode: "read-only" },
  testedVersion: { package: "@openai/codex", version: "0.171.0" },
  probe: codexProbe,
  transcripts: codexTranscripts,
  // What the CLI writes besides the tree (ADR 0040): settings, sessions, transcripts.
  stateDirs: (env) => {
    const dir = cliHome(env, "CODEX_HOME", ".codex");
    return dir === null ? [] : [dir];
  },
  sessionArgs: codexSessionArgs,
  buildCommand: buildCodexCommand,
  createParser: (_a, ctx) => createCodexParser(ctx),
  quietLine: codexQuietLine,
};
