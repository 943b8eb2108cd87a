// The view model's shape: what the screen knows about a run, built only from events.
// Nodes, attempts and branches are the read model's (src/read/views.ts), in the
// events' own field names; what only a live screen needs is added here in camelCase
// (its row key, start times, the branch it is doing now, the worker it runs on).
import type { BranchRef, Cause, EventOf, EvidencePart, NodeStatus, RunCounts, RunStatus, Tokens } from "../engine/events.ts";
import type { AttemptFacts, BranchFacts, CheckRecord, NodeFacts, OverrunRecord } from "../read/views.ts";
import type { ChunkedList } from "./chunked-list.ts";
import type { RowStatus } from "./format.ts";
import type { SealTally } from "../read/seal.ts";

export type { CheckRecord, OverrunRecord };

/** A check as the screen holds it: its record, and when its history calls it flaky (run.started's
 *  flaky_checks, ADR 0067), the mark shown beside it ("flaky in 3 of the last 10 runs"). */
export type LiveCheck = CheckRecord & { flakyHistory?: string };

export interface AttemptView extends AttemptFacts<RowStatus> {
  checks: readonly LiveCheck[];
  /** When its node.started arrived (ms), for the live elapsed time. */
  startedAt: number | null;
  /** Set when this attempt failed and another one followed: what its node.retrying said. */
  retry?: { cause: Cause; reason: string; backoff_ms: number; error?: string };
}

export interface NodeView extends NodeFacts<RowStatus, AttemptView> {
  /** The row's key: nodeKey (src/engine/events.ts), "map#index/id" in a branch. */
  key: string;
  kind: string;
  description?: string;
  /** The attempt the node is at (of its current round). */
  attempt: number;
  round?: number;
  harness?: string;
  prompt?: string;
  activity?: string;
  tokens: Tokens | null;
  evidence?: readonly EvidencePart[];
  result_tail?: string;
  recovered?: boolean;
  fallback?: string;
  session_id?: string;
  overruns: readonly OverrunRecord[];
  /** A merge node: the branches it left out, with the paths that conflict (its merge.conflict events). */
  conflicts?: readonly { git_branch: string; from: string; paths: readonly string[] }[];
  /** What of the user's repository changed while it ran (its last repo.changed, ADR 0044). */
  repoChanged?: readonly string[];
  startedAt: number | null;
  /** The worker that ran this node's latest attempt (a branch node on a worker). */
  worker?: string;
}

export interface BranchView extends BranchFacts<RowStatus> {
  label: string;
  verdict: unknown;
  /** The verdict as shown, set when the branch finished. */
  verdictText: string | null;
  nodes: Readonly<Record<string, NodeView>>;
  /** The branch node that started last (what the branch is doing now). */
  current?: string;
  /** The worker running (or that ran) the branch's latest attempt, from its events' `remote` (view-worker.ts). */
  worker?: string;
  /** Attempts cut off on a worker (branch.cut_off), oldest first. */
  cutOff?: readonly { worker: string; attempt: number }[];
}

export interface MapView {
  id: string;
  /** How many items, when the map's node.started said so. */
  items: number | null;
  started: number;
  running: number;
  finished: number;
  statusCounts: RunCounts;
  /** Finished branches per verdict text, in order of first appearance. */
  verdictCounts: readonly (readonly [string, number])[];
  branches: ChunkedList<BranchView>;
  /** Finished branches let go of this state (view-fold.ts, ADR 0078): counted above, no longer listed. */
  released?: number;
  /** What each branch let go was counted as, one packed number per index (view-fold.ts): a
   *  branch that runs again (a feedback round, a resumed run) is counted out by it first. */
  releasedFacts?: ChunkedList<number>;
  /** The verdict texts the packed facts name by position. */
  releasedVerdicts?: readonly string[];
}

export interface RunView {
  id: string;
  graph: string;
  graphPath: string;
  startedAt: number | null;
  budgetUsd: number | null;
  wallMs: number | null;
  concurrency: number;
  resumed: boolean;
  harness: string | null;
  version: string;
  /** The graph's checks the ledger's history calls flaky (run.started's flaky_checks). */
  flakyChecks: NonNullable<EventOf<"run.started">["flaky_checks"]>;
}

export interface LimitView {
  harness: string;
  resetsAt: string | null;
  /** Set while the run waits in process (--wait-limits): when the wait ends. */
  until?: string;
}

export interface RunEnd {
  status: RunStatus;
  exitCode: number;
  reason?: string;
  /** The whole run's: the earlier sessions' run.finished costs plus this one's (as `vouch show` sums them). */
  costUsd: number;
  costUnknown: number;
  wallMs: number;
  counts: RunCounts;
}

export interface ViewState {
  /** null until run.started (or any event naming the run) arrives. */
  run: RunView | null;
  status: "waiting" | "running" | RunStatus;
  end: RunEnd | null;
  /** The run's session the events are of: 1, one more at each resumed run.started (0 before any). */
  session: number;
  /** What the sessions before this one cost, and how many of their sittings of unknown cost. */
  earlier: { costUsd: number; costUnknown: number };
  /** Top-level node ids in graph order. */
  order: readonly string[];
  /** Per map: its branch node ids in graph order. */
  branchOrder: Readonly<Record<string, readonly string[]>>;
  nodes: Readonly<Record<string, NodeView>>;
  maps: Readonly<Record<string, MapView>>;
  /** Live cost: every node's cost so far, over every session (run.finished's total replaces it). */
  costUsd: number;
  runOverruns: readonly OverrunRecord[];
  /** Approvals the run paused at (run.paused). */
  paused: readonly { node: string; branch?: BranchRef; prompt?: string }[] | null;
  /** The usage limit the run waits for (run.waiting: `until` set) or paused at (run.paused rate_limited). */
  limit: LimitView | null;
  /** Another process asked the run to stop (run.cancel_requested): who, in one line. */
  cancelledBy: string | null;
  lastEventAt: number | null;
  events: number;
  /** The seals of the branches let go of this state (view-fold.ts, ADR 0078). */
  releasedSeals?: SealTally;
}

export function initialState(): ViewState {
  return {
    run: null,
    status: "waiting",
    end: null,
    session: 0,
    earlier: { costUsd: 0, costUnknown: 0 },
    order: [],
    branchOrder: {},
    nodes: {},
    maps: {},
    costUsd: 0,
    runOverruns: [],
    paused: null,
    limit: null,
    cancelledBy: null,
    lastEventAt: null,
    events: 0,
  };
}

export function isFinal(status: RowStatus): status is NodeStatus {
  return status === "passed" || status === "failed" || status === "error" || status === "skipped" || status === "cancelled";
}
