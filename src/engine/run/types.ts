// The engine's public API types (src/engine/run.ts re-exports them).
import type { SandboxAvailability, SandboxMode } from "../sandbox.ts";
import type { GraphFile } from "../graph/schema.ts";
import type {
  AgentRunner,
  Approvals,
  BranchExecutor,
  Clock,
  CommandRunner,
  GitPort,
  HarnessName,
  Ledger,
  MergePort,
  Refusal,
  RemoteWorkspace,
  SittingCaps,
} from "../ports.ts";
import type { EventOf, Qualifier, RunCounts, RunStatus, WorkspaceRecord } from "../events.ts";

export interface RunPorts {
  agents: AgentRunner;
  commands: CommandRunner;
  clock: Clock;
  ledger: Ledger;
  approvals: Approvals;
  /** Git worktrees (workspace mode worktree, ADR 0020). */
  git: GitPort;
  /** Merging branches for `kind: merge` (ADR 0021). */
  merge: MergePort;
}

export interface RunOptions {
  runId: string;
  /** Already validated by the loader. */
  graph: GraphFile;
  graphPath: string;
  graphDigest: string;
  /** Every sub-graph file the graph uses (directly or through others), by absolute path,
   *  already loaded and validated (ADR 0024). */
  subgraphs?: ReadonlyMap<string, GraphFile>;
  /** From --input (strings), merged with declared defaults. */
  inputs: Record<string, unknown>;
  /** Where relative cwd resolves (absolute). */
  baseDir: string;
  /** Missing ports default to the refusing ones in ports.ts. */
  ports: Partial<RunPorts>;
  concurrency?: number;
  budgetUsd?: number;
  wallMs?: number;
  /** --harness: every agent node uses it. */
  harness?: HarnessName;
  /** --pass-env names, added to every node's env names. */
  passEnv?: string[];
  /** Ctrl-C / SIGTERM: cancel everything, status interrupted, exit 130. */
  signal?: AbortSignal;
  /** --wait-limits: wait in this process for a usage limit to reset instead of pausing (ADR 0022). */
  waitLimits?: boolean;
  /** --max-wait: the most the run waits for limits in this process, in total (default DEFAULT_MAX_WAIT_MS). */
  maxWaitMs?: number;
  /** From priorFromEvents(events) of the same run. */
  resume?: ResumeState;
  version: string;
  /** Where map branches run; absent = in process (ADR 0026). */
  executor?: BranchExecutor;
  /** The executor's URL for run.started (without a password). */
  executorUrl?: string;
  /** Map branches with worktrees run on workers: the repository they fetch and push (ADR 0029). */
  remoteWorkspace?: RemoteWorkspace;
  /** The graph's checks its history calls flaky (ADR 0067), for run.started (the live view marks them). */
  flakyChecks?: NonNullable<EventOf<"run.started">["flaky_checks"]>;
  /** --sandbox: the setting of nodes whose graph says none (ADR 0040). */
  sandbox?: SandboxMode;
  /** Whether this machine can seal (the spawn seam's probe, once per session). Absent: NOT_PROBED. */
  sandboxAvailability?: SandboxAvailability;
}

/** A run's own bounds: process slots, and the budget and wall caps (null: none). */
export interface RunLimits {
  concurrency: number;
  budgetUsd: number | null;
  wallMs: number | null;
}

export interface RunOutcome {
  runId: string;
  status: RunStatus;
  exitCode: number;
  /** Why the run ended early: budget, wall, cancelled. */
  reason?: string;
  costUsd: number;
  /** Sittings whose cost the harness did not report. */
  costUnknown: number;
  wallMs: number;
  /** Final status of every node that has one (top-level and branch nodes). */
  counts: RunCounts;
  /** The deciding end node's output. */
  output?: unknown;
}

export interface PlannedNode {
  id: string;
  kind: string;
  /** Set for branch nodes: the map's id. */
  map?: string;
  /** Set for nodes of a sub-graph: its graph node's id. */
  graph?: string;
  needs: string[];
  /** Agent nodes only. */
  harness?: HarnessName;
  caps?: SittingCaps;
  /** harness acp: the agent's command line. */
  acp?: { command: string[] };
  /** The caps that are vouch's defaults, not the graph's (ADR 0050). */
  defaultedCaps?: ("wall" | "idle")[];
  model?: string;
  tools?: string[];
  /** The permission mode the harness is given (vouch plan shows it before approval). */
  permissionMode?: string;
  cwd?: string;
  refusals: Refusal[];
  /** Agent and script nodes: whether their processes run sealed (ADR 0040), and why not. */
  sealed?: boolean;
  unsealed?: string;
}

export interface RunPlan {
  graph: string;
  inputs: Record<string, unknown>;
  concurrency: number;
  caps: { budgetUsd: number | null; wallMs: number | null };
  /** Top-level node ids in the order they can start (topological). */
  order: string[];
  /** Every node, branch nodes right after their map. */
  nodes: PlannedNode[];
  refusals: { node: string; harness: string; field: string; message: string }[];
  /** Nodes that run unsealed because the sandbox does not work here (sandbox: auto): the run's one warning. */
  unsealed: { node: string; reason: string }[];
  passEnv: string[];
}

/** What a resumed run keeps: passed nodes with their outputs, passed branches. */
export interface KeptNode {
  qualifier: Qualifier | null;
  output?: unknown;
  /** Its worktree, reused by the nodes that continue from it. */
  workspace?: WorkspaceRecord;
  /** The node's last session (node.finished.session_id, session_cost_usd): a node that continues it after the resume. */
  sessionId?: string;
  sessionCostUsd?: number;
}
export interface KeptBranch {
  item: unknown;
  verdict: unknown;
  output?: unknown;
}
export interface ResumeState {
  /** seq of the first new event. */
  startSeq: number;
  /** Keyed by nodeKey() (src/engine/events.ts): "id" top-level, "map#index/id" inside a branch. */
  nodes: Record<string, KeptNode>;
  /** Keyed by branchKey(): "map#index". */
  branches: Record<string, KeptBranch>;
  /** nodeKey()s whose last result was not a pass that `exhausted:` recovered: they run
   *  again, so what ran on their exhausted output is not kept either. */
  recovered?: readonly string[];
  /** The last total cost each session's harness reported (node.finished), by session id. */
  sessionCosts?: Readonly<Record<string, number>>;
  /** Branches handed to an executor in earlier sessions (ADR 0026). */
  remote?: RemoteResume;
}

export interface RemoteResume {
  /** By branchKey: the last dispatch, and whether the branch finished since. */
  dispatches: Record<string, { dispatch: number; job: string; finished: boolean }>;
  /** By branchKey: "job:attempt:seq" of the worker events the ledger already holds. */
  seen: Record<string, string[]>;
  /** By job id: the newest attempt the ledger holds events of, and the attempts it recorded cut off. */
  attempts?: Record<string, { last: { attempt: number; worker: string } | null; cutOff: number[] }>;
}
