// The real AgentRunner port (src/engine/ports.ts): picks the adapter by
// assignment.harness, refuses again at run time (empty prompt, missing cwd:
// nothing starts), hands the adapter's command to runProcess, feeds stdout
// to the adapter's parser, reports live progress, and kills a sitting whose
// streamed turns or cost pass a cap (the backstop). The stop reason comes
// from the supervision first (backstop, wall, idle, cancel, not startable),
// then from what the harness itself reported.
import type { AgentAssignment, AgentHooks, AgentPlan, AgentRunner, Refusal, Sitting } from "../../engine/ports.ts";
import type { CapName } from "../../engine/events.ts";
import { tail } from "../../engine/cut.ts";
import { VouchError } from "../../engine/errors.ts";
import { buildChildEnv } from "../child-env.ts";
import { runProcess as realRunProcess } from "../process.ts";
import type { Command, ProcessOptions, ProcessResult } from "../process-types.ts";
import { ProcessSupervisor } from "../process-registry.ts";
import { commandArgvFromEnv } from "./command.ts";
import { DEFAULT_BACKSTOP, backstopBreach, type BackstopBreach, type BackstopMargins } from "./overruns.ts";
import { refuse } from "./refuse.ts";
import { harnessesKeeping, PROCESS_ADAPTERS } from "./registry.ts";
import { playReplay, replayDescriptor } from "./replay.ts";
import { FixtureFolder } from "./replay-folder.ts";
import { fileLimits } from "../read-limited.ts";
import type { HarnessAdapter, HarnessDescriptor } from "./types.ts";

export type RunProcess = (command: Command, options: ProcessOptions) => Promise<ProcessResult>;

export interface AgentRunnerOptions {
  /** vouch's own environment; children get buildChildEnv(parentEnv, passEnv). */
  parentEnv: Record<string, string | undefined>;
  /** Folder of replay fixtures (the replay harness refuses without one). */
  replayDir?: string;
  /** Pause between replayed lines, so a live UI shows progress. Default 0. */
  replayDelayMs?: number;
  /** Margins past a native cap before the engine kills; null: no backstop on
   *  native caps (supervised caps are always kept). Default DEFAULT_BACKSTOP. */
  backstop?: BackstopMargins | null;
  /** SIGTERM-to-SIGKILL grace for the process group. */
  graceMs?: number;
  /** How long a sitting that reported its result may take to exit after a cancel
   *  (default REPORTED_EXIT_GRACE_MS; tests shorten it). */
  reportedExitGraceMs?: number;
  /** The program of the `command` harness (default: VOUCH_COMMAND from parentEnv). */
  commandArgv?: string[];
  /** Replace adapters (tests, the conformance kit's broken doubles). */
  adapters?: Partial<Record<Exclude<AgentAssignment["harness"], "replay">, HarnessAdapter>>;
  /** Replace the spawn seam (tests only). */
  runProcess?: RunProcess;
  /** Owns the sittings' processes (the session's). Default: one of this runner's own. */
  supervisor?: ProcessSupervisor;
}

/** How long a sitting that has already reported its result may take to exit after a cancel. */
export const REPORTED_EXIT_GRACE_MS = 5_000;
/** Bytes of stderr kept in a Sitting. */
export const SITTING_STDERR_BYTES = 8 * 1024;
/** Longest stdout line handed to a parser whole: a Claude result line carries
 *  the whole result text, which can pass the spawn seam's 1 Mi default. */
export const MAX_STREAM_LINE = 8 * 1024 * 1024;

export function createAgentRunner(opts: AgentRunnerOptions): AgentRunner {
  const adapters = { ...PROCESS_ADAPTERS, ...opts.adapters };
  const descriptors: HarnessDescriptor[] = [...Object.values(adapters), replayDescriptor];
  const commandArgv = opts.commandArgv ?? commandArgvFromEnv(opts.parentEnv);
  const margins = opts.backstop === undefined ? DEFAULT_BACKSTOP : opts.backstop;
  const runProcess = opts.runProcess ?? realRunProcess;
  const supervisor = opts.supervisor ?? new ProcessSupervisor();
  const fixtures = new FixtureFolder();

  const descriptorFor = (harness: string): HarnessDescriptor | undefined =>
    harness === "replay" ? replayDescriptor : adapters[harness as keyof typeof adapters];

  const refusePlan = (plan: AgentPlan): Refusal[] => {
    const harness = descriptorFor(plan.harness);
    if (!harness) {
      return [
        {
          harness: plan.harness,
          field: "harness",
          message: `unknown harness "${plan.harness}": use one of claude, codex, gemini, replay, command`,
        },
      ];
    }
    const alternatives = (cap: CapName) => harnessesKeeping(cap, descriptors).filter((n) => n !== harness.name);
    const out = refuse(harness, plan, { alternatives });
    if (harness.name === "command" && (!commandArgv || commandArgv.length === 0)) {
      out.push({
        harness: "command",
        field: "harness",
        message: 'harness "command": no program to run: set VOUCH_COMMAND to a program path or a JSON array of argv',
      });
    }
    if (harness.name === "replay" && (opts.replayDir === undefined || !fixtures.isFolder(opts.replayDir))) {
      const where = opts.replayDir ? `"${opts.replayDir}" is not a folder` : "no fixture folder was given";
      out.push({ harness: "replay", field: "harness", message: `harness "replay": ${where}: pass --replay-dir DIR` });
    }
    return out;
  };

  return {
    refuse: refusePlan,
    async run(a: AgentAssignment, hooks: AgentHooks): Promise<Sitting> {
      const refusals = refusalsAtRunTime(refusePlan, a);
      if (refusals.length > 0) return notRun("unavailable", refusals.map((r) => r.message).join("; "));
      if (hooks.signal.aborted) return notRun("cancelled", "cancelled before the sitting started");
      if (a.harness === "replay") {
        // A fixture is read like an input file: regular files only, at most VOUCH_MAX_INPUT_BYTES.
        return playReplay(a, hooks, {
          dir: opts.replayDir!,
          delayMs: opts.replayDelayMs ?? 0,
          maxBytes: fileLimits(opts.parentEnv).inputBytes,
          fixtures,
        });
      }
      const adapter = adapters[a.harness];
      return runSitting(adapter, a, hooks, {
        commandArgv,
        margins,
        runProcess,
        parentEnv: opts.parentEnv,
        graceMs: opts.graceMs,
        reportedExitGraceMs: opts.reportedExitGraceMs ?? REPORTED_EXIT_GRACE_MS,
        supervisor,
      });
    },
  };
}

function refusalsAtRunTime(refusePlan: (p: AgentPlan) => Refusal[], a: AgentAssignment): Refusal[] {
  return refusePlan({
    node: a.node,
    harness: a.harness,
    caps: a.caps,
    model: a.model,
    tools: a.tools,
    permissionMode: a.permissionMode,
    prompt: a.prompt,
    cwd: a.cwd,
  });
}

interface SittingContext {
  commandArgv: string[] | undefined;
  margins: BackstopMargins | null;
  runProcess: RunProcess;
  parentEnv: Record<string, string | undefined>;
  graceMs: number | undefined;
  reportedExitGraceMs: number;
  supervisor: ProcessSupervisor;
}

async function runSitting(adapter: HarnessAdapter, a: AgentAssignment, hooks: AgentHooks, ctx: SittingContext): Promise<Sitting> {
  let command;
  try {
    command = adapter.buildCommand(a, { ...(ctx.commandArgv ? { commandArgv: ctx.commandArgv } : {}) });
  } catch (e) {
    if (e instanceof VouchError) return notRun("unavailable", e.message);
    throw e;
  }
  const parser = adapter.createParser(a);
  const { env } = buildChildEnv(ctx.parentEnv, a.passEnv, {
    ...a.vars,
    ...(a.workspace !== undefined ? { VOUCH_WORKSPACE: a.workspace } : {}),
  });
  const stop = new AbortController();
  const cancel = cancelGuard(stop, () => parser.reported?.() === true, ctx.reportedExitGraceMs);
  hooks.signal.addEventListener("abort", cancel.onCancel, { once: true });
  let breach: BackstopBreach | null = null;

  const options: ProcessOptions = {
    cwd: a.cwd,
    env,
    signal: stop.signal,
    maxLineLength: MAX_STREAM_LINE,
    keepStderrBytes: SITTING_STDERR_BYTES,
    onStdoutLine: (line) => {
      const progress = parser.feed(line);
      if (!progress) return;
      hooks.onProgress(progress);
      // A final report past a cap is an overrun of a finished sitting, not something to kill.
      if (breach === null && !parser.reported?.()) {
        breach = backstopBreach(a.caps, progress, adapter.guarantees, ctx.margins);
        if (breach) stop.abort();
      }
    },
  };
  if (command.stdin !== undefined) options.stdin = command.stdin;
  if (command.wallMs !== undefined) options.wallMs = command.wallMs;
  if (command.idleMs !== undefined) options.idleMs = command.idleMs;
  if (command.keepBytes !== undefined) options.keepBytes = command.keepBytes;
  if (ctx.graceMs !== undefined) options.graceMs = ctx.graceMs;
  options.supervisor = ctx.supervisor;

  let result: ProcessResult;
  try {
    result = await ctx.runProcess({ argv: command.argv }, options);
  } finally {
    hooks.signal.removeEventListener("abort", cancel.onCancel);
    cancel.dispose();
  }
  const parsed = parser.finish({
    exit: result.exit,
    signal: result.signal,
    stdoutTail: result.stdoutTail,
    stderrTail: result.stderrTail,
    truncated: result.truncated,
    endedAt: Date.now(),
    // The child inherits vouch's TZ: a bare "try again at 3:00 PM" is in that zone.
    ...(ctx.parentEnv.TZ ? { localZone: ctx.parentEnv.TZ } : {}),
  });
  const sitting: Sitting = {
    ...parsed,
    // A text-protocol harness's result is its stdout: say when only its tail was kept.
    ...(adapter.protocol === "text" && result.stdoutBytes > Buffer.byteLength(result.stdoutTail) ? { resultTruncated: true } : {}),
    wallMs: result.wallMs,
    idleMs: result.longestSilenceMs,
    exitCode: result.exit,
    stderrTail: tail(result.stderrTail, SITTING_STDERR_BYTES),
  };
  const supervised =
    cancel.reportedFirst() && result.terminationReason === "cancelled" ? null : supervisionStop(result, breach, adapter, a);
  if (supervised) {
    sitting.stopReason = supervised.stopReason;
    sitting.error = supervised.error;
    delete sitting.resetsAt;
    if (breach) {
      // Report what the stream had shown when the sitting was killed.
      const b: BackstopBreach = breach;
      if (b.cap === "turns") sitting.turns = Math.max(sitting.turns ?? 0, b.actual);
      else sitting.costUsd = Math.max(sitting.costUsd ?? 0, b.actual);
    }
  }
  return sitting;
}

/** A cancel (the run stopping) for a sitting whose final report is already in:
 *  it has stopped by itself, and a run stop its own cost caused (claude's cost
 *  arrives with its result) must not turn its own stop — claude's budget or
 *  turns stop — into a kill it never needed. It gets a moment to exit; only
 *  one that hangs on is killed, and its reported stop still stands. */
function cancelGuard(stop: AbortController, reported: () => boolean, graceMs: number) {
  let reportedFirst = false;
  let lateKill: ReturnType<typeof setTimeout> | undefined;
  return {
    onCancel() {
      reportedFirst = reported();
      if (!reportedFirst) return stop.abort();
      lateKill = setTimeout(() => stop.abort(), graceMs);
      lateKill.unref?.();
    },
    reportedFirst: () => reportedFirst,
    dispose() {
      if (lateKill !== undefined) clearTimeout(lateKill);
    },
  };
}

/** The stop the engine itself caused (or could not avoid), if any. */
function supervisionStop(
  result: ProcessResult,
  breach: BackstopBreach | null,
  adapter: HarnessAdapter,
  a: AgentAssignment,
): { stopReason: Sitting["stopReason"]; error: string } | null {
  const who = adapter.name;
  if (breach) {
    const what = breach.cap === "turns" ? `${breach.actual} turns` : `$${breach.actual}`;
    const limit = breach.cap === "turns" ? `${breach.limit}` : `$${breach.limit}`;
    return {
      stopReason: breach.cap === "turns" ? "turns" : "budget",
      error: `vouch backstop stopped ${who}: ${what} streamed against a ${breach.cap} cap of ${limit} (kill threshold ${breach.threshold})`,
    };
  }
  switch (result.terminationReason) {
    case "wall":
      return { stopReason: "wall", error: `${who} stopped by the wall cap (${a.caps.wallMs} ms); process group killed` };
    case "idle":
      return { stopReason: "idle", error: `${who} stopped by the idle cap: no output for ${a.caps.idleMs} ms; process group killed` };
    case "cancelled":
      return { stopReason: "cancelled", error: `${who} sitting cancelled` };
    case "spawn_failed": {
      // An E2BIG names its own cause; "is it installed?" would send the user the wrong way.
      const hint = adapter.binary && !result.spawnError?.includes("E2BIG") ? ` (is ${adapter.binary} installed and on PATH?)` : "";
      return { stopReason: "unavailable", error: `${who} could not be started: ${result.spawnError ?? "unknown reason"}${hint}` };
    }
    default:
      return null;
  }
}

function notRun(stopReason: Sitting["stopReason"], error: string): Sitting {
  return {
    stopReason,
    resultText: "",
    turns: null,
    costUsd: null,
    tokens: null,
    wallMs: 0,
    permissionDenials: 0,
    exitCode: null,
    stderrTail: "",
    error,
  };
}
