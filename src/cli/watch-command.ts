// `vouch watch RUN [--json | --plain]` (and `vouch show RUN --follow`): the live
// view of a run another process records (ADR 0063) — the same outputs its own
// process feeds (the live UI at a terminal, plain lines in a pipe, NDJSON with
// --json), fed the events read from the ledger as it grows. Read-only: it never
// takes the ledger's write lock. It ends when the run ends, with the run's exit
// code (3 when its process died without finishing it; 130 when the person left).
import { systemClock } from "../engine/clock.ts";
import { EXIT, UsageError } from "../engine/errors.ts";
import { withStoredJson, type VouchEvent } from "../engine/events.ts";
import { openLedger, openLedgerReadOnly, runLockState, type RunLedger, type StoredEvent } from "../ledger/index.ts";
import type { Decision } from "../engine/run/decisions.ts";
import type { ApprovalRequest } from "../engine/ports.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";
import { oneRun, recordedHome } from "./recorded-ledger.ts";
import { followRun, type FollowEnd } from "./remote/follow.ts";
import { requester } from "./remote/requester.ts";
import { WatchedApprovals } from "./remote/watch-approvals.ts";
import { openOutput, type SessionOutput } from "./session-output.ts";
import { sanitize } from "../text/sanitize.ts";

export const WATCH_OPTIONS = { json: { type: "boolean" }, plain: { type: "boolean" } } as const;

const watchCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("watch", args, WATCH_OPTIONS);
  if (values.json && values.plain) throw new UsageError("--json and --plain exclude each other");
  return watchRun(oneRun("watch", positionals), { json: values.json === true, plain: values.plain === true }, io);
};
export default watchCommand;

/** Follows run `ref` into the output the flags choose; the exit code as the run's. */
export async function watchRun(ref: string, flags: { json?: boolean; plain?: boolean }, io: CliIO): Promise<number> {
  const home = recordedHome(io, ref);
  const ledger = openLedgerReadOnly({ home });
  try {
    const runId = ledger.resolveRun(ref);
    const leave = new AbortController();
    const out = await openOutput({ io, flags, watching: true, cancel: () => leave.abort(), exitNow: () => leave.abort() });
    const stopSignals = onStopSignals(() => leave.abort());
    void out.gone?.then(() => leave.abort());
    const approvals = out.ask ? new WatchedApprovals(out.ask, (r, d) => recordDecision(home, runId, r, d, io)) : undefined;
    let end: FollowEnd;
    try {
      end = await followRun(ledger, runId, (batch) => show(out, approvals, batch), {
        signal: leave.signal,
        lockState: () => runLockState(home, runId),
        sleep: systemClock.sleep,
      });
      approvals?.withdrawAll();
      // The final frame stays up until the person leaves it, as in the run's own live view.
      if (end.kind !== "left" && out.held) await Promise.race([out.held(), abortedOf(leave.signal)]);
    } finally {
      stopSignals();
      await out.output.close();
    }
    return endCode(end, runId, out, io);
  } finally {
    ledger.close();
  }
}

function show(out: SessionOutput, approvals: WatchedApprovals | undefined, batch: readonly StoredEvent[]): void {
  const events: VouchEvent[] = batch.map((s) => withStoredJson(s.event, s.text));
  if (out.output.pushMany) out.output.pushMany(events);
  else for (const e of events) out.output.push(e);
  approvals?.seen(events);
}

function endCode(end: FollowEnd, runId: string, out: SessionOutput, io: CliIO): number {
  if (end.kind === "finished") {
    const e = end.event;
    if (out.mode === "tui") io.err(`run ${runId}: ${e.status} (exit ${e.exit_code}) — vouch show ${runId}\n`);
    return e.exit_code;
  }
  if (end.kind === "abandoned") {
    io.err(`vouch: run ${runId} ended without finishing: the process recording it is gone (resume it with: vouch resume ${runId})\n`);
    return EXIT.error;
  }
  return EXIT.interrupted; // left before the run ended (the run goes on)
}

/** `a` or `r` in the view: one request row, as `vouch approve` writes it; the run takes it. */
function recordDecision(home: string, runId: string, r: ApprovalRequest, decision: Decision, io: CliIO): void {
  let ledger: RunLedger | undefined;
  try {
    ledger = openLedger({ home });
    const at = new Date().toISOString();
    ledger.requests.decide(runId, {
      node: r.node,
      ...(r.branch ? { branch: r.branch } : {}),
      round: r.round ?? 1,
      decision,
      via: "watch",
      by: requester(io.env),
      at,
    });
  } catch (e) {
    // The live view owns the terminal: the run's events will show what was decided, if anything was.
    if (io.env.VOUCH_DEBUG) io.err(sanitize(`vouch: recording the decision failed: ${(e as Error).message}\n`));
  } finally {
    ledger?.close();
  }
}

const STOP: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Ctrl-C, SIGTERM, SIGHUP: stop watching (the run goes on). */
function onStopSignals(leave: () => void): () => void {
  STOP.forEach((s) => process.on(s, leave));
  return () => STOP.forEach((s) => process.off(s, leave));
}

function abortedOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}
