// The contract of the process seam: what `runProcess` (src/spawn/process.ts,
// the only file that starts processes) takes and returns. Harness adapters and
// the check runner code against these types.
import type { ScriptOutcome } from "../engine/ports.ts";
import type { ProcessSupervisor } from "./process-registry.ts";
import type { SandboxSpec } from "./sandbox/spec.ts";

export type Command = { argv: string[] } | { shell: string };

export interface ProcessOptions {
  /** Absolute or relative working directory; must exist (checked before spawning). */
  cwd: string;
  /** The complete child environment (build it with buildChildEnv). */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed. Absent: stdin is closed at once. */
  stdin?: string;
  /** A file whose contents are stdin (instead of stdin): no in-memory copy, and no memfd
   *  per process left waiting for garbage collection (test/load/load.test.ts). */
  stdinFile?: string;
  /** Wall cap: the whole group is killed when it is crossed. */
  wallMs?: number;
  /** Idle cap: killed when neither stream printed anything for this long. */
  idleMs?: number;
  /** Cancels the process (terminationReason "cancelled"). */
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL to the group. Default DEFAULT_GRACE_MS (2000 ms, process/terminate.ts). */
  graceMs?: number;
  /** Bytes kept of each stream's end. Default 64 KiB. */
  keepBytes?: number;
  /** Bytes kept of stderr's end when it should differ from stdout's. Default keepBytes. */
  keepStderrBytes?: number;
  /** Longest line handed to a callback, in characters; longer lines arrive cut (cut = true). Default 1 Mi. */
  maxLineLength?: number;
  /** Called for each complete line (without its "\n"), and a final partial line, as it arrives. */
  onStdoutLine?: (line: string, cut: boolean) => void;
  onStderrLine?: (line: string, cut: boolean) => void;
  /** Who owns the process group while it lives (the session's). Absent: a
   *  supervisor of its own, which still kills it if vouch exits first. */
  supervisor?: ProcessSupervisor;
  /** Seal the process (ADR 0040): it runs under bubblewrap with only these paths writable, in a pid
   *  namespace of its own, so nothing it starts outlives it. Absent: unsealed. */
  sandbox?: SandboxSpec;
}

/** A command's end (ScriptOutcome, the engine's view of it) and what only the seam measures. */
export interface ProcessResult extends ScriptOutcome {
  /** Longest time with no output on either stream. */
  longestSilenceMs: number;
  pid?: number;
}
