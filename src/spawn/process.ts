// THE only file that starts processes (docs/architecture.md §2, invariant 1; the invariant
// test names it). runProcess runs one command through named stages, each in its own file
// under src/spawn/process/ (in the manner of execa's lib/ folders): resolve (what would keep
// it from starting), wait for the start turn (write-ahead), start (here: the one Bun.spawn),
// timers (wall and idle caps), terminate (the whole process group: SIGTERM, SIGKILL after a
// grace period, SIGKILL once the leader exited), drain (the streams to their end). A
// sealed command (ProcessOptions.sandbox, ADR 0040) is bubblewrap's command line from the
// resolve stage on; a sandbox that could not be set up is a start that failed. A
// process problem never throws: it is in the result.
import type { Command, ProcessOptions, ProcessResult, StdinSink } from "./process-types.ts";
import { argTotalsMessage } from "./arg-limits.ts";
import { drain, openPumps, type Pumps } from "./process/drain.ts";
import { runOnThread } from "./process/on-thread.ts";
import { notStarted, resolveStart } from "./process/resolve.ts";
import { threadsOf } from "./process/spawn-threads.ts";
import { DEFAULT_GRACE_MS, GroupTermination, registerGroup } from "./process/terminate.ts";
import { Activity, armCaps } from "./process/timers.ts";
import { sealedResult } from "./sandbox/setup-failure.ts";

/** The signals vouch's session stops on (src/cli/session-signals.ts). */
const STOP_SIGNALS: ReadonlySet<string> = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]);
/** Long enough for the event loop to run a pending signal handler; paid only by a child ended so. */
const STOP_SIGNAL_TURN_MS = 20;

type Child = Bun.Subprocess<Blob | "ignore" | "pipe", "pipe", "pipe">;

export async function runProcess(command: Command, options: ProcessOptions): Promise<ProcessResult> {
  const activity = new Activity();
  const start = resolveStart(command, options);
  if (!start.ok) return start.result;
  // Not a process problem: a ledger that cannot commit ends the run (FatalError), so it throws.
  // Every process starting in this turn waits for one commit; then, with nothing awaited
  // between, the barrier again (empty, unless an event came meanwhile) and the start.
  const turn = options.supervisor?.startTurn();
  if (turn) {
    await turn;
    if (options.signal?.aborted) return notStarted("cancelled", activity.elapsed());
    // The process's wall time and silences count from its start, not from the wait.
    activity.restart();
  }
  options.supervisor?.beforeStart();
  const threads = threadsOf(options.supervisor);
  if (threads?.usable && nobodyStreams(options)) {
    const r = await runOnThread(threads, start.argv, start.cwd, options, startSpawnThread);
    if (r !== "fallback") return r;
    // No worker could take it: here, then, after the barrier again (events may have come meanwhile).
    if (options.signal?.aborted) return notStarted("cancelled", activity.elapsed());
    activity.restart();
    options.supervisor?.beforeStart();
  }
  return startAndSupervise(start.argv, start.cwd, options, undefined, activity);
}

/** A spawn worker (ADR 0081): a thread that starts processes is started here too, in the one
 *  file that starts them, and runs startAndSupervise below (process/spawn-thread-entry.ts). */
export function startSpawnThread(entry: string): Worker {
  return new Worker(entry);
}

/** The stages after the barrier — start, then supervise to the reaped group — on whichever thread
 *  runs them (a spawn worker runs exactly this: process/spawn-thread-entry.ts).
 *  Synchronous until the child's abort listener is in place. */
export function startAndSupervise(
  argv: string[],
  cwd: string,
  options: ProcessOptions,
  started?: (pid: number) => void,
  activity = new Activity(),
): Promise<ProcessResult> {
  const child = startChild(argv, cwd, options);
  if (typeof child === "string")
    return Promise.resolve(notStarted("spawn_failed", activity.elapsed(), `could not start ${argv[0]}: ${child}`));
  started?.(child.pid);
  return supervise(child, options, activity);
}

/** Nothing of the process's output is wanted before its end: no line callback, no conversation. */
function nobodyStreams(o: ProcessOptions): boolean {
  return !o.onStdoutLine && !o.onStderrLine && !o.quietLine && !o.conversation;
}

/** Stage start: the child leads its own process group; stdin is closed, the prompt, or a file.
 *  A start the system refuses is the reason, in words a user can act on. */
function startChild(argv: string[], cwd: string, options: ProcessOptions): Child | string {
  try {
    return Bun.spawn(argv, {
      cwd,
      env: options.env,
      detached: true,
      stdin:
        options.conversation !== undefined
          ? "pipe"
          : options.stdinFile !== undefined
            ? Bun.file(options.stdinFile)
            : options.stdin === undefined
              ? "ignore"
              : new Blob([options.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "E2BIG") return argTotalsMessage(argv, options.env);
    if (code === "ENOEXEC") return "not an executable format (a script needs a #! line)";
    if (code === "EACCES") return "permission denied";
    return (e as Error).message;
  }
}

/** From the start to the reaped group: caps, cancel and shutdown stop it; the streams are read to their end. */
async function supervise(proc: Child, options: ProcessOptions, activity: Activity): Promise<ProcessResult> {
  const pgid = proc.pid;
  const stop = new GroupTermination(
    pgid,
    options.graceMs ?? DEFAULT_GRACE_MS,
    options.sandbox !== undefined,
    options.sittingMarker,
    options.stopsItsChildren,
  );
  // A throwing line callback means the consumer is broken: stop the group, then rethrow.
  const pumps = openPumps(options, activity, () => stop.request("cancelled"));
  const disarm = armCaps(activity, options, (cap) => stop.request(cap));
  const onAbort = () => stop.request("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const group = registerGroup(options.supervisor, pgid, () => stop.request("cancelled"));

  let pipesClosed = false;
  const reading = Promise.all([pumps.stdout.run(proc.stdout), pumps.stderr.run(proc.stderr)]).then(() => {
    pipesClosed = true;
  });
  if (options.conversation) options.conversation(stdinSink(proc.stdin as Bun.FileSink));
  await proc.exited;
  // A stop signal vouch did not send: the one its own session got too (a signal to vouch's group
  // reaches a child before posix_spawn's setsid; a script that signals vouch and itself). Bun runs
  // the session's handler on a later turn of the loop: give it that turn, so the run is known to be
  // stopping when this result is judged — an interrupt, not a crash.
  if (stop.reason === null && STOP_SIGNALS.has(String(proc.signalCode))) await Bun.sleep(STOP_SIGNAL_TURN_MS);
  const leaderExitedAt = performance.now();
  stop.leaderExited();
  await drain(pgid, reading, pumps, stop.reason !== null, () => pipesClosed);
  const wallMs = activity.elapsed();
  disarm();
  options.signal?.removeEventListener("abort", onAbort);
  group.release();

  const callbackError = pumps.stdout.callbackError ?? pumps.stderr.callbackError;
  if (callbackError !== undefined) throw callbackError;
  const result = resultOf(proc, stop, pumps, wallMs, activity.longestSilence(leaderExitedAt));
  return options.sandbox ? sealedResult(result) : result;
}

/** The child's stdin as a StdinSink: a write to a pipe the child has closed (EPIPE) is no error of vouch's. */
function stdinSink(pipe: Bun.FileSink): StdinSink {
  let open = true;
  return {
    write(chunk) {
      if (!open) return;
      try {
        pipe.write(chunk);
        void Promise.resolve(pipe.flush()).catch(() => {});
      } catch {
        open = false;
      }
    },
    end() {
      if (!open) return;
      open = false;
      try {
        void Promise.resolve(pipe.end()).catch(() => {});
      } catch {
        // already closed by the child's end
      }
    },
  };
}

function resultOf(proc: Child, stop: GroupTermination, pumps: Pumps, wallMs: number, longestSilenceMs: number): ProcessResult {
  const { stdout, stderr } = pumps;
  return {
    exit: proc.exitCode,
    signal: proc.signalCode === null ? null : String(proc.signalCode),
    terminationReason: stop.reason ?? "exit",
    wallMs,
    stdoutTail: stdout.tail.text(),
    stderrTail: stderr.tail.text(),
    stdoutBytes: stdout.tail.total,
    stderrBytes: stderr.tail.total,
    truncated: stdout.tail.truncated || stderr.tail.truncated,
    longestSilenceMs,
    pid: proc.pid,
    ...(stop.straysKilled > 0 ? { straysKilled: stop.straysKilled } : {}),
  };
}

/** A helper process that lives beside vouch (ADR 0046: a worker's group reaper): it reads
 *  the lines written to its stdin, and the pipe's close — vouch's own exit, kill -9
 *  included, since the kernel closes a dead process's pipes — is its cue to finish. Its
 *  own process group, so a terminal's Ctrl-C does not reach it; it holds no ref on the
 *  event loop. Null when it could not start. */
export interface Companion {
  readonly pid: number;
  /** False once the companion is gone (nothing is written then). Never throws. */
  write(text: string): boolean;
  /** Closes its stdin: the companion finishes. */
  close(): void;
}

export function startCompanion(argv: string[], env: Record<string, string>): Companion | null {
  let proc: Bun.Subprocess<"pipe", "ignore", "inherit">;
  try {
    proc = Bun.spawn(argv, { env, detached: true, stdin: "pipe", stdout: "ignore", stderr: "inherit" });
  } catch {
    return null;
  }
  proc.unref();
  const sink = proc.stdin;
  sink.unref();
  let open = true;
  void proc.exited.then(() => (open = false));
  return {
    pid: proc.pid,
    write(text) {
      if (!open) return false;
      try {
        sink.write(text);
        void Promise.resolve(sink.flush()).catch(() => (open = false));
        return true;
      } catch {
        open = false;
        return false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        void Promise.resolve(sink.end()).catch(() => {});
      } catch {
        // already closed
      }
    },
  };
}
