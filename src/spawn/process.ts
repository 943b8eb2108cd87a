// THE only file that starts processes (docs/architecture.md §2, invariant 1; the invariant
// test names it). A child leads its own process group; on wall cap, idle cap,
// cancellation or engine shutdown the whole group gets SIGTERM, then SIGKILL
// after a grace period; once the leader has exited the group is SIGKILLed
// anyway, so a grandchild holding a pipe can neither hang the read nor outlive
// the run. A process problem never throws: it is in the result.
import type { TerminationReason } from "../engine/ports.ts";
import type { Command, ProcessOptions, ProcessResult } from "./process-types.ts";
import { ProcessSupervisor, signalGroup, signalSessions } from "./process-registry.ts";
import { resolveCommand } from "./resolve-command.ts";
import { argStringProblem, argTotalsMessage } from "./arg-limits.ts";
import { StreamPump } from "./stream-pump.ts";

export const DEFAULT_GRACE_MS = 2000;
export const DEFAULT_KEEP_BYTES = 64 * 1024;
export const DEFAULT_MAX_LINE_LENGTH = 1024 * 1024;
/** After the leader exits and the group is killed, how long the pipes may take to
 *  close. Only a process that left the group (setsid) can hold them longer. */
export const DRAIN_MS = 1000;

/** setTimeout fires after 1 ms when given more than this (2^31-1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runProcess(command: Command, options: ProcessOptions): Promise<ProcessResult> {
  let started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const resolved = resolveCommand(command, options.cwd, options.env);
  if (!resolved.ok) return notStarted("spawn_failed", 0, resolved.error);
  const tooLong = argStringProblem(resolved.argv, options.env);
  if (tooLong) return notStarted("spawn_failed", 0, `could not start ${resolved.argv[0]}: ${tooLong}`);
  if (options.signal?.aborted) return notStarted("cancelled", 0);

  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const keepBytes = options.keepBytes ?? DEFAULT_KEEP_BYTES;
  const maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;

  let lastOutput = started;
  let longestSilence = 0;
  const sawBytes = () => {
    const now = performance.now();
    longestSilence = Math.max(longestSilence, now - lastOutput);
    lastOutput = now;
  };
  // A throwing line callback means the consumer is broken: stop the group, then rethrow.
  const callbackFailed = () => terminate("cancelled");
  const stdout = new StreamPump(keepBytes, maxLine, sawBytes, options.onStdoutLine, callbackFailed);
  const stderr = new StreamPump(options.keepStderrBytes ?? keepBytes, maxLine, sawBytes, options.onStderrLine, callbackFailed);

  // Not a process problem: a ledger that cannot commit ends the run (FatalError), so it throws.
  // Every process starting in this turn waits for one commit; then, with nothing awaited
  // between, the barrier again (empty, unless an event came meanwhile) and the start.
  const turn = options.supervisor?.startTurn();
  if (turn) {
    await turn;
    if (options.signal?.aborted) return notStarted("cancelled", elapsed());
    // The process's wall time and silences count from its start, not from the wait.
    started = lastOutput = performance.now();
  }
  options.supervisor?.beforeStart();
  let proc: Bun.Subprocess<Blob | "ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(resolved.argv, {
      cwd: resolved.cwd,
      env: options.env,
      detached: true,
      stdin:
        options.stdinFile !== undefined ? Bun.file(options.stdinFile) : options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === "E2BIG" ? argTotalsMessage(resolved.argv, options.env) : spawnFailure(e);
    return notStarted("spawn_failed", elapsed(), `could not start ${resolved.argv[0]}: ${why}`);
  }
  const pgid = proc.pid;

  // The first cause wins; the leader's own exit only counts if nothing else came first.
  let reason: TerminationReason | null = null;
  let leaderGone = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const terminate = (why: TerminationReason) => {
    if (reason !== null || leaderGone) return;
    reason = why;
    signalGroup(pgid, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(pgid, "SIGKILL"), graceMs);
  };

  let wallTimer: ReturnType<typeof setTimeout> | undefined;
  const wallCap = options.wallMs;
  if (wallCap !== undefined) {
    // Chained: setTimeout fires at once when given more than MAX_TIMER_MS (~24.8 days).
    const wallStart = performance.now();
    const checkWall = () => {
      const left = wallCap - (performance.now() - wallStart);
      if (left <= 0) terminate("wall");
      else wallTimer = setTimeout(checkWall, Math.min(left, MAX_TIMER_MS));
    };
    wallTimer = setTimeout(checkWall, Math.min(wallCap, MAX_TIMER_MS));
  }
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const idleMs = options.idleMs;
  if (idleMs !== undefined) {
    // Re-armed from the last output when it fires, not on every chunk.
    const checkIdle = () => {
      const silent = performance.now() - lastOutput;
      if (silent >= idleMs) terminate("idle");
      else idleTimer = setTimeout(checkIdle, Math.min(idleMs - silent + 1, MAX_TIMER_MS));
    };
    idleTimer = setTimeout(checkIdle, Math.min(idleMs, MAX_TIMER_MS));
  }
  const onAbort = () => terminate("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  let markDone!: () => void;
  const done = new Promise<void>((resolve) => (markDone = resolve));
  const unregister = (options.supervisor ?? new ProcessSupervisor()).register({ pgid, cancel: () => terminate("cancelled"), done });

  const reading = Promise.all([stdout.run(proc.stdout), stderr.run(proc.stderr)]);
  await proc.exited;
  const leaderExitedAt = performance.now();
  leaderGone = true;
  clearTimeout(killTimer);
  // Always: grandchildren that kept the pipes open die with their group.
  signalGroup(pgid, "SIGKILL");
  // A descendant that left the group with setpgid (GNU `timeout`, job control) is
  // still in the child's session: when vouch stopped the child it dies too, and so
  // it does when it holds the pipes after the leader exited. A /proc scan each,
  // so only then, not after every ordinary exit.
  const session = new Set([pgid]);
  if (reason !== null) signalSessions(session, "SIGKILL");
  let drained = await settlesWithin(reading, DRAIN_MS);
  if (!drained && reason === null && signalSessions(session, "SIGKILL") > 0) drained = await settlesWithin(reading, DRAIN_MS);
  if (!drained) {
    // Only a process that left the session (its own setsid) can hold the pipes now.
    stdout.stop();
    stderr.stop();
    await reading;
  }
  const wallMs = elapsed();
  clearTimeout(wallTimer);
  clearTimeout(idleTimer);
  options.signal?.removeEventListener("abort", onAbort);
  unregister();
  markDone();

  const callbackError = stdout.callbackError ?? stderr.callbackError;
  if (callbackError !== undefined) throw callbackError;

  return {
    exit: proc.exitCode,
    signal: proc.signalCode === null ? null : String(proc.signalCode),
    terminationReason: reason ?? "exit",
    wallMs,
    stdoutTail: stdout.tail.text(),
    stderrTail: stderr.tail.text(),
    stdoutBytes: stdout.tail.total,
    stderrBytes: stderr.tail.total,
    truncated: stdout.tail.truncated || stderr.tail.truncated,
    longestSilenceMs: Math.round(Math.max(longestSilence, leaderExitedAt - lastOutput)),
    pid: pgid,
  };
}

/** Bun's spawn errors in words a user can act on. */
function spawnFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOEXEC") return "not an executable format (a script needs a #! line)";
  if (code === "EACCES") return "permission denied";
  return (e as Error).message;
}

function notStarted(reason: TerminationReason, wallMs: number, spawnError?: string): ProcessResult {
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
