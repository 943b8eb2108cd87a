// One session of a run, shared by `vouch run` and `vouch resume`: builds the real
// ports, the ledger sink and the chosen output, handles Ctrl-C, drives the engine.
// Data flows one way: engine → ledger (committed) → output (TUI | plain | NDJSON).
import { normalJit } from "./jit-policy.ts";
import { realGit } from "../workspace/git.ts";
import { realMerge } from "../workspace/merge-git.ts";
import { planRun, runGraph, systemClock, type RunOptions, type RunOutcome } from "../engine/run.ts";
import { EXIT, OutputError, RefusalError, UsageError } from "../engine/errors.ts";
import { directSink, type EventSink, type RunLedger, type RunLock } from "../ledger/index.ts";
import { createAgentRunner } from "../spawn/harness/agent-runner.ts";
import { createCommandRunner } from "../spawn/command-runner.ts";
import { ProcessSupervisor } from "../spawn/process-registry.ts";
import { type SpawnThreads, startOffThread } from "../spawn/process/spawn-threads.ts";
import { reapGroupJournal, startGroupJournal } from "../spawn/group-journal.ts";
import { Confiner } from "../spawn/sandbox/confine.ts";
import { SandboxProbe } from "../spawn/sandbox/probe.ts";
import type { RunPlan } from "../engine/run/types.ts";
import type { EventOutput } from "../tui/output.ts";
import type { Decision } from "../engine/run/decisions.ts";
import type { CliIO } from "./io.ts";
import { openOutput, type SessionOutput } from "./session-output.ts";
import { heapCollector } from "./heap-collect.ts";
import { SessionSignals } from "./session-signals.ts";
import type { Approvals } from "../engine/ports.ts";
import { RequestWatch } from "./remote/request-watch.ts";
import { requester } from "./remote/requester.ts";
import { sessionApprovals } from "./remote/session-approvals.ts";
import { Notifications, notifyingOutput } from "./notify/notifications.ts";
import { realDeliver } from "./notify/deliver.ts";
import type { NotifyTarget } from "./notify/targets.ts";
import { sanitize } from "../text/sanitize.ts";
import { openTracing, withTracing } from "./session-telemetry.ts";

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
  /** --wait-approvals: a headless run waits for `vouch approve`/`reject` instead of pausing (ADR 0062). */
  waitApprovals?: boolean;
  /** Whom to tell of approvals waiting, usage-limit pauses and the run's end (ADR 0064). */
  notify?: NotifyTarget[];
  /** The session's sandbox probe (ADR 0040): sealed sittings run through it. Absent: one of the session's own. */
  probe?: SandboxProbe;
}

export function realAgentRunner(
  env: Record<string, string | undefined>,
  replayDir?: string,
  replayDelayMs?: number,
  supervisor?: ProcessSupervisor,
  confiner?: Confiner,
) {
  return createAgentRunner({
    parentEnv: env,
    ...(supervisor !== undefined ? { supervisor } : {}),
    ...(confiner !== undefined ? { confiner } : {}),
    ...(replayDir !== undefined ? { replayDir } : {}),
    ...(replayDelayMs !== undefined ? { replayDelayMs } : {}),
  });
}

/** Throws what the engine would refuse at start (InputError, RefusalError, GraphInvalidError); returns the plan. */
export function preflight(options: RunOptions): RunPlan {
  const plan = planRun(options);
  if (plan.refusals.length > 0) throw new RefusalError(plan.refusals);
  return plan;
}

/** preflight() with the real agent runner. Callers run it before runSession — before
 *  the ledger opens for a new run — so a usage error leaves no ledger (or .vouch folder)
 *  behind and no live UI flashes up. */
export function preflightRun(
  options: Omit<RunOptions, "ports" | "signal">,
  env: Record<string, string | undefined>,
  replayDir?: string,
): RunPlan {
  return preflight({ ...options, ports: { agents: realAgentRunner({ ...env }, replayDir) } });
}

/** VOUCH_LEDGER=off: a benchmark switch, not a feature (ADR 0009). The run takes
 *  its lock as usual but its events go straight to the output (directSink): nothing
 *  is recorded, so the run cannot be shown or resumed. The same 1,000-node graph
 *  with and without it is bench/ledger-overhead.ts. */
function ledgerSwitch(spec: SessionSpec): "on" | "off" {
  const value = spec.io.env.VOUCH_LEDGER;
  if (value === undefined || value === "") return "on";
  if (value !== "off")
    throw new UsageError(
      `VOUCH_LEDGER="${value}": the only value it takes is "off" (a benchmark switch)`,
      "unset VOUCH_LEDGER to record the run",
    );
  if (spec.options.resume)
    throw new UsageError("VOUCH_LEDGER=off cannot resume a run: a resumed session must be recorded", "unset VOUCH_LEDGER");
  return "off";
}

/** VOUCH_SPAWN_THREADS=on: scripts and checks start on spawn workers (ADR 0081). Off by
 *  default: on a quiet 2-core machine they cost CPU and memory and gained no wall time. */
function spawnThreadsSwitch(spec: SessionSpec): "on" | "off" {
  const value = spec.io.env.VOUCH_SPAWN_THREADS;
  if (value === undefined || value === "" || value === "off") return "off";
  if (value !== "on")
    throw new UsageError(
      `VOUCH_SPAWN_THREADS="${value}": it takes "on" or "off" (start scripts and checks on spawn workers, ADR 0081)`,
      "unset VOUCH_SPAWN_THREADS, or set it to on or off",
    );
  return "on";
}

/** ledgerSwitch() and spawnThreadsSwitch(), letting the lock and the ledger go when one refuses. */
function recordingOf(spec: SessionSpec): "on" | "off" {
  try {
    spawnThreadsSwitch(spec);
    return ledgerSwitch(spec);
  } catch (e) {
    spec.lock.release();
    spec.ledger.close();
    throw e;
  }
}

/** This session holds the run's lock, so an earlier one is dead: if it was
 *  killed -9, its process groups may live on. Kill them; returns the journal
 *  file this session records its own groups in. */
function reapEarlierGroups(io: CliIO, lock: RunLock): string {
  const journalFile = lock.file.replace(/\.lock$/, ".groups");
  const reaped = reapGroupJournal(journalFile);
  if (reaped.length > 0) {
    const n = reaped.length === 1 ? "1 process group" : `${reaped.length} process groups`;
    io.err(`vouch: killed ${n} left running by an earlier session of this run (pgid ${reaped.join(", ")})\n`);
  }
  return journalFile;
}

type Ran = { outcome: RunOutcome } | { error: unknown };

/** Runs the session to its end and returns the exit code (docs/architecture.md §5). */
export async function runSession(spec: SessionSpec): Promise<number> {
  normalJit(); // the engine runs as long as the run: the JIT's normal policy (ADR 0031)
  const recording = recordingOf(spec); // preflightRun() has passed
  return new Session(spec, recording).run();
}

class Session {
  private readonly signals: SessionSignals;
  /** Owns every process group and handover folder of this session. */
  private readonly supervisor = new ProcessSupervisor();
  /** The spawn workers the supervisor's scripts and checks start on, with VOUCH_SPAWN_THREADS=on
   *  (ADR 0081); ended with the session. */
  private readonly threads: SpawnThreads | null;
  private sink: EventSink | null = null;
  private requests: RequestWatch | null = null;
  private readonly notifications: Notifications;

  constructor(
    private readonly spec: SessionSpec,
    private readonly recording: "on" | "off",
  ) {
    this.signals = new SessionSignals(spec.io, () => this.exitNow());
    this.threads = spawnThreadsSwitch(spec) === "on" ? startOffThread(this.supervisor) : null;
    const deliver = realDeliver(spec.options.baseDir, { ...spec.io.env });
    this.notifications = new Notifications(spec.options.runId, spec.notify ?? [], deliver, (line) => spec.io.err(sanitize(line)));
  }

  async run(): Promise<number> {
    const { spec, signals } = this;
    const { io } = spec;
    const env = { ...io.env };
    const { supervisor } = this;
    // Before the live UI opens: a warning about the OTEL_* variables goes to a plain stderr.
    const tracing = await openTracing(io, spec.options);
    // Sealed sittings and scripts never see the ledger (ADR 0040).
    const confiner = new Confiner({ probe: spec.probe ?? new SandboxProbe(env), hide: [spec.ledger.home], supervisor });
    const untraced = realAgentRunner(env, spec.replayDir, spec.replayDelayMs, supervisor, confiner);
    const agents = tracing ? tracing.agents(untraced) : untraced;
    const journalFile = reapEarlierGroups(io, spec.lock);
    const opened = await openOutput({ io, flags: spec.flags, cancel: signals.cancel, exitNow: () => this.exitNow() });
    const out: SessionOutput = { ...opened, output: withTracing(opened.output, tracing) };
    if (this.recording === "off")
      io.err("vouch: VOUCH_LEDGER=off: this run is not recorded (a benchmark switch): it cannot be shown or resumed\n");
    const sink = this.openSink(notifyingOutput(out.output, this.notifications));
    supervisor.setBarrier(() => sink.flush());
    const plainCommands = createCommandRunner({ parentEnv: env, supervisor, confiner });
    const commands = tracing ? tracing.commands(plainCommands) : plainCommands;
    const approvals = this.approvals(out);
    const ports = { agents, commands, clock: systemClock, ledger: sink, approvals, git: realGit, merge: realMerge };
    const journal = startGroupJournal(journalFile, supervisor);
    const ran: Ran = await runGraph({ ...spec.options, ports, signal: signals.signal }).then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
    this.requests?.stop();
    const failure = await this.teardown(ran, out, journal, commands);
    if (failure !== null) throw failure.error;
    const ended = (ran as { outcome: RunOutcome }).outcome; // runGraph resolved: nothing failed
    if (out.mode === "tui") io.err(`run ${ended.runId}: ${ended.status} (exit ${ended.exitCode}) — vouch show ${ended.runId}\n`);
    return ended.exitCode;
  }

  /** Requests from other processes (ADR 0062), polled while the run is recorded: a cancel
   *  stops the run as Ctrl-C does; a decision answers the approval waiting for it. */
  private approvals(out: SessionOutput): Approvals {
    const { spec, signals } = this;
    const recorded = this.recording === "on";
    if (recorded) {
      this.requests = new RequestWatch(spec.ledger.requests, spec.options.runId, (r) => signals.cancelBy(r), {
        onError: (e) =>
          spec.io.err(
            `vouch: cannot read the run's requests any more (cancel and approve from elsewhere stop working): ${(e as Error).message}\n`,
          ),
      });
      this.requests.start();
    }
    return sessionApprovals({
      runId: spec.options.runId,
      me: requester(spec.io.env),
      ...(recorded ? { requests: spec.ledger.requests } : {}),
      ...(this.requests ? { watch: this.requests } : {}),
      flags: spec.decisions ?? new Map(),
      standing: spec.standing ?? new Map(),
      ...(out.ask ? { ask: out.ask } : {}),
      waitRemote: spec.waitApprovals === true,
      onAsk: (r) => this.notifications.asked(r),
    });
  }

  /** Engine → ledger (committed) → output. A commit that fails on the sink's timer (a
   *  full disk) stops the run now: the next append rethrows it and ends the session
   *  with the ledger's error (exit 3). */
  private openSink(output: EventOutput): EventSink {
    // A consumer that throws (a bug in the live UI) is vouch's error, not the node whose event it was.
    const collect = heapCollector();
    const forward = (event: Parameters<EventOutput["push"]>[0]) => {
      try {
        output.push(event);
      } catch (e) {
        throw new OutputError(e);
      }
      collect(1);
    };
    const many = output.pushMany?.bind(output);
    const forwardBatch = many
      ? (events: readonly Parameters<EventOutput["push"]>[0][]) => {
          try {
            many(events);
          } catch (e) {
            throw new OutputError(e);
          }
          collect(events.length);
        }
      : undefined;
    this.sink =
      this.recording === "off"
        ? directSink(forward)
        : this.spec.ledger.sink(forward, { onFailure: this.signals.cancel, ...(forwardBatch ? { forwardBatch } : {}) });
    return this.sink;
  }

  /** Every step runs whatever an earlier one threw (a full disk makes sink.close()
   *  throw): the groups, the lock, the ledger, the live UI and the signal handlers
   *  are let go on every path; returns the first error. */
  private async teardown(
    ran: Ran,
    out: SessionOutput,
    journal: { stop(): unknown },
    commands: { close(): Promise<void> },
  ): Promise<{ error: unknown } | null> {
    const { spec, signals } = this;
    let failure: { error: unknown } | null = "error" in ran ? { error: ran.error } : null;
    const step = async (fn: () => unknown) => {
      try {
        await fn();
      } catch (error) {
        failure ??= { error };
      }
    };
    await step(() => this.sink?.close());
    // The run's end was told as run.finished was shown: wait for those deliveries (bounded by their timeouts).
    await step(() => this.notifications.settle());
    await step(() => spec.options.executor?.close?.());
    // A cancelled run, or one the engine gave up on (its groups were told to stop): wait for them.
    await step(() => (signals.cancelled || "error" in ran ? this.supervisor.shutdownAll() : undefined));
    // After every command has ended: the handover folder goes with the session.
    await step(() => commands.close());
    // Every process has ended: the workers go too (a process that runs sessions one after another,
    // as the tests do, kept two threads and their heaps per session).
    await step(() => this.threads?.close());
    await step(() => journal.stop());
    await step(() => spec.lock.release());
    await step(() => spec.ledger.close());
    // The live UI keeps the final frame up until the person leaves it (q, Ctrl-C): the run
    // is recorded and unlocked by now. A run the person (or a signal) cancelled leaves at once.
    signals.runEnded();
    const held = out.held;
    if ("outcome" in ran && failure === null && held && !signals.cancelled) await step(() => Promise.race([held(), signals.left]));
    await step(() => out.output.close());
    signals.dispose();
    return failure;
  }

  /** Second Ctrl-C: kill every group at once; what the ledger committed stays. */
  private exitNow(): void {
    this.supervisor.killAll("SIGKILL");
    try {
      this.sink?.close();
    } catch {
      // The ledger may be mid-commit; the run is resumable from what it holds.
    }
    this.spec.lock.release();
    process.exit(EXIT.interrupted);
  }
}
