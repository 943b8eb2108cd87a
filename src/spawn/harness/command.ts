// The generic `command` harness: any program, given by the runner's
// `commandArgv` option (or VOUCH_COMMAND). The prompt goes on stdin; the
// result is stdout. The program reports nothing structured, so the only caps
// it can keep are wall and idle, supervised by the spawn seam; turns and
// budget are refused. The exit status is recorded, not judged here: the
// engine's exit_zero part fails a non-zero exit as `nonzero_exit`.
import type { AgentAssignment, SittingProgress } from "../../engine/ports.ts";
import { SpawnError } from "../../engine/errors.ts";
import { lastLine } from "./json-documents.ts";
import { supervision } from "./argv-format.ts";
import { SESSION_SUPPORT } from "../../engine/sessions.ts";
import type { BuildContext, Guarantees, HarnessAdapter, HarnessCommand, ParsedSitting, StreamEnd, StreamParser } from "./types.ts";

export const COMMAND_GUARANTEES: Guarantees = {
  caps: { turns: "none", budget_usd: "none", wall: "supervised", idle: "supervised" },
  model: false,
  tools: false,
  permissionMode: false,
};

/** stdout kept for the result text (a longer output keeps its end and is flagged truncated). */
export const COMMAND_RESULT_BYTES = 1024 * 1024;

/** `VOUCH_COMMAND` names the program: a JSON array of strings, or one program path. */
export function commandArgvFromEnv(env: Record<string, string | undefined>): string[] | undefined {
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

export function createCommandParser(): StreamParser {
  let activity: string | undefined;
  const progress = (): SittingProgress => (activity !== undefined ? { activity } : {});
  return {
    feed(line) {
      const text = lastLine(line, 120);
      if (text === "") return null;
      activity = text;
      return progress();
    },
    progress,
    finish(end: StreamEnd): ParsedSitting {
      const base = { resultText: end.stdoutTail, turns: null, costUsd: null, tokens: null, permissionDenials: 0 };
      // Killed by a signal the engine did not send (the runner handles its own kills).
      if (end.exit === null) {
        const stderr = lastLine(end.stderrTail);
        return {
          ...base,
          stopReason: "crashed",
          error: `the program was killed by ${end.signal ?? "a signal"}${stderr ? `: ${stderr}` : ""}`,
        };
      }
      return { ...base, stopReason: "complete" };
    },
  };
}

export const commandAdapter: HarnessAdapter = {
  name: "command",
  binary: null,
  protocol: "text",
  guarantees: COMMAND_GUARANTEES,
  sessions: SESSION_SUPPORT.command,
  buildCommand: buildCommandHarnessCommand,
  createParser: () => createCommandParser(),
};
