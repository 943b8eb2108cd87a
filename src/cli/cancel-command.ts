// `vouch cancel RUN [--wait DURATION]`: stop a running run from anywhere that can
// open its ledger (ADR 0062). The request is recorded (who, when; `vouch show`
// lists it); the run's own process takes it within a poll and stops as on
// Ctrl-C: children killed, fleet jobs cancelled, the run `interrupted` and
// resumable. Exit 0 once the run has ended, 2 when it is not running, 3 when it
// did not stop within the wait.
import { EXIT } from "../engine/errors.ts";
import { checkedLedgerHome, openLedger } from "../ledger/index.ts";
import { sanitize } from "../text/sanitize.ts";
import { parseCommandArgs } from "./args.ts";
import type { CliIO, Command } from "./io.ts";
import { oneRun, recordedHome } from "./recorded-ledger.ts";
import { cancelRun, type CancelOutcome } from "./remote/cancel-run.ts";
import { waitFlag } from "./wait-flag.ts";

/** Long enough for a run to stop its children (their grace period) and record its end. */
export const CANCEL_WAIT_MS = 60_000;

const cancelCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("cancel", args, { wait: { type: "string" } });
  const ref = oneRun("cancel", positionals);
  const waitMs = waitFlag(values.wait, CANCEL_WAIT_MS);
  recordedHome(io, ref);
  const ledger = openLedger({ home: checkedLedgerHome(io.env, io.cwd), onNotice: io.err });
  try {
    return said(await cancelRun({ ledger, ref, via: "command", env: io.env, waitMs }), io, waitMs);
  } finally {
    ledger.close();
  }
};
export default cancelCommand;

function said(o: CancelOutcome, io: CliIO, waitMs: number): number {
  const say = (text: string) => io.out(sanitize(`${text}\n`));
  switch (o.kind) {
    case "not_running":
      io.err(`vouch: run ${o.runId} is not running (${o.status}${o.exitCode === null ? "" : `, exit ${o.exitCode}`}): nothing to cancel\n`);
      return EXIT.usage;
    case "requested":
      say(`cancel of run ${o.runId} requested (request ${o.request}); follow it with: vouch watch ${o.runId}`);
      return EXIT.passed;
    case "ended": {
      const how = o.status === "abandoned" ? "its process ended without finishing it" : `${o.status} (exit ${o.exitCode})`;
      say(
        o.took
          ? `run ${o.runId} cancelled: ${how}; resume it with: vouch resume ${o.runId}`
          : `run ${o.runId} ended before it took the cancel: ${how}`,
      );
      return EXIT.passed;
    }
    case "timeout": {
      const where = o.holder ? `its process (pid ${o.holder.pid}${o.holder.host ? ` on ${o.holder.host}` : ""})` : "its process";
      io.err(
        sanitize(
          `vouch: run ${o.runId} has not stopped within ${Math.round(waitMs / 1000)}s of the request: ${where} may be stuck; the request stays recorded\nhint: stop it there (kill -TERM ${o.holder?.pid ?? "PID"}), or wait longer: vouch cancel ${o.runId} --wait 5m\n`,
        ),
      );
      return EXIT.error;
    }
  }
}
