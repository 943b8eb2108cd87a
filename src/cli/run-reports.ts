// `--report FORMAT:FILE` of `vouch run` and `vouch resume`: the reports are
// written when the session ends however it ends (passed, failed, error, paused,
// interrupted), from what the ledger recorded. A report that cannot be written
// then is said on stderr and turns exit 0 into 3: CI that asked for it must not
// pass without it. Here, not in src/report/: it is the session's wiring (files,
// the ledger, stderr); the reports themselves are pure renderings.
import { EXIT } from "../engine/errors.ts";
import { ledgerHome, openLedgerForReading } from "../ledger/index.ts";
import { renderReport } from "../report/render.ts";
import { writeReport, type ReportTarget } from "../report/write-report.ts";
import { ciContextFor } from "./ci-context.ts";
import { recordedDrawing } from "./graph-drawing.ts";
import type { CliIO } from "./io.ts";

async function writeAll(io: CliIO, runId: string, targets: ReportTarget[]): Promise<boolean> {
  let ok = true;
  try {
    const ledger = openLedgerForReading({ home: ledgerHome(io.env, io.cwd) });
    try {
      for (const t of targets) {
        try {
          writeReport(t.file, await renderReport(ledger, runId, t.format, recordedDrawing(io), ciContextFor(io.env, io.cwd)), "--report");
          io.err(`vouch: wrote the ${t.format} report to ${t.file}\n`);
        } catch (e) {
          ok = false;
          io.err(`vouch: ${(e as Error).message}\n`);
        }
      }
    } finally {
      ledger.close();
    }
  } catch (e) {
    io.err(`vouch: no report written: ${(e as Error).message}\n`);
    return false;
  }
  return ok;
}

/** Runs the session, then writes the reports, also when the session threw. */
export async function withReports(io: CliIO, runId: string, targets: ReportTarget[], session: () => Promise<number>): Promise<number> {
  if (targets.length === 0) return session();
  if (io.env.VOUCH_LEDGER === "off") {
    io.err("vouch: VOUCH_LEDGER=off: the run is not recorded, so no --report is written\n");
    return session();
  }
  let code: number;
  try {
    code = await session();
  } catch (e) {
    await writeAll(io, runId, targets);
    throw e;
  }
  const ok = await writeAll(io, runId, targets);
  return !ok && code === EXIT.passed ? EXIT.error : code;
}
