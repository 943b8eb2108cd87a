// The contract of the process seam: what `runProcess` (src/spawn/process.ts,
// the only file that starts processes) takes and returns. Harness adapters and
// the check runner code against these types.
import type { ScriptOutcome } from "../engine/ports.ts";
import type { ProcessSupervisor } from "./process-registry.ts";
import type { SandboxSpec } from "./sandbox/spec.ts";

export type Command = { argv: string[] } | { shell: string };

/** A child's stdin kept open for a conversation (an ACP agent's JSON-RPC): bytes go to it as written. */
export interface StdinSink {
  write(chunk: Uint8Array | string): void;
  /** Closes stdin: the child reads the end of its input. Writing after it, or after the child died, does nothing. */
  end(): void;
}

export interface ProcessOptions {
  /** Absolute or relative working directory; must exist (checked before spawning). */
  cwd: string;
  /** The complete child environment (build it with buildChildEnv). */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed. Absent: stdin is closed at once. */
  stdin?: string;
  /** Keeps stdin open for a conversation: called once the child started, with a writer to its
   *  stdin (ADR 0051). Instead of stdin and stdinFile. */
  conversation?: (stdin: StdinSink) => void;
  /** The VOUCH_SITTING value put in the child's environment (an agent sitting's): every process
   *  still carrying it dies with the child, whatever session it went to (src/spawn/process/strays.ts). */
  sittingMarker?: string;
  /** A file whose contents are stdin (instead of stdin): no in-memory copy, and no memfd
   *  per process left waiting for garbage collection (test/load/load.test.ts). */
  stdinFile?: string;
  /** Wall cap: the whole group is killed when it is crossed. */
  wallMs?: number;
  /** Idle cap: killed when neither stream printed anything for this long. */
  idleMs?: number;
  /** Cancels the process (terminationReason "cancelled"). */
  signal?: AbortSignal;
  /** The child is vouch itself (an MCP server's `vouch run`): on SIGTERM it stops its own children
   *  and records its end, so a stop sends SIGTERM to its group only; what it started in other
   *  sessions is SIGKILLed only if it is still there when the grace is over or the child exited. */
  stopsItsChildren?: boolean;
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
  /** A stdout line that is no progress (a CLI's "Reconnecting…" or retry notice): it does not
   *  count as output for the idle cap or the longest silence (ADR 0050). Given, stdout counts
   *  by complete lines, not by bytes. */
  quietLine?: (line: string) => boolean;
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
  /** Processes outside the child's group vouch killed with it (a detached shell's, strays.ts). */
  straysKilled?: number;
}
