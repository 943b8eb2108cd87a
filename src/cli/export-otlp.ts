// `vouch export otlp RUN [--endpoint URL]`: a recorded run's spans sent to an OTLP/HTTP
// collector after the fact (ADR 0059), for CI that has no collector while it runs. The
// endpoint is --endpoint (the traces URL as is) or the standard OTEL_EXPORTER_OTLP_*
// variables, as for a live export.
import { EXIT, UsageError, VouchError } from "../engine/errors.ts";
import { checkedLedgerHome, ledgerExists, openLedgerForReading } from "../ledger/index.ts";
import { telemetryChoice } from "../telemetry/config.ts";
import { sanitizeInline } from "../text/sanitize.ts";
import type { CliIO } from "./io.ts";
import { version } from "./version.ts";

/** The collector did not take the spans: exit 3 (the run itself is untouched). */
class ExportFailedError extends VouchError {
  readonly name = "ExportFailedError";
  readonly exitCode = EXIT.error;
  constructor(message: string) {
    super(message, "is the collector up and reachable? the run stays recorded: export it again later");
  }
}

export async function exportOtlp(run: string, endpoint: string | undefined, io: CliIO): Promise<number> {
  const env = endpoint === undefined ? io.env : { ...io.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint };
  const choice = telemetryChoice(env);
  if (choice.kind === "refused") throw new UsageError(`export otlp: ${choice.warning}`);
  if (choice.kind === "off")
    throw new UsageError(
      "export otlp needs a collector: --endpoint URL, or OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set",
      "e.g. vouch export otlp last --endpoint http://localhost:4318/v1/traces",
    );
  const home = checkedLedgerHome(io.env, io.cwd);
  if (!ledgerExists(home))
    throw new UsageError(
      `no run "${run}": no runs are recorded in ${home}`,
      "run a graph first, or set VOUCH_HOME to the folder that holds its ledger",
    );
  const ledger = openLedgerForReading({ home });
  let runId: string;
  let events;
  try {
    runId = ledger.resolveRun(run);
    events = ledger.runEvents(runId);
  } finally {
    ledger.close();
  }
  const [{ exportRecorded }, { traceRoot }] = await Promise.all([
    import("../telemetry/replay-export.ts"),
    import("../telemetry/trace-ids.ts"),
  ]);
  const root = traceRoot(runId, env);
  const tally = await exportRecorded(events, root, choice.target, version);
  if (tally.sent < tally.added || tally.error !== undefined) {
    const why = tally.error !== undefined ? `: ${sanitizeInline(tally.error).slice(0, 300)}` : "";
    throw new ExportFailedError(
      `export otlp: ${tally.added - tally.sent} of ${tally.added} spans were not sent to ${choice.target.display}${why}`,
    );
  }
  io.err(`vouch: sent ${tally.sent} spans of run ${runId} to ${choice.target.display}\n`);
  io.out(`${root.traceId}\n`);
  return EXIT.passed;
}
