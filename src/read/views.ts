// The read model's view types: what a reader (the TUI, `vouch show`, the reports)
// knows of a run's nodes, attempts and branches, in the events' own shape and
// field names (snake_case, as src/engine/events.ts writes them). Each reader
// extends them: the ledger with what it projects (sessions, timestamps), the
// TUI with what only a live screen needs (its row key, activity, spinner times).
import type { BranchRef, Cause, EventOf, NodeStatus, Qualifier, StopReason, Tokens, WorkspaceRecord } from "../engine/events.ts";

/** A check as every reader holds it: its check.finished without the envelope's v, type and run. */
export type CheckRecord = Omit<EventOf<"check.finished">, "v" | "type" | "run">;
/** A cap overrun as every reader holds it: its cap.overrun without v, type and run. */
export type OverrunRecord = Omit<EventOf<"cap.overrun">, "v" | "type" | "run">;

/** The event without the fields every record repeats. */
export function recordOf<T extends { v: unknown; type: unknown; run: unknown }>(e: T): Omit<T, "v" | "type" | "run"> {
  const { v: _v, type: _type, run: _run, ...rest } = e;
  return rest;
}

/** One attempt of one node: (session, round, attempt) names it; attempts restart each round. */
export interface AttemptFacts<S extends string | null = NodeStatus | null> {
  /** The run's session (1, then one more per resume). */
  session: number;
  /** Feedback round (1 off a feedback loop). */
  round: number;
  attempt: number;
  status: S;
  /** What the attempt cost; on the attempt a node.finished closed, that event's cost_usd
   *  (the whole round's, every attempt summed). */
  cost_usd: number | null;
  turns: number | null;
  tokens: Tokens | null;
  /** API requests the harness retried in this attempt (node.progress.api_retries); null: none reported. */
  api_retries: number | null;
  /** When the attempt ended: its node.finished (or node.limited); null while it runs, and on a retried attempt. */
  finished_at: string | null;
  checks: readonly CheckRecord[];
}

/** One node of a run (top level, or in one map branch) as every reader shows it. */
export interface NodeFacts<S extends string, A extends AttemptFacts<string | null>> {
  node: string;
  kind: string | null;
  branch?: BranchRef;
  status: S;
  qualifier: Qualifier | null;
  stop_reason: StopReason | null;
  cause: Cause | null;
  error: string | null;
  /** The node's cost over every session and round: nodeCost (src/read/node-cost.ts) of its attempts. */
  cost_usd: number | null;
  turns: number | null;
  wall_ms: number | null;
  /** Every attempt in every session, oldest first. */
  attempts: readonly A[];
  /** The node's git worktree as its last node.finished recorded it (ADR 0020). */
  workspace?: WorkspaceRecord;
  /** Whether its processes ran sealed (ADR 0040), and why not: src/read/seal.ts says it. */
  sealed?: boolean;
  unsealed_reason?: string;
}

/** What a node that has no verdict yet shows: nothing known. */
export function noVerdict(): Pick<
  NodeFacts<string, AttemptFacts>,
  "qualifier" | "stop_reason" | "cause" | "error" | "cost_usd" | "turns" | "wall_ms"
> {
  return { qualifier: null, stop_reason: null, cause: null, error: null, cost_usd: null, turns: null, wall_ms: null };
}

/** One map branch. */
export interface BranchFacts<S extends string> {
  map: string;
  index: number;
  label: string | null;
  status: S;
  verdict?: unknown;
  error: string | null;
}
