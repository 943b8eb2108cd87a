// The generic `command` harness: any program, given by the runner's
// `commandArgv` option (or VOUCH_COMMAND). The prompt goes on stdin; the
// result is stdout (stream.ts). The program reports nothing structured, so the
// only caps it can keep are wall and idle, supervised by the spawn seam; turns
// and budget are refused. It has no sessions, no tested version and no probe:
// the program is the user's.
import type { AgentAssignment } from "../../../engine/ports.ts";
import { SpawnError } from "../../../engine/errors.ts";
import { SESSION_SUPPORT } from "../../../engine/harnesses.ts";
import { supervision } from "../common/argv-format.ts";
import type { BuildContext, Guarantees, HarnessAdapter, HarnessCommand } from "../types.ts";
import { createCommandParser } from "./stream.ts";

export const COMMAND_GUARANTEES: Guarantees = {
  caps: { turns: "none", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: false,
  tools: false,
  permissionMode: false,
};

/** stdout kept for the result text (a longer output keeps its end and is flagged truncated). */
export const COMMAND_RESULT_BYTES = 1024 * 1024;

/** `VOUCH_COMMAND` names the program: a JSON array of strings, or one program path. */
export function commandArgvFromEnv(env: Readonly<Record<string, string | undefined>>): string[] | undefined {
  const raw = env.VOUCH_COMMAND?.trim();
  if (!raw) return undefined;
  if (raw.startsWith("[")) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((p) => typeof p === "string" && p !== "")) return parsed as string[];
    } catch {
      // fall through: not an array, so treat it as a program path
    }
    return undefined;
  }
  return [raw];
}

export const MISSING_COMMAND = 'the "command" harness has no program to run';

export function buildCommandHarnessCommand(a: AgentAssignment, ctx: BuildContext): HarnessCommand {
  const argv = ctx.commandArgv;
  if (!argv || argv.length === 0) {
    throw new SpawnError(MISSING_COMMAND, 'set VOUCH_COMMAND to a program path, or to a JSON array such as ["my-agent", "--flag"]');
  }
  return { argv: [...argv], stdin: a.prompt, keepBytes: COMMAND_RESULT_BYTES, ...supervision(COMMAND_GUARANTEES, a) };
}

export const commandAdapter: HarnessAdapter = {
  name: "command",
  starter: {
    comment: "the program VOUCH_COMMAND names: the prompt on its stdin, its stdout the answer",
    rows: [],
    caps: ["caps: { wall: 30m }", "one sitting stops past 30 minutes (the command harness counts no turns or cost)"],
  },
  binary: null,
  protocol: "text",
  guarantees: COMMAND_GUARANTEES,
  sessions: SESSION_SUPPORT.command,
  programFrom: (env) => commandArgvFromEnv(env)?.[0] ?? null,
  noProgram: "no program: set VOUCH_COMMAND",
  unready: (ctx) =>
    !ctx.commandArgv || ctx.commandArgv.length === 0
      ? "no program to run: set VOUCH_COMMAND to a program path or a JSON array of argv"
      : null,
  buildCommand: buildCommandHarnessCommand,
  createParser: () => createCommandParser(),
};
