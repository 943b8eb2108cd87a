// One sitting of a process harness: the adapter's command handed to runProcess,
// stdout fed to the adapter's parser, live progress reported, and a sitting
// whose streamed turns or cost pass a cap killed (the backstop). The stop
// reason comes from the supervision first (backstop, wall, idle, cancel, not
// startable; supervision.ts), then from what the harness itself reported.
import type { AgentAssignment, AgentHooks, Sitting } from "../../engine/ports.ts";
import { tail } from "../../engine/cut.ts";
import { VouchError } from "../../engine/errors.ts";
import { buildChildEnv } from "../child-env.ts";
import type { Command, ProcessOptions, ProcessResult } from "../process-types.ts";
import type { ProcessSupervisor } from "../process-registry.ts";
import { backstopBreach, type BackstopBreach, type BackstopMargins } from "./overruns.ts";
import { cancelGuard, supervisionStop } from "./supervision.ts";
import type { HarnessAdapter, HarnessCommand, StreamParser } from "./types.ts";
import { notRun } from "./common/not-run.ts";

export type RunProcess = (command: Command, options: ProcessOptions) => Promise<ProcessResult>;

/** Bytes of stderr kept in a Sitting. */
export const SITTING_STDERR_BYTES = 8 * 1024;
/** Longest stdout line handed to a parser whole: a Claude result line carries
 *  the whole result text, which can pass the spawn seam's 1 Mi default. */
export const MAX_STREAM_LINE = 8 * 1024 * 1024;

export interface SittingContext {
  commandArgv: string[] | undefined;
  margins: BackstopMargins | null;
  runProcess: RunProcess;
  parentEnv: Record<string, string | undefined>;
  graceMs: number | undefined;
  reportedExitGraceMs: number;
  supervisor: ProcessSupervisor;
}

export async function runSitting(adapter: HarnessAdapter, a: AgentAssignment, hooks: AgentHooks, ctx: SittingContext): Promise<Sitting> {
  let command: HarnessCommand;
  try {
    command = adapter.buildCommand(a, { ...(ctx.commandArgv ? { commandArgv: ctx.commandArgv } : {}) });
  } catch (e) {
    if (e instanceof VouchError) return notRun("unavailable", e.message);
    throw e;
  }
  const parser = adapter.createParser(a);
  const stop = new AbortController();
  const cancel = cancelGuard(stop, () => parser.reported?.() === true, ctx.reportedExitGraceMs);
  const watch = backstopWatch(parser, hooks, a, adapter, ctx.margins, stop);
  hooks.signal.addEventListener("abort", cancel.onCancel, { once: true });
  let result: ProcessResult;
  try {
    result = await ctx.runProcess({ argv: command.argv }, processOptions(a, command, ctx, stop.signal, watch.onLine));
  } finally {
    hooks.signal.removeEventListener("abort", cancel.onCancel);
    cancel.dispose();
  }
  const sitting = parsedSitting(parser, adapter, result, ctx.parentEnv);
  const breach = watch.breach();
  const supervised =
    cancel.reportedFirst() && result.terminationReason === "cancelled" ? null : supervisionStop(result, breach, adapter, a);
  if (supervised) {
    sitting.stopReason = supervised.stopReason;
    sitting.error = supervised.error;
    delete sitting.resetsAt;
    if (breach) {
      // Report what the stream had shown when the sitting was killed.
      if (breach.cap === "turns") sitting.turns = Math.max(sitting.turns ?? 0, breach.actual);
      else sitting.costUsd = Math.max(sitting.costUsd ?? 0, breach.actual);
    }
  }
  return sitting;
}

/** Feeds stdout lines to the parser, reports progress, and stops a sitting whose stream passed a cap. */
function backstopWatch(
  parser: StreamParser,
  hooks: AgentHooks,
  a: AgentAssignment,
  adapter: HarnessAdapter,
  margins: BackstopMargins | null,
  stop: AbortController,
) {
  let breach: BackstopBreach | null = null;
  return {
    onLine(line: string) {
      const progress = parser.feed(line);
      if (!progress) return;
      hooks.onProgress(progress);
      // A final report past a cap is an overrun of a finished sitting, not something to kill.
      if (breach === null && !parser.reported?.()) {
        breach = backstopBreach(a.caps, progress, adapter.guarantees, margins);
        if (breach) stop.abort();
      }
    },
    breach: () => breach,
  };
}

function processOptions(
  a: AgentAssignment,
  command: HarnessCommand,
  ctx: SittingContext,
  signal: AbortSignal,
  onStdoutLine: (line: string) => void,
): ProcessOptions {
  const { env } = buildChildEnv(ctx.parentEnv, a.passEnv, {
    ...a.vars,
    ...(a.workspace !== undefined ? { VOUCH_WORKSPACE: a.workspace } : {}),
  });
  const options: ProcessOptions = {
    cwd: a.cwd,
    env,
    signal,
    maxLineLength: MAX_STREAM_LINE,
    keepStderrBytes: SITTING_STDERR_BYTES,
    onStdoutLine,
  };
  if (command.stdin !== undefined) options.stdin = command.stdin;
  if (command.wallMs !== undefined) options.wallMs = command.wallMs;
  if (command.idleMs !== undefined) options.idleMs = command.idleMs;
  if (command.keepBytes !== undefined) options.keepBytes = command.keepBytes;
  if (ctx.graceMs !== undefined) options.graceMs = ctx.graceMs;
  options.supervisor = ctx.supervisor;
  return options;
}

/** The parser's verdict with what the process seam measured. */
function parsedSitting(
  parser: StreamParser,
  adapter: HarnessAdapter,
  result: ProcessResult,
  parentEnv: SittingContext["parentEnv"],
): Sitting {
  const parsed = parser.finish({
    exit: result.exit,
    signal: result.signal,
    stdoutTail: result.stdoutTail,
    stderrTail: result.stderrTail,
    truncated: result.truncated,
    endedAt: Date.now(),
    // The child inherits vouch's TZ: a bare "try again at 3:00 PM" is in that zone.
    ...(parentEnv.TZ ? { localZone: parentEnv.TZ } : {}),
  });
  return {
    ...parsed,
    // A text-protocol harness's result is its stdout: say when only its tail was kept.
    ...(adapter.protocol === "text" && result.stdoutBytes > Buffer.byteLength(result.stdoutTail) ? { resultTruncated: true } : {}),
    wallMs: result.wallMs,
    idleMs: result.longestSilenceMs,
    exitCode: result.exit,
    stderrTail: tail(result.stderrTail, SITTING_STDERR_BYTES),
  };
}
