// The ports through which the engine reaches the outside (docs/architecture.md §1).
// The engine spawns nothing: src/cli.ts wires the real implementations
// (src/spawn, src/ledger); tests inject fakes. The defaults here refuse loudly,
// so an engine test that forgets a fake fails instead of starting a process.
import type { SandboxMode, SealRequest } from "./sandbox.ts";
import type { Expect } from "./graph/schema.ts";
import type { HarnessName } from "./harnesses.ts";
import type { BranchRef, EventBody, NodeStatus, RunCounts, StopReason, Tokens, VouchEvent } from "./events.ts";
import { PortNotProvidedError } from "./errors.ts";
import type { SessionMode } from "./harnesses.ts";

export type { HarnessName };

/** Caps of one sitting, in engine units. Absent = no limit. */
export interface SittingCaps {
  turns?: number;
  budgetUsd?: number;
  wallMs?: number;
  idleMs?: number;
}

/** What the engine asks of one agent sitting. */
export interface AgentAssignment {
  runId: string;
  node: string;
  branch?: BranchRef;
  attempt: number;
  /** Feedback round (1 = first pass) when the node is on a feedback loop; attempts restart each round. */
  round?: number;
  harness: HarnessName;
  /** The ACP agent's command line (harness acp, ADR 0051). */
  acp?: { command: string[] };
  prompt: string;
  model?: string;
  tools?: string[];
  permissionMode?: string;
  /** Absolute working directory. */
  cwd: string;
  /** The node's git worktree (ADR 0020): the sitting sees it as VOUCH_WORKSPACE. */
  workspace?: string;
  /** Variables the composition root hands the sitting's process (its TRACEPARENT, ADR 0059). */
  vars?: Record<string, string>;
  /** Names of environment variables to pass through (values never appear in events). */
  passEnv: string[];
  caps: SittingCaps;
  /** What is left of the run budget when the sitting starts (absent: the run has none).
   *  A harness that keeps a budget natively is given the smaller of this and
   *  caps.budgetUsd; it is never a refusal reason (ADR 0012). */
  runBudgetLeftUsd?: number;
  output: { format: "text" | "json"; schema?: Record<string, unknown> };
  /** Continue (resume) or fork a session the harness reported earlier (ADR 0023). The id
   *  passed the engine's SESSION_ID_PATTERN; carriedCostUsd is what the harness last reported
   *  as that session's total cost, so a harness whose total counts the earlier sittings
   *  (claude) reports this sitting's own cost. */
  session?: { mode: SessionMode; id: string; carriedCostUsd?: number };
  /** Seal the sitting (ADR 0040): present when the engine decided it runs sealed. A runner that
   *  cannot keep it fails the sitting; it never runs unsealed instead. */
  seal?: SealRequest;
}

/** The static part of an assignment, checked for every agent node before any process starts. */
export type AgentPlan = Pick<AgentAssignment, "node" | "harness" | "caps" | "model" | "tools" | "permissionMode"> &
  Partial<Pick<AgentAssignment, "prompt" | "cwd" | "acp">> & {
    /** What the node's sittings may do with a session: `session:` and retry.session: continue (resume). */
    sessionModes?: SessionMode[];
    /** Its sittings may run on a worker (an executor is set and the node is in a map branch or a
     *  sub-graph): the worker's machine must have the program, not this one. */
    elsewhere?: true;
  };

export interface Refusal {
  harness: string;
  /** The field or cap refused: "caps.budget_usd", "tools", "prompt", "cwd", ... */
  field: string;
  message: string;
}

export interface SittingProgress {
  turns?: number;
  costUsd?: number;
  tokens?: Tokens;
  activity?: string;
  /** API requests the harness has retried so far in this sitting (429, 5xx). */
  apiRetries?: number;
}

/** The result of one agent sitting. Exactly one stop reason decides: only
 *  `complete` can pass or fail; every other reason is an ERROR (docs/architecture.md §5). */
export interface Sitting {
  stopReason: StopReason;
  resultText: string;
  /** Parsed structured output when the harness returned one (else the engine parses resultText). */
  structured?: unknown;
  turns: number | null;
  /** USD, or null when the harness does not report cost. Never an invented 0. */
  costUsd: number | null;
  tokens: Tokens | null;
  sessionId?: string;
  /** The session's total cost as the harness reported it, when that total counts the
   *  earlier sittings of a resumed session (claude): the next resume subtracts it. */
  sessionCostUsd?: number;
  wallMs: number;
  /** Longest silence observed, when the harness supervised idle time. */
  idleMs?: number;
  permissionDenials: number;
  exitCode: number | null;
  stderrTail: string;
  /** Why the sitting did not complete, in one line (crash text, API error, missing binary). */
  error?: string;
  /** The result text is only the kept tail of a longer output (the `command` harness's stdout). */
  resultTruncated?: boolean;
  /** API requests the harness retried (absent: none, or a harness that does not say). */
  apiRetries?: number;
  /** Stop reason rate_limited: when the harness says the limit lifts (epoch ms); absent when it does not say. */
  resetsAt?: number;
}

export interface AgentHooks {
  signal: AbortSignal;
  onProgress(progress: SittingProgress): void;
}

export interface AgentRunner {
  /** Everything the harness cannot keep, before any process starts. Empty = accepted. */
  refuse(plan: AgentPlan): Refusal[];
  run(assignment: AgentAssignment, hooks: AgentHooks): Promise<Sitting>;
}

/** One run input as commands get it (docs/graph-language.md, "How inputs reach commands"). */
export interface CommandInput {
  /** The input's name upper-cased: the file is VOUCH_INPUT_<stem>_FILE, the small value VOUCH_INPUT_<stem>. */
  stem: string;
  /** Strings as they are, other values as JSON. */
  text: string;
}

/** Where a command runs and what data it is handed (never on its command line). */
export interface CommandContext {
  runId: string;
  node: string;
  branch?: BranchRef;
  attempt: number;
  /** Absolute working directory. */
  cwd: string;
  passEnv: string[];
  /** Extra variables the engine hands over: VOUCH_RUN_ID, VOUCH_NODE, VOUCH_GRAPH_DIR. */
  vars: Record<string, string>;
  /** The run's inputs, in the graph's order: each one a file, and a variable when small
   *  (the command runner decides; the environment stays small whatever the inputs). */
  inputs: readonly CommandInput[];
  /** Written to files named by VOUCH_STATE_FILE and VOUCH_ITEM_FILE. */
  state: unknown;
  item?: unknown;
  /** For checks: the node's own output (parsed JSON, or its text), written to VOUCH_OUTPUT_FILE,
   *  so a check can test what the model claims against the files. */
  output?: unknown;
  /** A sealed check (ADR 0043): `cwd` is inside `tree`, a fresh copy made for this check alone;
   *  `links` are the dependency folders it reads (symbolic links in the tree, read-only). */
  checkTree?: { dir: string; links: readonly TreeLink[]; network: boolean };
  signal: AbortSignal;
  /** Seal the command (ADR 0040): a script node's, when the engine decided it runs sealed. */
  seal?: SealRequest;
}

export interface CheckSpec {
  name: string;
  run: string;
  expect: Expect;
  timeoutMs: number;
  /** Runs again on the same tree after a failure, up to this many times (ADR 0066). */
  reruns?: number;
  /** What its tree takes from the base and from the commit (ADR 0043). */
  fromBase?: string[];
  fromResult?: string[];
  /** Sealed, it may use the network. */
  network?: boolean;
  /** It must fail on the base first (ADR 0044). */
  witness?: "fails_on_base";
}

export interface CheckOutcome {
  name: string;
  passed: boolean;
  /** The expectation as written: "exit_zero", "empty_output", "exit 3", "output_matches /re/". */
  expect: string;
  reason?: string;
  /** The check could not run at all (its files could not be written, it could
   *  not start, the shell could not run its command) or did not finish (a signal
   *  vouch did not send): no evidence either way, so the node is error, not failed. */
  notRun?: boolean;
  /** It failed, then passed on a rerun on the same tree (ADR 0066): neither evidence of success
   *  nor of failure (the node is error, flaky_check). Its tails are the first failure's. */
  flaky?: boolean;
  /** How many times it ran (1 + its reruns), when it was run again. */
  runs?: number;
  /** A witnessed check that passed on the base (ADR 0044): it does not tell the work apart,
   *  so it is no evidence for it (the node fails, cause vacuous_check). */
  vacuous?: boolean;
  /** A witnessed check that failed on the base and passed on the result (fail→pass). */
  witnessed?: boolean;
  exit: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  stdoutTail: string;
  stderrTail: string;
  truncated: boolean;
}

export interface ScriptSpec {
  run?: string;
  argv?: string[];
  timeoutMs: number;
  /** How much of stdout to keep: a script's output is parsed from it. */
  keepStdoutBytes: number;
}

export type TerminationReason = "exit" | "wall" | "idle" | "cancelled" | "spawn_failed";

/** How a command ended; the process seam's ProcessResult extends it. */
export interface ScriptOutcome {
  /** Exit status of the group leader, null when it died of a signal or never started. */
  exit: number | null;
  signal: string | null;
  /** Set once: the first cause wins. */
  terminationReason: TerminationReason;
  wallMs: number;
  stdoutTail: string;
  stderrTail: string;
  stdoutBytes: number;
  stderrBytes: number;
  /** True when either stream printed more than was kept. */
  truncated: boolean;
  /** Set when terminationReason is spawn_failed: what could not be started and why. */
  spawnError?: string;
}

export interface CommandRunner {
  runCheck(check: CheckSpec, ctx: CommandContext): Promise<CheckOutcome>;
  runScript(script: ScriptSpec, ctx: CommandContext): Promise<ScriptOutcome>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after ms, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Where events go. The real one appends to the SQLite ledger before any consumer sees the event. */
export interface Ledger {
  append(event: VouchEvent): void;
  /** Commit what is queued now (the real sink batches on a short timer). An executor
   *  commits `branch.dispatched` before the job exists (ADR 0026). */
  flush?(): void;
}

export interface ApprovalRequest {
  node: string;
  branch?: BranchRef;
  prompt?: string;
  /** The feedback round the approval is asked in, when it is on a feedback chain. */
  round?: number;
}
/** A decision with who made it and their note (ADR 0062): node.finished's evidence says them. */
export interface ApprovalVerdict {
  decision: "approve" | "reject";
  /** Who decided, in one line ("alice@box, vouch approve"). */
  by?: string;
  note?: string;
}
export type ApprovalAnswer = "approve" | "reject" | "pause" | ApprovalVerdict;
/** A human gate. Headless runs answer "pause" (the run ends with exit 4); the TUI asks in place. */
export interface Approvals {
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

/** What a run's signal may be aborted with when another process asked to cancel the run
 *  (`vouch cancel`, ADR 0062): the run records who asked (run.cancel_requested) and stops
 *  as a Ctrl-C stops it. Any other abort reason stops it without that record. */
export class CancelRequested extends Error {
  constructor(
    readonly request: number,
    readonly by: { user: string; host: string; pid: number },
    readonly requestedAt: string,
    readonly via: string,
  ) {
    super("interrupted");
    this.name = "CancelRequested";
  }
}

// --- Branch executors (ADR 0026) -------------------------------------------
// How a map branch is run. Absent: in process (`local`, the branch's scope runs in
// this engine). A remote executor gets everything the branch needs as plain JSON
// and streams the branch's events back; the map runner does not know which runs it.

/** Everything one branch needs, as JSON: a worker needs no copy of the graph file. */
export interface BranchJob {
  runId: string;
  /** Deterministic: the same branch dispatched twice is one job. */
  jobId: string;
  /** Dispatch attempt of this branch in the run (1, then +1 for each resume that re-runs it). */
  dispatch: number;
  map: string;
  index: number;
  item: unknown;
  /** The graph, cut to what the branch runs: name, defaults, checks, the map node. */
  graph: Record<string, unknown>;
  graphDigest: string;
  graphPath: string;
  /** The run's inputs and the outputs of the top-level nodes the branch can read. */
  inputs: Record<string, unknown>;
  upstream: Record<string, unknown>;
  /** Kept results of this branch's nodes from an earlier session (nodeKey → kept). */
  kept: Record<string, unknown>;
  harness?: HarnessName;
  /** Names only: a worker passes its own values. Nothing secret goes through the queue. */
  passEnv: string[];
  baseDir: string;
  concurrency: number;
  version: string;
  /** The repository the branch's worktree nodes need (ADR 0029); absent when none has one. */
  workspace?: RemoteWorkspace;
  /** The run's --sandbox (ADR 0040); whether sealing works is the worker's own probe's. */
  sandbox?: SandboxMode;
}

/** What a worker needs to give a branch's nodes worktrees (ADR 0029): where to fetch and
 *  push, and the commits every worktree starts from, resolved once on the coordinator. */
export interface RemoteWorkspace {
  /** The remote's URL as the coordinator's repository has it (never a password: refused). */
  url: string;
  /** The remote's name on the coordinator (`origin`): for messages and the merge node's fetch. */
  remote: string;
  /** Each `workspace.base` ref the branch uses and the commit it named on the coordinator
   *  (a list, not an object: a ref may be called `__proto__`). */
  bases: { ref: string; commit: string }[];
  /** Where the run's folder is inside the repository ("" at its top, else "sub/dir"). */
  prefix: string;
}

/** One event a worker streamed back, with where it came from. */
export interface RemoteEvent {
  worker: string;
  /** The job's attempt on workers (BullMQ's attemptsStarted): a new one means the last was cut off. */
  attempt: number;
  /** The event's number within that attempt: (branch, attempt, seq) drops duplicates. */
  seq: number;
  body: EventBody;
}

/** What a worker sends when the branch's scope completed. */
export interface BranchJobOutcome {
  worker: string;
  attempt: number;
  status: NodeStatus;
  output: unknown;
  error: string | null;
  recovered?: boolean;
  counts: RunCounts;
  costUnknown: number;
}

export interface BranchJobHooks {
  /** Aborts when the branch must stop (run stop, fail_fast); the executor cancels the job. */
  signal: AbortSignal;
  /** Why it is stopping, for the worker's own stop (so statuses match a local stop). */
  stopReason(): string | null;
  /** A worker began an attempt (the first, or one after another was cut off). */
  onAttempt(attempt: number, worker: string): void;
  onEvent(event: RemoteEvent): void;
  /** An attempt's result was refused: the attempt no longer held the job (ADR 0046). */
  onRefused?(r: RefusedResult): void;
}

/** A result the executor did not take: it came from an attempt that was cut off. */
export interface RefusedResult {
  attempt: number;
  worker: string;
  /** What the refused result said. */
  status: NodeStatus;
  reason: string;
}

export interface BranchExecutor {
  /** "redis", ...: written in branch.dispatched. */
  readonly name: string;
  /** Creates the job (a no-op when it exists: re-attach) and resolves with its outcome.
   *  Rejects with ExecutorLostError when the executor is gone (the run ends error). */
  run(job: BranchJob, hooks: BranchJobHooks): Promise<BranchJobOutcome>;
  /** Let the connection go (the session's teardown). */
  close?(): Promise<void>;
}

function refusing(port: string): never {
  throw new PortNotProvidedError(
    `the ${port} port was not provided`,
    "the engine never starts processes by itself: inject a fake in tests, the real port in src/cli.ts",
  );
}

export const refusingAgentRunner: AgentRunner = {
  refuse: () => refusing("AgentRunner"),
  run: async () => refusing("AgentRunner"),
};
export const refusingCommandRunner: CommandRunner = {
  runCheck: async () => refusing("CommandRunner"),
  runScript: async () => refusing("CommandRunner"),
};
export const refusingClock: Clock = {
  now: () => refusing("Clock"),
  sleep: async () => refusing("Clock"),
};
export const refusingLedger: Ledger = {
  append: () => refusing("Ledger"),
};
export const refusingApprovals: Approvals = {
  decide: async () => refusing("Approvals"),
};

// ---- git workspaces (issue 15, ADR 0020) ----

/** Totals of a diff between two commits (binary files count as changed, with no lines). */
export interface DiffStat {
  filesChanged: number;
  insertions: number;
  deletions: number;
}

/** One path a diff touches. A rename names both sides (`from` is the old path). */
export interface ChangedPath {
  status: "added" | "modified" | "removed" | "renamed" | "copied" | "type_changed";
  path: string;
  from?: string;
}

/** A worktree's git records as they are now (GitPort.worktreeState). */
export interface WorktreeState {
  /** The git dir `<path>/.git` names ("gitdir: X", absolute); null when .git is missing,
   *  a folder, a symbolic link, or says something else. */
  link: string | null;
  /** What that git dir says its worktree's .git is (`<gitdir>/gitdir`); null when unreadable. */
  backLink: string | null;
  /** The repository that git dir belongs to (its `commondir`, resolved); null when unreadable. */
  common: string | null;
  /** HEAD of the worktree: the ref it names, or the commit it is detached at; null when unreadable. */
  head: { ref: string } | { detached: string } | null;
  /** The commit `refs/heads/<branch>` names in the repository at root; null when the branch is gone. */
  tip: string | null;
  /** Whether `parent` is `tip` or an ancestor of it (the sitting committed on top of vouch's commit). */
  descends: boolean;
}

/** What of the user's repository a sitting must leave alone (ADR 0044), as digests vouch compares
 *  after each sitting: its config, hooks, info/exclude and info/attributes, HEAD, the index's
 *  entries (GitPort.repoFingerprint), and every ref but vouch's own branches. */
export interface RepoFingerprint {
  files: Record<string, string>;
  refs: Record<string, string>;
}

/** A symbolic link in a check's tree: `path` (repository-relative) points at `target` (absolute). */
export interface TreeLink {
  path: string;
  target: string;
}

/** Where vouch records an attempt: the worktree, its git dir (as vouch made it), its branch and the commit before. */
export interface RecordedWorktree {
  path: string;
  gitDir: string;
  branch: string;
  parent: string;
}

/**
 * Git, as the engine needs it for isolated workspaces. Every path is absolute;
 * every ref the engine passes was checked first (never starts with "-"). The real
 * one (src/workspace/git.ts) runs git by argv, never through a shell, and never
 * touches the user's own checkout (files, index, HEAD). Failures throw GitPortError (src/engine/errors.ts).
 */
export interface GitPort {
  /** The top folder of the work tree holding `cwd`, or null when `cwd` is not in a git repository. */
  repoRoot(cwd: string): Promise<string | null>;
  /** Where `cwd` is inside its work tree: "" at the top, else "sub/dir/" (git's --show-prefix). */
  cwdPrefix(cwd: string): Promise<string>;
  /** The repository's own git dir (its common dir: shared by all its worktrees), absolute. */
  commonDir(root: string): Promise<string>;
  /** The commit a ref names (full hex id), or null when it names no commit. */
  resolveCommit(root: string, ref: string): Promise<string | null>;
  /** True when the checkout at `root` has uncommitted changes (tracked or untracked, not ignored). */
  hasUncommittedChanges(root: string): Promise<boolean>;
  /** True when the local branch exists. */
  branchExists(root: string, branch: string): Promise<boolean>;
  /** The subject line of the local branch's tip commit; null when there is no such branch. */
  branchSubject(root: string, branch: string): Promise<string | null>;
  /** A new worktree at `path` on a new branch `branch` starting at `commit`: a tree of its own, a
   *  private clone that borrows the repository's objects, recorded by vouch's own git dir (ADR 0041). */
  addWorktree(root: string, path: string, branch: string, commit: string): Promise<void>;
  /** What the worktree's git records say now (ADR 0044), read from the files, never found by
   *  git's own search from `path`: vouch compares it with what it was when vouch made it. */
  worktreeState(root: string, path: string, branch: string, parent: string): Promise<WorktreeState>;
  /** Commits every file of the worktree on `branch` after `parent` (author and committer "vouch")
   *  and returns the commit (`parent` when nothing changed). Staged through a private index with
   *  --git-dir/--work-tree given: index flags (assume-unchanged, skip-worktree) and the shared
   *  info/exclude hide nothing, and the commit cannot land in another repository or branch.
   *  Only files the worktree's own .gitignore files exclude stay out. The branch moves only
   *  if it still names `parent` (else a GitPortError). */
  recordAttempt(w: RecordedWorktree, message: string): Promise<string>;
  diffStat(root: string, from: string, to: string): Promise<DiffStat>;
  /** The patch between two commits, at most maxBytes of it. */
  diff(root: string, from: string, to: string, maxBytes: number): Promise<{ text: string; truncated: boolean }>;
  changedPaths(root: string, from: string, to: string): Promise<ChangedPath[]>;
  /** Puts `paths` in the worktree (files and index) back as they are in `commit`; a path
   *  `commit` does not have is removed. With `gitDir`, git is pointed at it and at the
   *  worktree explicitly (--git-dir/--work-tree), never found by its search. */
  restorePaths(worktree: string, commit: string, paths: readonly string[], gitDir?: string): Promise<void>;
  /** The git tree object id of a commit's tree: what a check on it ran on (ADR 0067). */
  treeId(root: string, commit: string): Promise<string>;
  /** Every path (file, symbolic link, submodule) of a commit's tree. */
  listFiles(root: string, commit: string): Promise<string[]>;
  /** A commit whose tree is `commit`'s with `paths` as `from` has them (absent where `from` has
   *  none), its parent `commit`; `commit` itself when that changes nothing. The tree a check
   *  sees (ADR 0043), made in git's object store: no checkout is read or touched. */
  composeTree(root: string, commit: string, from: string, paths: readonly string[], message: string): Promise<string>;
  /** Writes `commit`'s tree into a new folder called `name` (where: the port's choice, a tmpfs
   *  when there is one with room, else <root>/.vouch/trees) with a git dir of its own (detached at
   *  `commit`, the repository's objects borrowed), each link a symbolic link; returns the folder. */
  checkoutTree(root: string, commit: string, name: string, links: readonly TreeLink[]): Promise<string>;
  /** Removes a folder checkoutTree made. */
  removeTree(dir: string): Promise<void>;
  /** The digests of what a sitting must leave alone in the repository at root (ADR 0044). */
  repoFingerprint(root: string): Promise<RepoFingerprint>;
  /** Folders git ignores in the checkout at root (installed dependencies, build output), as
   *  repository paths without a trailing slash; vouch's own .vouch left out. */
  ignoredFolders(root: string): Promise<string[]>;
  /** The folders of the repository's worktrees (the main one included) and of vouch's own trees. */
  listWorktrees(root: string): Promise<string[]>;
  /** Whether a worktree (or a tree of vouch's own, ADR 0041) is at `path`. */
  hasWorktree(root: string, path: string): Promise<boolean>;
  /** Makes sure `<root>/.vouch/` never shows in the user's `git status`: a
   *  `.vouch/.gitignore` holding `*` (vouch's own folder; the user's files and .git stay untouched). */
  hideVouchDir(root: string): Promise<void>;
  /** Removes the worktree folder and git's record of it (the branch stays). */
  removeWorktree(root: string, path: string): Promise<void>;
  renameBranch(root: string, from: string, to: string): Promise<void>;
  deleteBranch(root: string, branch: string): Promise<void>;
  /** Local branch names starting with `prefix`. */
  listBranches(root: string, prefix: string): Promise<string[]>;
}

export const refusingGit: GitPort = {
  repoRoot: async () => refusing("GitPort"),
  cwdPrefix: async () => refusing("GitPort"),
  commonDir: async () => refusing("GitPort"),
  resolveCommit: async () => refusing("GitPort"),
  hasUncommittedChanges: async () => refusing("GitPort"),
  branchExists: async () => refusing("GitPort"),
  branchSubject: async () => refusing("GitPort"),
  addWorktree: async () => refusing("GitPort"),
  worktreeState: async () => refusing("GitPort"),
  recordAttempt: async () => refusing("GitPort"),
  diffStat: async () => refusing("GitPort"),
  diff: async () => refusing("GitPort"),
  changedPaths: async () => refusing("GitPort"),
  restorePaths: async () => refusing("GitPort"),
  treeId: async () => refusing("GitPort"),
  listFiles: async () => refusing("GitPort"),
  composeTree: async () => refusing("GitPort"),
  checkoutTree: async () => refusing("GitPort"),
  removeTree: async () => refusing("GitPort"),
  ignoredFolders: async () => refusing("GitPort"),
  repoFingerprint: async () => refusing("GitPort"),
  listWorktrees: async () => refusing("GitPort"),
  hasWorktree: async () => refusing("GitPort"),
  hideVouchDir: async () => refusing("GitPort"),
  removeWorktree: async () => refusing("GitPort"),
  renameBranch: async () => refusing("GitPort"),
  deleteBranch: async () => refusing("GitPort"),
  listBranches: async () => refusing("GitPort"),
};

// ---- merging workspaces (issue 15, `kind: merge`, ADR 0021) ----

/** One branch merged onto the merge so far: the new merge commit, or the paths that conflict. */
export type MergeStep = { merged: true; commit: string; source: string } | { merged: false; paths: string[]; source: string };

/** The git a `kind: merge` node needs beyond GitPort. The real one (src/workspace/merge-git.ts)
 *  merges in git's object store (merge-tree, commit-tree): no checkout is touched until the
 *  result is checked out in the merge node's own worktree. */
export interface MergePort {
  /** Merges the commit `source` (the one vouch judged) onto commit `onto`; a conflict leaves
   *  nothing behind. A source the repository does not hold is a GitPortError. */
  mergeCommit(root: string, onto: string, source: string, message: string): Promise<MergeStep>;
  /** Brings the run's branches workers pushed (vouch/<run>/...) from `remote` into `root`
   *  (ADR 0029). Absent in ports that never meet workers. */
  fetchRunBranches?(root: string, remote: string, runId: string): Promise<void>;
}

export const refusingMerge: MergePort = {
  mergeCommit: async () => refusing("Merge"),
};
