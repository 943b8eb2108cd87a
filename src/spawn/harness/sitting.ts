// One sitting of a process harness: the adapter's command handed to runProcess,
// stdout fed to the adapter's parser, live progress reported, and a sitting
// whose streamed turns or cost pass a cap killed (the backstop). The stop
// reason comes from the supervision first (backstop, wall, idle, cancel, not
// startable; supervision.ts), then from what the harness itself reported.
import type { AgentAssignment, AgentHooks, Sitting, SittingProgress } from "../../engine/ports.ts";
import { tail } from "../../engine/cut.ts";
import { VouchError } from "../../engine/errors.ts";
import { buildChildEnv } from "../child-env.ts";
import { SITTING_MARKER } from "../process/strays.ts";
import type { Command, ProcessOptions, ProcessResult } from "../process-types.ts";
import type { ProcessSupervisor } from "../process-registry.ts";
import type { Confiner } from "../sandbox/confine.ts";
import type { SandboxSpec } from "../sandbox/spec.ts";
import { backstopBreach, type BackstopBreach, type BackstopMargins } from "./overruns.ts";
import { cancelGuard, supervisionStop } from "./supervision.ts";
import { sittingConversation } from "./sitting-conversation.ts";
import type { HarnessAdapter, HarnessCommand, StreamParser } from "./types.ts";
import { notRun } from "../../engine/not-run.ts";

export type RunProcess = (command: Command, options: ProcessOptions) => Promise<ProcessResult>;

/** How often a parser that reads more than stdout (StreamParser.poll: codex's session file) is asked. */
export const POLL_MS = 100;

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
  /** Seals the sittings the engine asks to seal (ADR 0040); absent, such a sitting does not start. */
  confiner?: Confiner;
}

export async function runSitting(adapter: HarnessAdapter, a: AgentAssignment, hooks: AgentHooks, ctx: SittingContext): Promise<Sitting> {
  let command: HarnessCommand;
  try {
    command = adapter.buildCommand(a, { ...(ctx.commandArgv ? { commandArgv: ctx.commandArgv } : {}) });
  } catch (e) {
    if (e instanceof VouchError) return notRun("unavailable", e.message);
    throw e;
  }
  // Every process of the sitting carries its marker: found and killed with it wherever it went (process/strays.ts).
  const marker = crypto.randomUUID();
  const { env: childEnv } = buildChildEnv(ctx.parentEnv, a.passEnv, {
    ...a.vars,
    [SITTING_MARKER]: marker,
    ...(a.workspace !== undefined ? { VOUCH_WORKSPACE: a.workspace } : {}),
  });
  const seal = await sealedEnv(adapter, a, childEnv, ctx);
  if ("error" in seal) return notRun("unavailable", seal.error);
  // Whatever throws from here on, the confinement's scratch folder goes with the sitting.
  try {
    return await sit(adapter, a, hooks, ctx, { command, marker, seal });
  } finally {
    await seal.release();
  }
}

type Sealed = { env: Record<string, string>; spec?: SandboxSpec };

/** The sitting itself, in its (sealed or not) environment: the process, its stream, its stop. */
async function sit(
  adapter: HarnessAdapter,
  a: AgentAssignment,
  hooks: AgentHooks,
  ctx: SittingContext,
  { command, marker, seal }: { command: HarnessCommand; marker: string; seal: Sealed },
): Promise<Sitting> {
  const env = seal.env;
  const parser = adapter.createParser(a, { env, startedAt: Date.now() });
  const controller = new AbortController();
  // A conversing harness is told first (ACP's session/cancel), then the group is stopped.
  const stop = { abort: () => (parser.stopping?.(), controller.abort()) };
  const cancel = cancelGuard(stop, () => parser.reported?.() === true, ctx.reportedExitGraceMs);
  const watch = backstopWatch(parser, hooks, a, adapter, ctx.margins, stop);
  const talk = sittingConversation(parser, command, watch.onProgress, controller);
  hooks.signal.addEventListener("abort", cancel.onCancel, { once: true });
  const polling = parser.poll ? setInterval(watch.onPoll, POLL_MS) : undefined;
  let result: ProcessResult;
  try {
    const options = processOptions(a, command, ctx, env, controller.signal, watch.onLine, adapter.quietLine?.bind(adapter));
    if (talk.option) options.conversation = talk.option;
    if (seal.spec !== undefined) options.sandbox = seal.spec;
    options.sittingMarker = marker;
    result = await ctx.runProcess({ argv: command.argv }, options);
  } finally {
    clearInterval(polling);
    talk.dispose();
    hooks.signal.removeEventListener("abort", cancel.onCancel);
    cancel.dispose();
  }
  await parser.settle?.();
  const sitting = parsedSitting(parser, adapter, result, ctx.parentEnv);
  const breach = watch.breach();
  const ownEnd = (cancel.reportedFirst() || talk.endedByAnswer()) && result.terminationReason === "cancelled";
  const supervised = ownEnd && breach === null ? null : supervisionStop(result, breach, adapter, a);
  // An agent vouch stopped once it had answered (an ACP server) exited by vouch's signal, not its own
  // failure: a complete answer is exit 0, as replay's is (ADR 0051).
  if (talk.endedByAnswer() && supervised === null && sitting.stopReason === "complete") sitting.exitCode = 0;
  if (supervised) applyStop(sitting, supervised, breach);
  return sitting;
}

/** A sitting vouch stopped reads as that stop, with what the stream had shown when it was killed. */
function applyStop(sitting: Sitting, supervised: NonNullable<ReturnType<typeof supervisionStop>>, breach: BackstopBreach | null): void {
  sitting.stopReason = supervised.stopReason;
  sitting.error = supervised.error;
  delete sitting.resetsAt;
  if (breach === null) return;
  if (breach.cap === "turns") sitting.turns = Math.max(sitting.turns ?? 0, breach.actual);
  else sitting.costUsd = Math.max(sitting.costUsd ?? 0, breach.actual);
}

/** Feeds stdout lines to the parser, reports progress, and stops a sitting whose stream passed a cap. */
function backstopWatch(
  parser: StreamParser,
  hooks: AgentHooks,
  a: AgentAssignment,
  adapter: HarnessAdapter,
  margins: BackstopMargins | null,
  stop: { abort(): void },
) {
  let breach: BackstopBreach | null = null;
  const onProgress = (progress: SittingProgress | null) => {
    if (!progress) return;
    hooks.onProgress(progress);
    // A final report past a cap is an overrun of a finished sitting, not something to kill.
    if (breach === null && !parser.reported?.()) {
      breach = backstopBreach(a.caps, progress, adapter.guaranteesFor?.(a) ?? adapter.guarantees, margins);
      if (breach) stop.abort();
    }
  };
  return {
    onLine: (line: string) => onProgress(parser.feed(line)),
    onProgress: (progress: SittingProgress) => onProgress(progress),
    onPoll: () => onProgress(parser.poll?.() ?? null),
    breach: () => breach,
  };
}

/** A sealed sitting (ADR 0040): its tree, and the CLI's own state folders, writable; nothing else. */
async function sealedEnv(
  adapter: HarnessAdapter,
  a: AgentAssignment,
  env: Record<string, string>,
  ctx: SittingContext,
): Promise<{ env: Record<string, string>; spec?: SandboxSpec; release(): Promise<void> } | { error: string }> {
  if (a.seal === undefined) return { env, release: async () => {} };
  if (ctx.confiner === undefined) return { error: "the sitting is to run sealed, but no sandbox was set up for this session" };
  const c = await ctx.confiner.open(a.seal, env, adapter.stateDirs?.(env, a) ?? [], adapter.stateFiles?.(env, a) ?? []);
  if ("error" in c) return { error: `could not seal the sitting: ${c.error}` };
  return { env: c.env, spec: c.spec, release: c.release };
}

function processOptions(
  a: AgentAssignment,
  command: HarnessCommand,
  ctx: SittingContext,
  env: Record<string, string>,
  signal: AbortSignal,
  onStdoutLine: (line: string) => void,
  quietLine: ((line: string) => boolean) | undefined,
): ProcessOptions {
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
  if (quietLine !== undefined) options.quietLine = quietLine;
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
