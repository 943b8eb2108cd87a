// The one event union (docs/architecture.md §2 invariant 4; docs/events.md). The TUI, the NDJSON and
// plain writers and the ledger consume exactly these objects; nothing else
// describes a run. Every event: { v: 1, type, run, t, seq, ... }.
import { SANDBOX_MODES } from "./sandbox.ts";
import { z } from "zod";

export const NODE_STATUSES = ["passed", "failed", "error", "skipped", "cancelled"] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];
export const QUALIFIERS = ["verified", "self-reported", "exit-only", "approved"] as const;
export type Qualifier = (typeof QUALIFIERS)[number];
export const STOP_REASONS = [
  "complete",
  "turns",
  "budget",
  "wall",
  "idle",
  "denied",
  "crashed",
  "cancelled",
  "unavailable",
  "loop",
  "rate_limited",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];
export const RUN_STATUSES = ["passed", "failed", "error", "paused", "interrupted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Why a node did not pass. failed: the evidence says no. error: no verdict.
 *  skipped/cancelled: it did not (fully) run. See docs/events.md. */
export const CAUSES = [
  // failed
  "nonzero_exit",
  "output_invalid",
  "result_mismatch",
  "check_failed",
  "rejected",
  "end_failure",
  "map_failed",
  "graph_failed",
  "tampered",
  "merge_conflict",
  "nothing_to_merge",
  "vacuous_check",
  // error
  "cap_stop",
  "workspace_error",
  "timeout",
  "harness_error",
  "unavailable",
  "template_error",
  "end_error",
  "map_error",
  "graph_error",
  "run_budget",
  "run_wall",
  "budget_insufficient",
  "executor_lost",
  "flaky_check",
  // skipped
  "not_chosen",
  "condition_false",
  "upstream_not_passed",
  "fallback_unused",
  // cancelled
  "cancelled",
] as const;
export type Cause = (typeof CAUSES)[number];

/** The status each cause belongs to: the one table every reader derives from (the ledger's row
 *  of a retried attempt, docs/events.md's list, held to it by test/read/cause-status.test.ts).
 *  A Record over Cause: a cause added above without its status here does not compile. */
export const CAUSE_STATUS: Readonly<Record<Cause, NodeStatus>> = Object.freeze({
  nonzero_exit: "failed",
  output_invalid: "failed",
  result_mismatch: "failed",
  check_failed: "failed",
  rejected: "failed",
  end_failure: "failed",
  map_failed: "failed",
  graph_failed: "failed",
  tampered: "failed",
  merge_conflict: "failed",
  nothing_to_merge: "failed",
  vacuous_check: "failed",
  cap_stop: "error",
  workspace_error: "error",
  timeout: "error",
  harness_error: "error",
  unavailable: "error",
  template_error: "error",
  end_error: "error",
  map_error: "error",
  graph_error: "error",
  run_budget: "error",
  run_wall: "error",
  budget_insufficient: "error",
  executor_lost: "error",
  flaky_check: "error",
  not_chosen: "skipped",
  condition_false: "skipped",
  upstream_not_passed: "skipped",
  fallback_unused: "skipped",
  cancelled: "cancelled",
});

/** The four caps, by the names graph files, events and `vouch harnesses` use. */
export const CAP_NAMES = ["turns", "budget_usd", "wall", "idle"] as const;
export type CapName = (typeof CAP_NAMES)[number];

const branchRef = z.strictObject({ map: z.string(), index: z.number().int().min(0) });
export type BranchRef = z.output<typeof branchRef>;

/** The one key of a map branch in a run, "map#index", and of a node, "id" at the top
 *  level or "map#index/id" in a branch: the engine's resume state and the TUI's rows
 *  both use it. Node ids cannot contain "#" or "/" (NODE_ID_PATTERN): keys never collide. */
export function branchKey(map: string, index: number): string {
  return `${map}#${index}`;
}
export function nodeKey(node: string, branch?: BranchRef): string {
  return branch ? `${branchKey(branch.map, branch.index)}/${node}` : node;
}

export const tokensSchema = z.strictObject({
  input: z.number().int().min(0),
  output: z.number().int().min(0),
  cache_read: z.number().int().min(0),
  cache_creation: z.number().int().min(0),
});
export type Tokens = z.output<typeof tokensSchema>;

const base = {
  v: z.literal(1),
  run: z.string(),
  t: z.string(),
  /** Position in the run's event sequence; continues across resumes. */
  seq: z.number().int().min(0),
  /** Set on an event a worker streamed back (ADR 0026): who ran it, in which job attempt,
   *  and its number in that attempt ((branch, job, attempt, seq) drops duplicates). */
  remote: z
    .strictObject({ worker: z.string(), job: z.string(), attempt: z.number().int().min(1), seq: z.number().int().min(0) })
    .optional(),
};
const nodeRef = { node: z.string(), branch: branchRef.optional() };

export const evidencePartSchema = z.strictObject({
  part: z.enum(["exit_zero", "output", "result_matches", "checks", "approval"]),
  outcome: z.enum(["passed", "failed", "not_checked", "not_applicable"]),
  detail: z.string().optional(),
});
export type EvidencePart = z.output<typeof evidencePartSchema>;

/** What a node's git worktree holds after its last attempt (ADR 0020): the diff is base..commit. */
export const workspaceRecordSchema = z.strictObject({
  /** The node's branch, vouch/<run>/<node> (vouch/<run>/<map>/<index>/<node> in a map branch). */
  branch: z.string(),
  /** The commit the worktree started from (full id). */
  base: z.string(),
  /** The branch's commit after the last attempt (the base when nothing changed). */
  commit: z.string(),
  files_changed: z.number().int().min(0),
  insertions: z.number().int().min(0),
  deletions: z.number().int().min(0),
  /** The worktree folder, <repo>/.vouch/worktrees/<run>/... */
  path: z.string(),
  /** Protected paths the last attempt changed (they were restored from base before the checks). */
  tampered: z.array(z.string()).optional(),
});
export type WorkspaceRecord = z.output<typeof workspaceRecordSchema>;

/** "2 files, +3 -1": a worktree's diff stat as every output shows it. */
export function diffStatText(w: Pick<WorkspaceRecord, "files_changed" | "insertions" | "deletions">): string {
  return `${w.files_changed} file${w.files_changed === 1 ? "" : "s"}, +${w.insertions} -${w.deletions}`;
}

export const graphNodeInfoSchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  needs: z.array(z.string()),
  /** Set for nodes inside a map branch: the map's id. */
  map: z.string().optional(),
  /** Set for nodes inside a sub-graph: the id of its graph node ("review"; nested: "review/lint"). */
  graph: z.string().optional(),
  description: z.string().optional(),
});

export const runStartedSchema = z.strictObject({
  ...base,
  type: z.literal("run.started"),
  graph: z.string(),
  graph_path: z.string(),
  graph_digest: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  caps: z.strictObject({ budget_usd: z.number().nullable(), wall_ms: z.number().nullable() }),
  concurrency: z.number().int().positive(),
  nodes: z.array(graphNodeInfoSchema),
  /** Names (never values) of environment variables passed through to children. */
  pass_env: z.array(z.string()),
  /** Names (never values) the graph's own `env:` lists pass to some of its nodes. */
  graph_env: z.array(z.string()).optional(),
  harness: z.string().nullable(),
  /** The directory relative paths resolve against (where the run first started). */
  base_dir: z.string().optional(),
  resumed: z.boolean(),
  version: z.string(),
  /** Where map branches run: absent = in process; else the executor's URL (no password). */
  executor: z.string().optional(),
  /** The graph's checks the ledger's history calls flaky when the session starts (ADR 0067): flaky
   *  in more than FLAKY_SHARE of their recent runs. The live view marks their outcomes. */
  flaky_checks: z
    .array(
      z.strictObject({
        name: z.string(),
        command_digest: z.string(),
        flaky_runs: z.number().int().min(1),
        runs: z.number().int().min(1),
      }),
    )
    .optional(),
  /** --sandbox, when given: the setting of nodes whose graph says none (ADR 0040); a resume keeps it. */
  sandbox: z.enum(SANDBOX_MODES).optional(),
});

export const nodeStartedSchema = z.strictObject({
  ...base,
  type: z.literal("node.started"),
  ...nodeRef,
  kind: z.string(),
  attempt: z.number().int().min(1),
  harness: z.string().optional(),
  /** The rendered prompt (agent) or approval message, bounded. */
  prompt: z.string().optional(),
  /** Agent and script nodes: where the attempt runs (absolute; the worktree's folder in
   *  worktree mode). Paths in its commands' and checks' output are relative to it. */
  cwd: z.string().optional(),
  /** Agent nodes: the model the graph asks the harness for (absent: the harness's default). */
  model: z.string().optional(),
  /** Agent and script nodes: whether this attempt's processes run sealed (ADR 0040). */
  sealed: z.boolean().optional(),
  /** Feedback round (1 on the first pass of a feedback loop's chain). */
  round: z.number().int().min(1).optional(),
  /** A map: how many items its branches run over (the TUI shows finished/items). */
  items: z.number().int().min(0).optional(),
  /** An agent sitting that continues a session (ADR 0023): resume or fork the session `id`
   *  of `node` (its attempt `attempt`, for a retry), or `fresh` with a `note` on why a
   *  retry asked to continue starts a new session. */
  session: z
    .strictObject({
      mode: z.enum(["resume", "fork", "fresh"]),
      id: z.string().optional(),
      node: z.string(),
      attempt: z.number().int().min(1).optional(),
      note: z.string().optional(),
    })
    .optional(),
});

export const nodeProgressSchema = z.strictObject({
  ...base,
  type: z.literal("node.progress"),
  ...nodeRef,
  attempt: z.number().int().min(1),
  turns: z.number().int().min(0).optional(),
  cost_usd: z.number().min(0).optional(),
  tokens: tokensSchema.optional(),
  /** Last activity: a tool call or a line of text, bounded. */
  activity: z.string().optional(),
  /** API requests the harness has retried so far in this attempt (429, 5xx, overloaded). */
  api_retries: z.number().int().min(0).optional(),
});

export const checkFinishedSchema = z.strictObject({
  ...base,
  type: z.literal("check.finished"),
  ...nodeRef,
  attempt: z.number().int().min(1),
  name: z.string(),
  passed: z.boolean(),
  /** The expectation, as written: exit_zero, empty_output, exit 3, output_matches /re/. */
  expect: z.string(),
  /** Why it failed, in one line; absent when passed. */
  reason: z.string().optional(),
  /** True when the check could not run, or did not finish (killed by a signal vouch did not
   *  send, not started, the shell's 126/127): no evidence either way (ADR 0049). Absent otherwise. */
  could_not_run: z.literal(true).optional(),
  exit: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number().min(0),
  stdout_tail: z.string(),
  stderr_tail: z.string(),
  truncated: z.boolean(),
  /** The check's history key (ADR 0067): a digest of its command and expectation ("sha256:…")… */
  command_digest: z.string().optional(),
  /** … and the git tree object id of what it ran on (null: not in a worktree, ADR 0067). */
  tree_id: z.string().nullable().optional(),
  /** A rerun after a failure on the same tree (ADR 0066): 1 for the first rerun. Absent on the first run. */
  rerun: z.number().int().min(1).optional(),
  /** Set on the rerun that passed after a failure: the check is flaky on this tree. */
  flaky: z.literal(true).optional(),
  /** Where it ran (ADR 0043): `commit`, a tree vouch built from the attempt's commit; `base`, the
   *  witness run on the base (ADR 0044); absent, the node's folder as it is (no worktree). */
  tree: z.enum(["commit", "base"]).optional(),
});

export const capOverrunSchema = z.strictObject({
  ...base,
  type: z.literal("cap.overrun"),
  node: z.string().optional(),
  branch: branchRef.optional(),
  attempt: z.number().int().min(1).optional(),
  scope: z.enum(["node", "run"]),
  cap: z.enum(CAP_NAMES),
  limit: z.number(),
  actual: z.number(),
});

export const nodeRetryingSchema = z.strictObject({
  ...base,
  type: z.literal("node.retrying"),
  ...nodeRef,
  /** The attempt that failed; the next one is attempt + 1. */
  attempt: z.number().int().min(1),
  cause: z.enum(CAUSES),
  /** The failure quoted to the next attempt (bounded). */
  reason: z.string(),
  /** One line on why the attempt did not pass (what the outputs show). */
  error: z.string().optional(),
  backoff_ms: z.number().min(0),
  /** The failed attempt's session id, when the harness reported one. */
  session_id: z.string().optional(),
});

export const nodeFinishedSchema = z.strictObject({
  ...base,
  type: z.literal("node.finished"),
  ...nodeRef,
  attempt: z.number().int().min(0),
  status: z.enum(NODE_STATUSES),
  qualifier: z.enum(QUALIFIERS).nullable(),
  stop_reason: z.enum(STOP_REASONS).nullable(),
  cause: z.enum(CAUSES).nullable(),
  cost_usd: z.number().min(0).nullable(),
  turns: z.number().int().min(0).nullable(),
  wall_ms: z.number().min(0),
  tokens: tokensSchema.nullable().optional(),
  evidence: z.array(evidencePartSchema).optional(),
  /** The node's output (what `nodes.<id>.output` reads); resume restores it from here. */
  output: z.unknown().optional(),
  /** One line on why it did not pass. */
  error: z.string().optional(),
  /** The last part of the agent's result text or the script's stdout. */
  result_tail: z.string().optional(),
  /** True when `exhausted:` recorded an output for a node that did not pass. */
  recovered: z.boolean().optional(),
  /** The fallback node started because this node did not pass. */
  fallback: z.string().optional(),
  /** Feedback round, on a node of a feedback loop's chain (as on its node.started). */
  round: z.number().int().min(1).optional(),
  session_id: z.string().optional(),
  /** The session's total cost as the harness reported it, when it differs from cost_usd (a
   *  resumed claude session counts its earlier sittings; a retried node sums its attempts).
   *  A later resume of session_id subtracts it (ADR 0023). Absent: cost_usd is that total. */
  session_cost_usd: z.number().min(0).optional(),
  /** API requests the harness retried, summed over the node's attempts; absent when none were reported. */
  api_retries: z.number().int().min(0).optional(),
  /** The node's git worktree (workspace mode worktree), after its last attempt. */
  workspace: workspaceRecordSchema.optional(),
  /** Passed checks that were witnessed: they failed on the base first (ADR 0044), "verified (fail→pass)". */
  witnessed: z.array(z.string()).optional(),
  /** Agent and script nodes that ran: whether their processes ran sealed (ADR 0040) … */
  sealed: z.boolean().optional(),
  /** … and when not, why (sandbox: off, not available here and why, a script without a workspace). */
  unsealed_reason: z.string().optional(),
  /** retry.max_cost stopped the retries (ADR 0068): the cause whose retries spent `spent_usd`
   *  without progress, at or over `limit_usd` (its share of the node's budget). */
  retry_stopped: z.strictObject({ cause: z.enum(CAUSES), spent_usd: z.number().min(0), limit_usd: z.number().min(0) }).optional(),
});

/** One attempt of an agent or script node, judged (ADR 0068): what the model claimed next to what
 *  the evidence said, and what the attempt spent. Emitted before its node.retrying or node.finished;
 *  an attempt a usage limit cut off, or one that never started, has none. */
export const attemptJudgedSchema = z.strictObject({
  ...base,
  type: z.literal("attempt.judged"),
  ...nodeRef,
  attempt: z.number().int().min(1),
  round: z.number().int().min(1).optional(),
  kind: z.enum(["agent", "script"]),
  harness: z.string().optional(),
  /** The model the node asked for (absent: the harness's default). */
  model: z.string().optional(),
  /** What the model said of its own work: the value at the node's `claim:` path, else "done" or
   *  "not done" by its result_matches, else "done" for a sitting that completed; null when it
   *  said nothing vouch could read (the sitting did not complete). Absent on a script's attempt. */
  claim: z.string().nullable().optional(),
  status: z.enum(NODE_STATUSES),
  qualifier: z.enum(QUALIFIERS).nullable(),
  cause: z.enum(CAUSES).nullable(),
  /** This attempt is a retry: the cause the attempt before it was retried for. */
  retry_of: z.enum(CAUSES).optional(),
  /** This attempt's own cost and turns (node.finished sums every attempt). */
  cost_usd: z.number().min(0).nullable(),
  turns: z.number().int().min(0).nullable(),
});

export const branchStartedSchema = z.strictObject({
  ...base,
  type: z.literal("branch.started"),
  branch: branchRef,
  item: z.unknown(),
  /** A short label for the item (its id, or its text), bounded. */
  label: z.string(),
});

export const branchFinishedSchema = z.strictObject({
  ...base,
  type: z.literal("branch.finished"),
  branch: branchRef,
  status: z.enum(NODE_STATUSES),
  /** The value at the map's `verdict` path, or null. */
  verdict: z.unknown(),
  output: z.unknown().optional(),
  error: z.string().optional(),
  /** True when the branch did not pass but `exhausted:` recovered it: it counts for the map (ADR 0006). */
  recovered: z.boolean().optional(),
});

/** A `kind: merge` node left a branch out: merging it onto what was merged so far conflicts (ADR 0021). */
export const mergeConflictSchema = z.strictObject({
  ...base,
  type: z.literal("merge.conflict"),
  node: z.string(),
  attempt: z.number().int().min(1),
  /** The git branch left out. */
  git_branch: z.string(),
  /** What made it: a node id, or "map#index" for a map branch. */
  from: z.string(),
  /** The paths that conflict (bounded). */
  paths: z.array(z.string()),
});

/** The user's repository changed while a node's attempt ran (ADR 0044): its config, hooks,
 *  info/exclude or info/attributes, HEAD, index entries, or a ref that is not vouch's own. vouch
 *  changes none of it back. */
export const repoChangedSchema = z.strictObject({
  ...base,
  type: z.literal("repo.changed"),
  ...nodeRef,
  attempt: z.number().int().min(1),
  /** The repository's top folder (the user's checkout). */
  repo: z.string(),
  /** What changed: "config", "hooks", "info/exclude", "info/attributes", "HEAD", "index", "REF added|moved|deleted" (bounded). */
  changed: z.array(z.string()),
});

// --- usage and rate limits (issue 16, ADR 0022) ----------------------------
/** A reset moment as events carry it: ISO 8601 UTC, or null when the harness did not say. */
const resetsAt = z.string().nullable();
const limitedNode = z.strictObject({ node: z.string(), branch: branchRef.optional(), harness: z.string(), resets_at: resetsAt });

/** An attempt cut off by a usage or rate limit: not a verdict, not counted against retry.max. */
export const nodeLimitedSchema = z.strictObject({
  ...base,
  type: z.literal("node.limited"),
  ...nodeRef,
  attempt: z.number().int().min(1),
  harness: z.string(),
  resets_at: resetsAt,
  /** What the harness said, in one line. */
  error: z.string(),
  cost_usd: z.number().min(0).nullable(),
  turns: z.number().int().min(0).nullable(),
  tokens: tokensSchema.nullable().optional(),
  session_id: z.string().optional(),
  /** The session's total cost as the harness reported it, when it differs from cost_usd (ADR 0023). */
  session_cost_usd: z.number().min(0).optional(),
});

/** --wait-limits: the run waits in this process for a limit to lift, then goes on. */
export const runWaitingSchema = z.strictObject({
  ...base,
  type: z.literal("run.waiting"),
  reason: z.literal("rate_limited"),
  harness: z.string(),
  resets_at: resetsAt,
  /** How long this wait is (to resets_at, or vouch's backoff when it is unknown). */
  wait_ms: z.number().min(0),
  /** When the wait ends (ISO 8601 UTC). */
  until: z.string(),
});

/** A branch handed to an executor (ADR 0026): committed before the job is created. */
export const branchDispatchedSchema = z.strictObject({
  ...base,
  type: z.literal("branch.dispatched"),
  branch: branchRef,
  executor: z.string(),
  /** The job's deterministic id: <run>.<map>.<index>.<dispatch>. */
  job: z.string(),
  /** 1, then one more each time a resumed run dispatches the branch again. */
  dispatch: z.number().int().min(1),
});

/** A worker's attempt at a branch ended without a result (the worker died or was
 *  stopped); another attempt follows. Not a failure: the branch is decided by a later attempt. */
export const branchCutOffSchema = z.strictObject({
  ...base,
  type: z.literal("branch.cut_off"),
  branch: branchRef,
  job: z.string(),
  attempt: z.number().int().min(1),
  worker: z.string(),
});

/** A worker's attempt at a branch delivered a result after it was cut off — it no longer
 *  held the job (its lock ran out and another attempt took it, ADR 0046). The result is
 *  not the branch's: a later attempt decides it. */
export const branchResultRefusedSchema = z.strictObject({
  ...base,
  type: z.literal("branch.result_refused"),
  branch: branchRef,
  job: z.string(),
  attempt: z.number().int().min(1),
  worker: z.string(),
  /** The status the refused result claimed. */
  status: z.enum(NODE_STATUSES),
  reason: z.string(),
});

export const runPausedSchema = z.strictObject({
  ...base,
  type: z.literal("run.paused"),
  /** What the run waits for: approvals (absent in runs recorded before issue 16) or a usage limit. */
  reason: z.enum(["approval", "rate_limited"]).optional(),
  /** reason rate_limited: the harness whose limit stopped the run, and when it resets (the earliest known). */
  harness: z.string().optional(),
  resets_at: resetsAt.optional(),
  approvals: z.array(z.strictObject({ node: z.string(), branch: branchRef.optional(), prompt: z.string().optional() })),
  /** reason rate_limited: the nodes cut off by a limit (they run again on resume). */
  limited: z.array(limitedNode).optional(),
});

/** Another process asked the run to stop (`vouch cancel`, an MCP client; ADR 0062): the run
 *  stops as on Ctrl-C and ends `interrupted`. Emitted when the run took the request. */
export const runCancelRequestedSchema = z.strictObject({
  ...base,
  type: z.literal("run.cancel_requested"),
  /** The request's id in the ledger's `requests` table. */
  request: z.number().int().min(1),
  /** Who asked: the user and host names their system gives, and the asking process. */
  by: z.strictObject({ user: z.string(), host: z.string(), pid: z.number().int() }),
  /** What asked: command, watch or mcp. */
  via: z.string(),
  /** When it was asked (ISO 8601 UTC); `t` is when the run took it. */
  requested_at: z.string(),
});

const nodeCount = z.number().int().min(0);
/** Nodes of a run by final status: run.finished's `counts`, the engine's tally and the TUI's. */
const runCountsSchema = z.strictObject({
  passed: nodeCount,
  /** Of `passed`: the passes whose only evidence was a self-report (qualifier `self-reported`).
   *  The engine always writes it (issue 12); absent in runs recorded before, and in a map's counts. */
  self_reported: nodeCount.optional(),
  failed: nodeCount,
  error: nodeCount,
  skipped: nodeCount,
  cancelled: nodeCount,
  /** A run that ended paused: how many nodes it holds (waiting at an approval, or cut off by a
   *  usage limit; they run on resume). Absent otherwise (issue 27 item 18). */
  paused: nodeCount.optional(),
});
export type RunCounts = z.output<typeof runCountsSchema>;
export const ZERO_COUNTS: Readonly<RunCounts> = Object.freeze({ passed: 0, failed: 0, error: 0, skipped: 0, cancelled: 0 });

export const runFinishedSchema = z.strictObject({
  ...base,
  type: z.literal("run.finished"),
  status: z.enum(RUN_STATUSES),
  exit_code: z.number().int(),
  /** Why the run ended early: budget, wall, cancelled, ... */
  reason: z.string().optional(),
  /** Sum of known costs; sittings of unknown cost are counted in cost_unknown. */
  cost_usd: z.number().min(0),
  cost_unknown: z.number().int().min(0),
  wall_ms: z.number().min(0),
  counts: runCountsSchema,
  /** The output of the end node that decided the run, if one did. */
  output: z.unknown().optional(),
});

export const eventSchema = z.discriminatedUnion("type", [
  runStartedSchema,
  nodeStartedSchema,
  nodeProgressSchema,
  checkFinishedSchema,
  capOverrunSchema,
  nodeRetryingSchema,
  nodeFinishedSchema,
  attemptJudgedSchema,
  branchStartedSchema,
  branchFinishedSchema,
  mergeConflictSchema,
  repoChangedSchema,
  branchDispatchedSchema,
  branchCutOffSchema,
  branchResultRefusedSchema,
  runPausedSchema,
  runFinishedSchema,
  nodeLimitedSchema,
  runWaitingSchema,
  runCancelRequestedSchema,
]);

export type VouchEvent = z.output<typeof eventSchema>;
export type EventType = VouchEvent["type"];
export type EventOf<T extends EventType> = Extract<VouchEvent, { type: T }>;
export const EVENT_TYPES = eventSchema.options.map((o) => o.shape.type.value) as EventType[];

/** An event as the engine builds it, before the envelope (v, run, t, seq) is added. */
export type EventBody = VouchEvent extends infer E ? (E extends VouchEvent ? Omit<E, "v" | "run" | "t" | "seq"> : never) : never;

/** The JSON Schema of one NDJSON line (for docs/events.md and consumers). */
export function eventsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(eventSchema, { unrepresentable: "any" }) as Record<string, unknown>;
}

const serialized = new WeakMap<VouchEvent, string>();
/** An event's JSON text, made once per event: the ledger stores it and `--json` prints the
 *  same text (issue 20: each event was stringified twice). Events are not changed once emitted. */
export function eventJson(e: VouchEvent): string {
  let text = serialized.get(e);
  if (text === undefined) {
    text = JSON.stringify(e);
    serialized.set(e, text);
  }
  return text;
}

/** An event read back from the ledger, with the text the ledger holds for it: eventJson then
 *  gives that text, so `vouch watch --json` prints the bytes `vouch run --json` printed (ADR 0063). */
export function withStoredJson(e: VouchEvent, text: string): VouchEvent {
  serialized.set(e, text);
  return e;
}
