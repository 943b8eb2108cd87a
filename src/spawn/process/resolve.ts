// Stage 1 of runProcess (src/spawn/process.ts): what would keep the command
// from starting, found before anything starts — a missing working directory or
// binary (resolveCommand), an argument or variable over the kernel's limit
// (arg-limits.ts), a run already cancelled. A problem is a result, never a throw.
import type { TerminationReason } from "../../engine/ports.ts";
import { argStringProblem } from "../arg-limits.ts";
import type { Command, ProcessOptions, ProcessResult } from "../process-types.ts";
import { resolveCommand } from "../resolve-command.ts";

export type Start = { ok: true; argv: string[]; cwd: string } | { ok: false; result: ProcessResult };

export function resolveStart(command: Command, options: Pick<ProcessOptions, "cwd" | "env" | "signal">): Start {
  const resolved = resolveCommand(command, options.cwd, options.env);
  if (!resolved.ok) return { ok: false, result: notStarted("spawn_failed", 0, resolved.error) };
  const tooLong = argStringProblem(resolved.argv, options.env);
  if (tooLong) return { ok: false, result: notStarted("spawn_failed", 0, `could not start ${resolved.argv[0]}: ${tooLong}`) };
  if (options.signal?.aborted) return { ok: false, result: notStarted("cancelled", 0) };
  return resolved;
}

/** The result of a command that never started. */
export function notStarted(reason: TerminationReason, wallMs: number, spawnError?: string): ProcessResult {
  return {
    exit: null,
    signal: null,
    terminationReason: reason,
    wallMs,
    stdoutTail: "",
    stderrTail: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    truncated: false,
    longestSilenceMs: 0,
    ...(spawnError === undefined ? {} : { spawnError }),
  };
}
