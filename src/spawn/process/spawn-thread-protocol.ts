// The messages between the engine's thread and a spawn worker (spawn-threads.ts,
// spawn-thread-entry.ts): plain data only — what structured clone carries. No callback
// crosses: a process with a line callback or a conversation is never sent (runProcess).
import type { ProcessOptions, ProcessResult } from "../process-types.ts";

/** The options a worker can be given: everything of ProcessOptions that is data. */
export type ThreadOptions = Pick<
  ProcessOptions,
  | "env"
  | "stdin"
  | "stdinFile"
  | "sittingMarker"
  | "wallMs"
  | "idleMs"
  | "stopsItsChildren"
  | "graceMs"
  | "keepBytes"
  | "keepStderrBytes"
  | "maxLineLength"
  | "sandbox"
>;

/** Start this resolved command (argv as resolveStart made it: bubblewrap's for a sealed one). */
export interface ThreadRequest {
  kind: "run";
  id: number;
  argv: string[];
  cwd: string;
  options: ThreadOptions;
}

export type ThreadReply = { kind: "started"; id: number; pid: number } | { kind: "ended"; id: number; result: ProcessResult };
