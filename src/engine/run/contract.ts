// What a node handler may read and do (ADR 0036): the bottom of src/engine/run/.
// A handler (agent, script, router, approval, end, merge) is handed a NodeEnv —
// its place in the run and a view of run data — and returns a NodeResult. It
// reaches the run only through NodeRun and its Frame: never through RunContext,
// a scope or another handler, so a new node kind joins no import loop. Types,
// and the stop list re-exported; this file imports nothing of src/engine/run/
// but the leaves it names (test/invariants/node-contract.test.ts).
import type { BranchRef, Cause, EvidencePart, NodeStatus, Qualifier, StopReason, Tokens, WorkspaceRecord } from "../events.ts";
import type { GraphFile } from "../graph/schema.ts";
import type { CheckOutcome, Clock, CommandInput, Sitting } from "../ports.ts";
import type { Slots } from "../scheduler/slots.ts";
import type { OutputSchemas } from "../verdict/output-schema.ts";
import type { RunStop } from "../verdict/stop.ts";
import type { Workspaces } from "../workspace/workspaces.ts";
import type { Emitter } from "./emitter.ts";
import type { LimitBook } from "./limits.ts";
import type { RunOptions, RunPorts } from "./types.ts";

export { RUN_STOPS, isRunStop, type RunStop } from "../verdict/stop.ts";

/** The run's options a handler reads: ids, folders, and what the command line adds to every node. */
export type NodeRunOptions = Readonly<
  Pick<RunOptions, "runId" | "baseDir" | "passEnv" | "harness" | "remoteWorkspace" | "sandbox" | "sandboxAvailability">
>;

/** The run as a node handler sees it: what it may read (options, ports, clock) and the
 *  run-wide services it may use. RunContext implements it. */
export interface NodeRun {
  readonly options: NodeRunOptions;
  readonly ports: RunPorts;
  readonly clock: Clock;
  /** Every event a handler emits goes here (the envelope, then the ledger). */
  readonly emitter: Pick<Emitter, "emit">;
  /** Output schemas, compiled once per run. */
  readonly schemas: Pick<OutputSchemas, "compile">;
  /** The run's own process slots (a merge node holds one; attempts take their frame's). */
  readonly slots: Pick<Slots, "acquire">;
  /** Usage limits and the attempts parked on them (ADR 0022). */
  readonly usageLimits: Pick<LimitBook, "isLimited" | "note" | "clearStreak" | "park">;
  /** The last total cost each session's harness reported, by session id (ADR 0023). */
  readonly sessionCosts: Map<string, number>;
  /** The run's git worktrees (ADR 0020). */
  readonly workspaces: Pick<Workspaces, "open" | "settle" | "finished">;
}

/** The graph a node belongs to: the top graph, or a sub-graph run by a `kind: graph` node
 *  (ADR 0024). Implemented by topFrame and SubFrame (frame.ts). */
export interface Frame {
  readonly graph: GraphFile;
  readonly inputs: Record<string, unknown>;
  readonly commandInputs: readonly CommandInput[];
  /** Absolute path of this graph's file: VOUCH_GRAPH_DIR, and where `use` resolves. */
  readonly graphPath: string;
  /** "" for the top graph, "review/" inside the sub-graph of node review (events and the ledger). */
  readonly prefix: string;
  /** How many `use` steps below the top graph (0 at the top). */
  readonly depth: number;
  /** Set when the graph node sits in a map branch: every node inside carries its branch. */
  readonly branch?: BranchRef;
  readonly signal: AbortSignal;
  /** Why work in this frame stops: the run's reason first, then this frame's own. */
  stop(): RunStop | null;
  /** A process slot: this frame's `concurrency` and every enclosing one. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /** USD left before the tightest enclosing budget (null: no budget anywhere). */
  remainingBudget(): number | null;
  noteLiveCost(token: object, costUsd: number): void;
  settleCost(token: object, sitting: Pick<Sitting, "costUsd">): void;
}

/** What a node handler gets. Handlers emit node.started, node.progress, check.finished,
 *  cap.overrun and node.retrying; the scope emits node.finished. */
export interface NodeEnv {
  run: NodeRun;
  /** The graph file the node is in (the top graph or a sub-graph): defaults, checks, inputs, caps. */
  frame: Frame;
  /** The node's id in events: "review/x" inside sub-graph review. */
  id: string;
  branch?: BranchRef;
  item?: unknown;
  /** Aborts when the run stops (or the map, under fail_fast). */
  signal: AbortSignal;
  runStop(): RunStop | null;
  /** Template and condition data: inputs, nodes, item (and its `as` name), index. */
  scope(): Record<string, unknown>;
  /** The JSON handed to commands (VOUCH_STATE_FILE and a script's stdin). */
  commandState(): unknown;
  /** Feedback round when the node is on a feedback chain. */
  round?: number;
  /** Appended to the prompt of a feedback loop's head on later rounds. */
  feedbackQuote?: string;
  /** The last session of node `id` (of this branch when the branch has it, else outer):
   *  undefined when it has not finished in this run (ADR 0023). */
  sessionOf?(id: string): FinishedSession | undefined;
}

/** What a finished agent node leaves for a node that continues its session. */
export interface FinishedSession {
  sessionId: string | null;
  sessionCostUsd?: number;
  status: NodeStatus;
}

/** What a handler returns (a map or a sub-graph node's runner too): the scope turns it into node.finished. */
export interface NodeResult {
  status: NodeStatus;
  qualifier: Qualifier | null;
  cause: Cause | null;
  attempt: number;
  stopReason: StopReason | null;
  costUsd: number | null;
  turns: number | null;
  tokens?: Tokens | null;
  wallMs: number;
  evidence?: EvidencePart[];
  output?: unknown;
  error?: string;
  resultTail?: string;
  sessionId?: string;
  /** The session's total cost as the harness reported it (Sitting.sessionCostUsd). */
  sessionCostUsd?: number;
  /** API requests the harness retried, summed over attempts (absent: none reported). */
  apiRetries?: number;
  failedChecks: CheckOutcome[];
  /** Router: the targets it chose. */
  chosen?: string[];
  /** Map: branch results in input order. */
  results?: unknown[];
  /** Approval: waiting for a person. */
  paused?: { prompt?: string };
  /** Agent or script node in a git worktree: its branch and diff after the last attempt. */
  workspace?: WorkspaceRecord;
  /** Agent or script node: whether its processes ran sealed, and why not (ADR 0040). */
  seal?: { sealed: boolean; reason?: string };
}
