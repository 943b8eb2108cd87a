// The messages between the engine's thread and a spawn worker (spawn-threads.ts,
// spawn-thread-entry.ts): plain data only — what structured clone carries. No callback
// crosses: a process with a line callback or a conversation is never sent (runProcess).
import type { ProcessOptions, ProcessResult } from "../process-types.ts";

/** The options a worker can be given: everything of ProcessOptions that is data. */
/** The options that cross to a worker: data only (structured clone carries no function, no
 *  signal, no supervisor). One list, read by the type and by threadOptions (on-thread.ts). */
export const THREAD_OPTION_KEYS = [
  "env",
  "stdin",
  "stdinFile",
  "sittingMarker",
  "wallMs",
  "idleMs",
  "stopsItsChildren",
  "graceMs",
  "keepBytes",
  "keepStderrBytes",
  "maxLineLength",
  "sandbox",
] as const satisfies readonly (keyof ProcessOptions)[];
export type ThreadOptions = Pick<ProcessOptions, (typeof THREAD_OPTION_KEYS)[number]>;

/** Start this resolved command (argv as resolveStart made it: bubblewrap's for a sealed one). */
export interface ThreadRequest {
  kind: "run";
  id: number;
  /** Where in the pool's shared pid slots (PID_SLOTS) the worker stores the pid the moment the
   *  child exists, before its "started" message: the engine's thread reads it at exit. */
  slot: number;
  argv: string[];
  cwd: string;
  options: ThreadOptions;
}

/** How many pid slots a pool shares with its workers (a request's slot is FIRST_SLOT + its id
 *  modulo this: a slot is read only until its "started" message arrives, long before ids wrap). */
export const PID_SLOTS = 4096;
/** Before the pid slots: how many starts a worker is inside right now, and the exit flag (set,
 *  no worker starts anything more). vouch's exit hook sets the flag, waits for the count to reach
 *  0, then kills what the slots name (spawn-threads.ts). */
export const SPAWNING = 0;
export const EXITING = 1;
export const FIRST_SLOT = 2;

/** Sent once to each worker as it is made: the pool's pid slots (an Int32Array's buffer). */
export interface ThreadSlots {
  kind: "slots";
  buffer: SharedArrayBuffer;
}

export type ThreadReply = { kind: "started"; id: number; pid: number } | { kind: "ended"; id: number; result: ProcessResult };

/** Starts a spawn worker from its entry file (`startSpawnThread` in src/spawn/process.ts). */
export type ThreadStarter = (entry: string) => Worker;
