// What the ledger's readers return: `vouch runs`, `vouch show` and resume.
// The node, attempt and branch views are the read model's (src/read/views.ts), extended
// with what the ledger projects (sessions, timestamps, retry causes, outputs).
import type { EventOf, NodeStatus, Qualifier, RunStatus, StopReason, Cause } from "../engine/events.ts";
import type { AttemptFacts, BranchFacts, CheckRecord, NodeFacts, OverrunRecord } from "../read/views.ts";
import type { ClaimCell, RetryCell } from "../read/claims.ts";
import type { RunRequest } from "./run-requests.ts";

export type { CheckRecord, OverrunRecord };

/** A run's status as shown: what its last run.finished said, or — when its
 *  latest session has no run.finished — `running` while a live process holds
 *  its lock and `abandoned` otherwise (derived, never written; ADR 0008). */
export type LedgerRunStatus = RunStatus | "running" | "abandoned";

export interface RunListing {
  id: string;
  graph: string;
  graph_path: string;
  status: LedgerRunStatus;
  /** ISO time of the first run.started. */
  started_at: string;
  /** Sum over sessions; an unfinished session counts up to its last event (or now, while live). */
  wall_ms: number;
  /** Sum of known costs over sessions: a finished session's run.finished cost_usd; an
   *  unfinished one's nodes so far (last attempt of each, live node.progress included). */
  cost_usd: number;
  /** Sittings whose cost the harness did not report. */
  cost_unknown: number;
  /** Exit code of the latest session's run.finished, null while running or abandoned. */
  exit_code: number | null;
  /** 1 + the number of resumes. */
  sessions: number;
  live: boolean;
}

export interface SessionView {
  session: number;
  resumed: boolean;
  graph_digest: string;
  started_at: string;
  /** The session's own status (same rule as the run's, for this session). */
  status: LedgerRunStatus;
  finished_at: string | null;
  exit_code: number | null;
  reason: string | null;
  cost_usd: number;
  cost_unknown: number;
  wall_ms: number;
  counts: EventOf<"run.finished">["counts"] | null;
  first_seq: number;
  last_seq: number;
  /** Approvals waiting when the session paused. */
  paused: EventOf<"run.paused">["approvals"] | null;
  /** The output of the end node that decided the session, if one did. */
  output?: unknown;
}

/** One attempt of one node (in one session): what the ledger's node_results row holds. */
export interface AttemptView extends AttemptFacts<NodeStatus | null> {
  qualifier: Qualifier | null;
  stop_reason: StopReason | null;
  cause: Cause | null;
  error: string | null;
  /** Set when this attempt was retried: why. */
  retry_cause: Cause | null;
  retry_reason: string | null;
  recovered: boolean;
  fallback: string | null;
  wall_ms: number | null;
  output?: unknown;
  result_tail: string | null;
  /** The harness's session id (node.finished.session_id), when it reported one. */
  session_id: string | null;
  started_at: string | null;
  checks: CheckRecord[];
  overruns: OverrunRecord[];
}

/** Shown status of a node: its status, or what became of it. `waiting`: an
 *  approval node the run is paused at (decide it with vouch resume --approve/--reject),
 *  or a node a usage limit holds (stop reason rate_limited; vouch resume runs it again). */
export type NodeShownStatus = NodeStatus | "running" | "waiting" | "unfinished" | "not started";

export interface NodeView extends NodeFacts<NodeShownStatus, AttemptView> {
  output?: unknown;
  attempts: AttemptView[];
}

export interface BranchView extends BranchFacts<NodeStatus | "running" | "unfinished"> {
  item?: unknown;
  session: number;
  nodes: NodeView[];
}

export interface RunSummary {
  run: RunListing & {
    graph_digest: string;
    inputs: Record<string, unknown>;
    caps: EventOf<"run.started">["caps"];
    concurrency: number;
    harness: string | null;
    version: string;
    reason: string | null;
    counts: EventOf<"run.finished">["counts"] | null;
    output?: unknown;
    last_seq: number;
  };
  sessions: SessionView[];
  /** Top-level nodes in graph order (then any the graph no longer lists). */
  nodes: NodeView[];
  /** Map branches, by map then index; each with its own nodes. */
  branches: BranchView[];
  /** Run-wide cap overruns (node overruns are on their attempts). */
  overruns: OverrunRecord[];
  /** Names of environment variables passed to children, over all sessions. */
  pass_env: string[];
  /** Names the graph's own env: lists passed to some nodes (never values). */
  graph_env: string[];
  /** The usage limit the latest session paused at (its run.paused, reason rate_limited; ADR 0022). */
  limit?: PausedLimit;
  /** What the run's agent sittings claimed beside what the evidence found (ADR 0068). */
  claims: ClaimCell[];
  /** What each cause's retries cost and bought in this run (ADR 0068). */
  retries: RetryCell[];
  /** Cancels and approval decisions asked of the run, with who asked and when (ADR 0062); absent when none. */
  requests?: RunRequest[];
}

export interface PausedLimit {
  harness: string;
  resets_at: string | null;
  limited: NonNullable<EventOf<"run.paused">["limited"]>;
}
