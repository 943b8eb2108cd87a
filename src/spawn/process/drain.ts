// Reading a child's two streams to their end (StreamPump: bytes counted, a
// bounded tail kept, lines handed on) and, after the leader exited, letting the
// pipes close: a descendant that left the group is still in the child's session
// and is killed there; only one that left the session (its own setsid) can hold
// a pipe longer, and then the reading is stopped instead.
import { signalSessions } from "../process-registry.ts";
import type { ProcessOptions } from "../process-types.ts";
import { StreamPump } from "../stream-pump.ts";
import type { Activity } from "./timers.ts";

export const DEFAULT_KEEP_BYTES = 64 * 1024;
export const DEFAULT_MAX_LINE_LENGTH = 1024 * 1024;
/** After the leader exits and the group is killed, how long the pipes may take to
 *  close. Only a process that left the group (setsid) can hold them longer. */
export const DRAIN_MS = 1000;

export interface Pumps {
  stdout: StreamPump;
  stderr: StreamPump;
}

/** @param callbackFailed a line callback threw: the consumer is broken, stop the group (then rethrow) */
export function openPumps(options: ProcessOptions, activity: Activity, callbackFailed: () => void): Pumps {
  const keepBytes = options.keepBytes ?? DEFAULT_KEEP_BYTES;
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const saw = () => activity.saw();
  const quiet = options.quietLine;
  if (quiet !== undefined) {
    // Progress, not bytes: a line counts as output unless the harness calls it quiet.
    const onLine = (line: string, cut: boolean) => {
      if (!quiet(line)) activity.saw();
      options.onStdoutLine?.(line, cut);
    };
    return {
      stdout: new StreamPump(keepBytes, maxLine, () => {}, onLine, callbackFailed),
      stderr: new StreamPump(options.keepStderrBytes ?? keepBytes, maxLine, saw, options.onStderrLine, callbackFailed),
    };
  }
  return {
    stdout: new StreamPump(keepBytes, maxLine, saw, options.onStdoutLine, callbackFailed),
    stderr: new StreamPump(options.keepStderrBytes ?? keepBytes, maxLine, saw, options.onStderrLine, callbackFailed),
  };
}

/** Waits for the reading to end once the leader exited and its group was killed.
 *  @param stoppedByVouch vouch stopped the child (a cap, a cancel): its whole session dies
 *  @param pipesClosed whether both streams have already ended: then no settle timer is made
 *  (an ordinary exit closes the pipes before Bun reports it: a timer per process saved, issue 29) */
export async function drain(
  pgid: number,
  reading: Promise<unknown>,
  pumps: Pumps,
  stoppedByVouch: boolean,
  pipesClosed: () => boolean = () => false,
): Promise<void> {
  // A descendant that left the group with setpgid (GNU `timeout`, job control) is
  // still in the child's session: when vouch stopped the child it dies too, and so
  // it does when it holds the pipes after the leader exited. A /proc scan each,
  // so only then, not after every ordinary exit.
  const session = new Set([pgid]);
  if (stoppedByVouch) signalSessions(session, "SIGKILL");
  if (pipesClosed()) return;
  let drained = await settlesWithin(reading, DRAIN_MS);
  if (!drained && !stoppedByVouch && signalSessions(session, "SIGKILL") > 0) drained = await settlesWithin(reading, DRAIN_MS);
  if (!drained) {
    // Only a process that left the session (its own setsid) can hold the pipes now.
    pumps.stdout.stop();
    pumps.stderr.stop();
    await reading;
  }
}

/** True when `promise` settles within `ms`, false when the time runs out first. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
