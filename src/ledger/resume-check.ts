// The ledger's side of `vouch resume RUN` (docs/architecture.md §8): may this run be
// resumed, and with what? Takes the run's lock first, so the answer cannot
// go stale between the check and the resume.
import { ResumeRefusedError } from "../engine/errors.ts";
import type { EventOf } from "../engine/events.ts";
import type { RunLock } from "./run-lock.ts";
import type { LedgerRunStatus, RunSummary } from "./types.ts";
import type { ResumeFacts } from "./run-summary.ts";

/** What the lead's resume wiring needs; the caller owns `lock` and releases it. */
export interface ResumeTicket {
  runId: string;
  graph: string;
  graphPath: string;
  /** Digest recorded by the run's latest session. */
  recordedDigest: string;
  /** The run's status before this resume. */
  status: LedgerRunStatus;
  inputs: Record<string, unknown>;
  caps: EventOf<"run.started">["caps"];
  concurrency: number;
  harness: string | null;
  passEnv: string[];
  /** The new session's events continue after this seq. */
  lastSeq: number;
  /** Approvals the run paused at (decided with --approve/--reject). */
  pausedApprovals: EventOf<"run.paused">["approvals"];
  /** True when the graph changed and --force allowed it. */
  digestChanged: boolean;
  lock: RunLock;
}

function short(digest: string): string {
  return digest.length > 16 ? `${digest.slice(0, 16)}…` : digest;
}

/** Refusals in order: the run is live; it passed (nothing to resume); its graph changed (unless force). */
export function checkResumable(
  summary: ResumeFacts,
  lock: RunLock,
  currentDigest: string,
  force: boolean,
  hasSubgraphs = false,
): ResumeTicket {
  const { run } = summary;
  const latest = summary.sessions[summary.sessions.length - 1];
  if (run.status === "passed") {
    throw new ResumeRefusedError(`run ${run.id} passed: there is nothing to resume`, `start a new run with: vouch run ${run.graph_path}`);
  }
  const changed = currentDigest !== run.graph_digest;
  if (changed && !force) {
    throw new ResumeRefusedError(
      // The digest covers every sub-graph file too (ADR 0024): it cannot tell which one changed.
      `the graph file ${run.graph_path}${hasSubgraphs ? " or a sub-graph it uses" : ""} changed since run ${run.id} started (digest ${short(run.graph_digest)} then, ${short(currentDigest)} now)`,
      "resume with --force to run the changed graph (what passed is kept), or start a new run",
    );
  }
  return {
    runId: run.id,
    graph: run.graph,
    graphPath: run.graph_path,
    recordedDigest: run.graph_digest,
    status: run.status,
    inputs: run.inputs,
    caps: run.caps,
    concurrency: run.concurrency,
    harness: run.harness,
    passEnv: summary.pass_env,
    lastSeq: run.last_seq,
    pausedApprovals: latest?.status === "paused" ? (latest.paused ?? []) : [],
    digestChanged: changed,
    lock,
  };
}
