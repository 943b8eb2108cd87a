// The ledger a command that reads one recorded run opens (`vouch show RUN`,
// `vouch report RUN`): read-only, so a ledger vouch may not write is still read
// (ADR 0013); no ledger at all is the user's to fix (exit 2), named with where it looked.
import { UsageError } from "../engine/errors.ts";
import { checkedLedgerHome, ledgerExists, openLedgerForReading, type RunLedger } from "../ledger/index.ts";
import type { CliIO } from "./io.ts";

export function openRecorded(io: CliIO, run: string): RunLedger {
  return openLedgerForReading({ home: recordedHome(io, run) });
}

/** The ledger home, which must hold a ledger (else exit 2, naming where it looked). */
export function recordedHome(io: Pick<CliIO, "env" | "cwd">, run: string): string {
  const home = checkedLedgerHome(io.env, io.cwd);
  if (!ledgerExists(home)) {
    throw new UsageError(
      `no run "${run}": no runs are recorded in ${home}`,
      "run a graph first (vouch run GRAPH), or set VOUCH_HOME to the folder that holds its ledger",
    );
  }
  return home;
}

/** The one RUN argument of `command` (a run id, a unique prefix of one, or last). */
export function oneRun(command: string, positionals: readonly string[]): string {
  if (positionals.length === 1) return positionals[0]!;
  throw new UsageError(
    positionals.length === 0
      ? `${command} needs a RUN: a run id, a unique prefix of one, or last`
      : `${command} takes one RUN (got ${positionals.length})`,
    "see the recorded runs with: vouch runs",
  );
}
