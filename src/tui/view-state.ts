// The view model's shape: what the screen knows about a run, built only from events.
import type {
  BranchRef,
  Cause,
  CapName,
  EvidencePart,
  NodeStatus,
  Qualifier,
  RunCounts,
  RunStatus,
  StopReason,
  Tokens,
  WorkspaceRecord,
} from "../engine/events.ts";
import type { CheckOutcome } from "../engine/ports.ts";
import type { ChunkedList } from "./chunked-list.ts";
import type { RowStatus } from "./format.ts";

/** A check as the screen shows it: the fields of a check.finished, in the port's shape. */
export type CheckView = Omit<CheckOutcome, "notRun">;

export interface OverrunView {
  cap: CapName;
  limit: number;
  actual: number;
  attempt: number | null;
}

export interface AttemptView {
  attempt: number;
  startedAt: number | null;
  status: RowStatus;
  turns: number | null;
  costUsd: number | null;
  tokens: Tokens | null;
  /** API requests the harness has retried in this attempt (node.progress.api_retries). */
  apiRetries?: number;
  checks: readonly CheckView[];
  /** Set when this attempt failed and another one followed. */
  retry?: { cause: Cause; reason: string; backoffMs: number; error?: string };
}

export interface NodeView {
  key: string;
  id: string;
  kind: string;
  branch?: BranchRef;
  description?: string;
  status: RowStatus;
  attempt: number;
  round?: number;
  attempts: readonly AttemptView[];
  harness?: string;
  prompt?: string;
  activity?: string;
  qualifier: Qualifier | null;
  stopReason: StopReason | null;
  cause: Cause | null;
  costUsd: number | null;
  /** What earlier feedback rounds of this node cost (a new round numbers its attempts from 1 again). */
  carriedCostUsd?: number;
  turns: number | null;
  wallMs: number | null;
  tokens: Tokens | null;
  evidence?: readonly EvidencePart[];
  error?: string;
  resultTail?: string;
  recovered?: boolean;
  fallback?: string;
  sessionId?: string;
  /** The node's git worktree after its last attempt (ADR 0020). */
  workspace?: WorkspaceRecord;
  /** Witnessed checks that went fail→pass (ADR 0044). */
  witnessed?: readonly string[];
  overruns: readonly OverrunView[];
  /** A merge node: the branches it left out, with the paths that conflict. */
  conflicts?: readonly { gitBranch: string; from: string; paths: readonly string[] }[];
  /** What of the user's repository changed while it ran (ADR 0044). */
  repoChanged?: readonly string[];
  startedAt: number | null;
  /** The worker that ran this node's latest attempt (a branch node on a worker). */
  worker?: string;
}

export interface BranchView {
  index: number;
  label: string;
  status: RowStatus;
  verdict: unknown;
  /** The verdict as shown, set when the branch finished. */
  verdictText: string | null;
  error?: string;
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
  /** Top-level node ids in graph order. */
  order: readonly string[];
  /** Per map: its branch node ids in graph order. */
  branchOrder: Readonly<Record<string, readonly string[]>>;
  nodes: Readonly<Record<string, NodeView>>;
  maps: Readonly<Record<string, MapView>>;
  /** Live cost estimate: the sum of every node's cost so far (run.finished's total replaces it). */
  costUsd: number;
  runOverruns: readonly OverrunView[];
  /** Approvals the run paused at (run.paused). */
  paused: readonly { node: string; branch?: BranchRef; prompt?: string }[] | null;
  /** The usage limit the run waits for (run.waiting: `until` set) or paused at (run.paused rate_limited). */
  limit: LimitView | null;
  lastEventAt: number | null;
  events: number;
}

export function initialState(): ViewState {
  return {
    run: null,
    status: "waiting",
    end: null,
    order: [],
    branchOrder: {},
    nodes: {},
    maps: {},
    costUsd: 0,
    runOverruns: [],
    paused: null,
    limit: null,
    lastEventAt: null,
    events: 0,
  };
}

export function isFinal(status: RowStatus): status is NodeStatus {
  return status === "passed" || status === "failed" || status === "error" || status === "skipped" || status === "cancelled";
}

/** What a node has cost so far: the larger of its reported total and the sum of its attempts' live costs. */
export function nodeCost(n: NodeView): number {
  const live = n.attempts.reduce((sum, a) => sum + (a.costUsd ?? 0), 0);
  return (n.carriedCostUsd ?? 0) + Math.max(live, n.costUsd ?? 0);
}
