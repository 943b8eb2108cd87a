// What a node handler gets (its place in the run and a view of run data) and
// what it returns. Handlers emit node.started, node.progress, check.finished,
// cap.overrun and node.retrying; the scope emits node.finished.
import type { BranchRef, Cause, EventOf, EvidencePart, NodeStatus, Qualifier, StopReason, Tokens, WorkspaceRecord } from "../events.ts";
import { dirname } from "node:path";
import { head } from "../cut.ts";
import { FatalError } from "../errors.ts";
import type { CheckOutcome, CommandContext, CommandInput } from "../ports.ts";
import { stopOutcome, type RunStop } from "../verdict/conjunction.ts";
import type { RunContext } from "./context.ts";
import type { Frame } from "./frame.ts";

export interface NodeEnv {
  ctx: RunContext;
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
}

export { head, tail } from "../cut.ts";

/** A result for a node that stopped before or without a process. */
export function simpleResult(
  status: NodeStatus,
  cause: Cause | null,
  attempt: number,
  wallMs: number,
  extra: Partial<NodeResult> = {},
): NodeResult {
  return { status, qualifier: null, cause, attempt, stopReason: null, costUsd: null, turns: null, wallMs, failedChecks: [], ...extra };
}

/** The result of a node whose work was cut off by a stop (stopOutcome). */
export function stoppedResult(runStop: RunStop | null, attempt: number, wallMs: number, extra: Partial<NodeResult> = {}): NodeResult {
  const o = stopOutcome(runStop);
  return simpleResult(o.status, o.cause, attempt, wallMs, { error: o.error, ...extra });
}

/** node.started, as every kind says it (an agent names its harness; agents and approvals their prompt). */
export function emitStarted(
  env: NodeEnv,
  kind: string,
  attempt: number,
  more: { harness?: string; prompt?: string; session?: StartedSession } = {},
): void {
  env.ctx.emitter.emit({
    type: "node.started",
    node: env.id,
    kind,
    attempt,
    ...(more.harness !== undefined ? { harness: more.harness } : {}),
    ...(env.branch ? { branch: env.branch } : {}),
    ...(more.prompt !== undefined ? { prompt: head(more.prompt) } : {}),
    ...(env.round !== undefined ? { round: env.round } : {}),
    ...(more.session !== undefined ? { session: more.session } : {}),
  });
}

export type StartedSession = NonNullable<EventOf<"node.started">["session"]>;

/** Every input as commands get it: strings as is, other values as JSON. */
export function commandInputs(inputs: Record<string, unknown>): CommandInput[] {
  return Object.entries(inputs).map(([name, value]) => ({
    stem: name.toUpperCase(),
    text: typeof value === "string" ? value : JSON.stringify(value),
  }));
}

/** Data reaches commands only as variables and files, never on the command line (docs/architecture.md §7);
 *  inputs as files (and small ones also as variables), decided by the command runner. */
export function commandContext(env: NodeEnv, attempt: number, cwd: string, passEnv: string[], workspace?: string): CommandContext {
  const vars: Record<string, string> = {
    VOUCH_RUN_ID: env.ctx.options.runId,
    VOUCH_NODE: env.id,
    // Lets a check run a script shipped beside the graph: run: sh "$VOUCH_GRAPH_DIR/lib/x.sh"
    VOUCH_GRAPH_DIR: dirname(env.frame.graphPath),
  };
  // The node's git worktree (ADR 0020): a check can tell it from the user's checkout.
  if (workspace !== undefined) vars.VOUCH_WORKSPACE = workspace;
  const c: CommandContext = {
    runId: env.ctx.options.runId,
    node: env.id,
    attempt,
    cwd,
    passEnv,
    vars,
    inputs: env.frame.commandInputs,
    state: env.commandState(),
    signal: env.signal,
  };
  if (env.branch) {
    c.branch = env.branch;
    c.item = env.item;
  }
  return c;
}

/** A FatalError (a port not provided, the ledger, the output) ends the run; anything
 *  else a port throws is that node's harness error. */
export function isFatal(e: unknown): e is FatalError {
  return e instanceof FatalError;
}
