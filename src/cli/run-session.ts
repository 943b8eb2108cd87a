// One session of a run, shared by `vouch run` and `vouch resume`: builds the real
// ports, the ledger sink and the chosen output, handles Ctrl-C, drives the engine.
// Data flows one way: engine → ledger (committed) → output (TUI | plain | NDJSON).
import { planRun, runGraph, systemClock, type RunOptions, type RunOutcome } from "../engine/run.ts";
import { EXIT, RefusalError, UsageError } from "../engine/errors.ts";
import type { Approvals } from "../engine/ports.ts";
import { directSink, type RunLedger, type RunLock } from "../ledger/index.ts";
import { createAgentRunner } from "../spawn/harness/agent-runner.ts";
import { createCommandRunner } from "../spawn/command-runner.ts";
import { parentEnv } from "../spawn/child-env.ts";
import { killAllGroups, shutdownAllGroups } from "../spawn/process-registry.ts";
import { reapGroupJournal, startGroupJournal } from "../spawn/group-journal.ts";
import { chooseOutput, colorEnabled, outputWidth, type OutputMode } from "../tui/output-choice.ts";
import type { EventOutput } from "../tui/output.ts";
import { createNdjsonOutput } from "../tui/ndjson-output.ts";
import { createPlainOutput } from "../tui/plain-output.ts";
import { flagApprovals, type Decision } from "./cli-approvals.ts";
import { onStdoutClosed } from "./stdout-closed.ts";
import type { CliIO } from "./io.ts";

export interface SessionSpec {
  io: CliIO;
  flags: { json?: boolean; plain?: boolean };
  ledger: RunLedger;
  lock: RunLock;
  /** Everything but the ports and the signal. */
  options: Omit<RunOptions, "ports" | "signal">;
  replayDir?: string;
  replayDelayMs?: number;
  /** --approve / --reject of `vouch resume`. */
  decisions?: Map<string, Decision>;
  /** Decisions the ledger already holds (by nodeKey): they answer first, and are final. */
  standing?: Map<string, Decision>;
}

interface Output {
  output: EventOutput;
  approvals: Approvals;
  /** The live UI only: after the run, resolves when the person leaves the final frame. */
  held?: () => Promise<void>;
}

async function openOutput(spec: SessionSpec, mode: OutputMode, cancel: () => void, exitNow: () => void): Promise<Output> {
  const { io } = spec;
  const color = colorEnabled(io);
  const decisions = spec.decisions ?? new Map();
  const standing = spec.standing ?? new Map();
  if (mode === "json") return { output: createNdjsonOutput(io.out), approvals: flagApprovals(decisions, undefined, standing) };
  if (mode === "plain") {
    const width = outputWidth(io.stdoutIsTTY ? process.stdout.columns : undefined, io.env, io.stdoutIsTTY);
    return { output: createPlainOutput(io.out, { color, width }), approvals: flagApprovals(decisions, undefined, standing) };
  }
  // Only the live UI loads ink and React (ADR 0001).
  const { startTui } = await import("../tui/app.tsx");
  const tui = startTui({ stdout: process.stdout, stdin: process.stdin, color, onCancel: cancel, onExitNow: exitNow });
  return { output: tui, approvals: flagApprovals(decisions, tui.approvals, standing), held: () => tui.held() };
}

export function realAgentRunner(env: Record<string, string | undefined>, replayDir?: string, replayDelayMs?: number) {
  return createAgentRunner({
    parentEnv: env,
    ...(replayDir !== undefined ? { replayDir } : {}),
    ...(replayDelayMs !== undefined ? { replayDelayMs } : {}),
  });
}

/** Throws what the engine would refuse at start (InputError, RefusalError, GraphInvalidError). */
export function preflight(options: RunOptions): void {
  const plan = planRun(options);
  if (plan.refusals.length > 0) throw new RefusalError(plan.refusals);
}

/** preflight() with the real agent runner. Callers run it before runSession — before
 *  the ledger opens for a new run — so a usage error leaves no ledger (or .vouch folder)
 *  behind and no live UI flashes up. */
export function preflightRun(options: Omit<RunOptions, "ports" | "signal">, replayDir?: string): void {
  preflight({ ...options, ports: { agents: realAgentRunner(parentEnv(), replayDir) } });
}

/** VOUCH_LEDGER=off: a benchmark switch, not a feature (ADR 0009). The run takes
 *  its lock as usual but its events go straight to the output (directSink): nothing
 *  is recorded, so the run cannot be shown or resumed. The same 1,000-node graph
 *  with and without it is bench/ledger-overhead.ts. */
function ledgerSwitch(spec: SessionSpec): "on" | "off" {
  const value = spec.io.env.VOUCH_LEDGER;
  if (value === undefined || value === "") return "on";
  if (value !== "off") throw new UsageError(`VOUCH_LEDGER="${value}": the only value it takes is "off" (a benchmark switch)`, "unset VOUCH_LEDGER to record the run");
  if (spec.options.resume) throw new UsageError("VOUCH_LEDGER=off cannot resume a run: a resumed session must be recorded", "unset VOUCH_LEDGER");
  return "off";
}

/** The signals that cancel a live run (a second one exits at once). SIGQUIT
 *  (Ctrl-\\ outside the live UI) too: its default action would end vouch at once
 *  and leave every child, each leading its own group, running on unstopped. */
const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];

/** Runs the session to its end and returns the exit code (docs/architecture.md §5). */
export async function runSession(spec: SessionSpec): Promise<number> {
  const { io, ledger, lock } = spec; // preflightRun() has passed
  let recording: "on" | "off";
  try {
    recording = ledgerSwitch(spec);
  } catch (e) {
    lock.release();
    ledger.close();
    throw e;
  }
  const controller = new AbortController();
  let interrupts = 0;
  const cancel = () => {
    if (!controller.signal.aborted) controller.abort(new Error("interrupted"));
  };
  let sinkRef: { close(): void } | null = null;
  // Once the run is over, the live UI waits for the person; a signal then just leaves.
  let runOver = false;
  let leave = () => {};
  const left = new Promise<void>((resolve) => (leave = resolve));
  const exitNow = () => {
    // Second Ctrl-C: kill every group at once; what the ledger committed stays.
    killAllGroups("SIGKILL");
    try {
      sinkRef?.close();
    } catch {
      // The ledger may be mid-commit; the run is resumable from what it holds.
    }
    lock.release();
    process.exit(EXIT.interrupted);
  };
  const onSignal = () => {
    if (runOver) return leave();
    interrupts += 1;
    if (interrupts === 1) {
      io.err("vouch: cancelling the run (children are stopped; Ctrl-C again to stop at once)\n");
      cancel();
    } else exitNow();
  };
  // SIGHUP too: a closed terminal (or ssh session, or tmux) signals only vouch,
  // never its children (they lead their own groups), so vouch must stop them.
  const onSignals = () => STOP_SIGNALS.forEach((s) => process.on(s, onSignal));
  const offSignals = () => STOP_SIGNALS.forEach((s) => process.off(s, onSignal));
  onSignals();
  // A closed pipe (vouch run --json | head) cancels the run like Ctrl-C: it stays resumable.
  const restoreStdout = onStdoutClosed(cancel);

  const env = parentEnv();
  const agents = realAgentRunner(env, spec.replayDir, spec.replayDelayMs);
  // This session holds the run's lock, so an earlier one is dead: if it was
  // killed -9, its process groups may live on. Kill them, then journal ours.
  const journalFile = lock.file.replace(/\.lock$/, ".groups");
  const reaped = reapGroupJournal(journalFile);
  if (reaped.length > 0) {
    const n = reaped.length === 1 ? "1 process group" : `${reaped.length} process groups`;
    io.err(`vouch: killed ${n} left running by an earlier session of this run (pgid ${reaped.join(", ")})\n`);
  }

  const mode = chooseOutput(spec.flags, io);
  const { output, approvals, held } = await openOutput(spec, mode, cancel, exitNow);
  if (recording === "off") io.err("vouch: VOUCH_LEDGER=off: this run is not recorded (a benchmark switch): it cannot be shown or resumed\n");
  const forward = (event: Parameters<EventOutput["push"]>[0]) => output.push(event);
  // A commit that fails on the sink's timer (a full disk) stops the run now: the
  // next append rethrows it and ends the session with the ledger's error (exit 3).
  const sink = recording === "off" ? directSink(forward) : ledger.sink(forward, { onFailure: cancel });
  sinkRef = sink;
  const ports = { agents, commands: createCommandRunner({ parentEnv: env }), clock: systemClock, ledger: sink, approvals };
  let outcome: RunOutcome | undefined;
  let failure: { error: unknown } | null = null;
  const journal = startGroupJournal(journalFile);
  try {
    outcome = await runGraph({ ...spec.options, ports, signal: controller.signal });
  } catch (error) {
    failure = { error };
  }
  // Every step below runs whatever an earlier one threw (a full disk makes
  // sink.close() throw): the groups, the lock, the ledger, the live UI and the
  // signal handlers are let go on every path, and the first error is rethrown.
  const step = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (error) {
      failure ??= { error };
    }
  };
  await step(() => sink.close());
  // A cancelled run, or one the engine gave up on (its groups were told to stop): wait for them.
  await step(() => (controller.signal.aborted || outcome === undefined ? shutdownAllGroups() : undefined));
  await step(() => journal.stop());
  await step(() => lock.release());
  await step(() => ledger.close());
  // The live UI keeps the final frame up until the person leaves it (q, Ctrl-C): the run
  // is recorded and unlocked by now. A run the person (or a signal) cancelled leaves at once.
  runOver = true;
  if (outcome && failure === null && held && !controller.signal.aborted) await step(() => Promise.race([held(), left]));
  await step(() => output.close());
  offSignals();
  restoreStdout();
  if (failure !== null) throw failure.error;
  const ended = outcome!; // runGraph resolved: nothing failed
  if (mode === "tui") {
    io.err(`run ${ended.runId}: ${ended.status} (exit ${ended.exitCode}) — vouch show ${ended.runId}\n`);
  }
  return ended.exitCode;
}
