// Stage 1 of runProcess (src/spawn/process.ts): what would keep the command
// from starting, found before anything starts — a missing working directory or
// binary (resolveCommand), an argument or variable over the kernel's limit
// (arg-limits.ts), a run already cancelled. A problem is a result, never a throw.
// A sealed command (options.sandbox, ADR 0040) is resolved as it is, then wrapped:
// bubblewrap binds every path at its own place, so what is found here is what runs.
import type { TerminationReason } from "../../engine/ports.ts";
import { argStringProblem } from "../arg-limits.ts";
import type { Command, ProcessOptions, ProcessResult } from "../process-types.ts";
import { resolveCommand } from "../resolve-command.ts";
import { sealedArgv } from "../sandbox/bwrap-argv.ts";

export type Start = { ok: true; argv: string[]; cwd: string } | { ok: false; result: ProcessResult };

export function resolveStart(command: Command, options: Pick<ProcessOptions, "cwd" | "env" | "signal" | "sandbox">): Start {
  const resolved = resolveCommand(command, options.cwd, options.env);
  if (!resolved.ok) return { ok: false, result: notStarted("spawn_failed", 0, resolved.error) };
  let argv = resolved.argv;
  try {
    if (options.sandbox) argv = sealedArgv(options.sandbox, resolved.cwd, resolved.argv);
  } catch (e) {
    return { ok: false, result: notStarted("spawn_failed", 0, `could not seal ${resolved.argv[0]}: ${(e as Error).message}`) };
  }
  const tooLong = argStringProblem(argv, options.env);
  if (tooLong) return { ok: false, result: notStarted("spawn_failed", 0, `could not start ${resolved.argv[0]}: ${tooLong}`) };
  if (options.signal?.aborted) return { ok: false, result: notStarted("cancelled", 0) };
  return { ok: true, argv, cwd: resolved.cwd };
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
