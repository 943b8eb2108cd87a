// Asking a run to stop from another process (ADR 0062), shared by `vouch cancel`
// and the MCP server: the request is recorded in the ledger (who, when), the
// running session takes it within a poll and stops as on Ctrl-C; this waits,
// bounded, for the run's end and says how it ended.
import { systemClock } from "../../engine/clock.ts";
import type { RunStatus } from "../../engine/events.ts";
import { readHolder, runLockState, lockFile, type LockHolder, type RequestVia, type RunLedger } from "../../ledger/index.ts";
import { followRun } from "./follow.ts";
import { requester } from "./requester.ts";

export type CancelOutcome =
  /** The run was not running: nothing was recorded. */
  | { kind: "not_running"; runId: string; status: string; exitCode: number | null }
  /** Recorded; not waited for (wait 0). */
  | { kind: "requested"; runId: string; request: number }
  /** The run ended; took: a cancel stopped it (run.cancel_requested), else it ended first on its own. */
  | { kind: "ended"; runId: string; request: number; took: boolean; status: RunStatus | "abandoned"; exitCode: number | null }
  /** Still running when the wait was over. */
  | { kind: "timeout"; runId: string; request: number; holder: LockHolder | null };

export interface CancelSpec {
  ledger: RunLedger;
  ref: string;
  via: RequestVia;
  env: Record<string, string | undefined>;
  /** How long to wait for the run to end (0: do not wait). */
  waitMs: number;
}

export async function cancelRun(s: CancelSpec): Promise<CancelOutcome> {
  const { ledger } = s;
  const runId = ledger.resolveRun(s.ref);
  const lockState = () => runLockState(ledger.home, runId);
  if (lockState() !== "held") {
    const r = ledger.runSummary(runId).run;
    return { kind: "not_running", runId, status: r.status, exitCode: r.exit_code };
  }
  const afterSeq = ledger.lastSeq(runId) ?? -1;
  const request = ledger.requests.cancel(runId, s.via, requester(s.env), new Date().toISOString()).id;
  if (s.waitMs <= 0) return { kind: "requested", runId, request };
  const timeout = AbortSignal.timeout(s.waitMs);
  let took = false;
  const end = await followRun(
    ledger,
    runId,
    // This request, or an earlier one the run took first: either way a cancel stopped it.
    (batch) => (took ||= batch.some((b) => b.event.type === "run.cancel_requested")),
    { afterSeq, signal: timeout, lockState, sleep: systemClock.sleep },
  );
  if (end.kind === "finished") return { kind: "ended", runId, request, took, status: end.event.status, exitCode: end.event.exit_code };
  if (end.kind === "abandoned") return { kind: "ended", runId, request, took, status: "abandoned", exitCode: null };
  return { kind: "timeout", runId, request, holder: readHolder(lockFile(ledger.home, runId)) };
}
