// A run made in memory for the report's work, timeline and sub-graph
// sections: a map of two tasks in worktrees (one tampered), a merge that merged
// one and left the other out on a conflicting path, a sub-graph two levels deep,
// an approval, a retry, a usage limit and a resumed session. Every text the run
// could carry from outside can be replaced by a hostile one (`hostile`).
import type { VouchEvent, WorkspaceRecord } from "../../src/engine/events.ts";
import type { AttemptView, BranchView, CheckRecord, NodeView, RunSummary } from "../../src/ledger/types.ts";
import { reportModel, type ReportModel } from "../../src/report/model.ts";
import type { NodeDiff } from "../../src/report/work.ts";

export const RUN = "20261201-120000-abcdef";
const BASE = "1111111111111111111111111111111111111111";
const C0 = "2222222222222222222222222222222222222222";
const C1 = "3333333333333333333333333333333333333333";
const C2 = "5555555555555555555555555555555555555555";
const MERGED = "4444444444444444444444444444444444444444";
const T0 = Date.parse("2026-12-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** The texts a run takes from outside: tasks, a check's output, a patch, a conflicting path, a claim. */
export interface Texts {
  task0: string;
  task1: string;
  task2: string;
  patch0: string;
  patch1: string;
  path: string;
  tail: string;
  claim: string;
}

export const PLAIN: Texts = {
  task0: "Make TtlCache.get honour ttlMs",
  task1: "Make slugify keep digits",
  task2: "Make the tests pass",
  patch0: [
    "diff --git a/src/cache.js b/src/cache.js",
    "index 1234567..89abcde 100644",
    "--- a/src/cache.js",
    "+++ b/src/cache.js",
    "@@ -10,3 +10,4 @@ export class TtlCache {",
    "   get(key) {",
    "-    return this.map.get(key);",
    "+    const e = this.map.get(key);",
    "+    return e && e.until > Date.now() ? e.value : undefined;",
    "   }",
    "",
  ].join("\n"),
  patch1: "diff --git a/src/cache.js b/src/cache.js\n--- a/src/cache.js\n+++ b/src/cache.js\n@@ -1 +1 @@\n-a\n+b\n",
  path: "src/cache.js",
  tail: "tests ok",
  claim: "done",
};

function check(node: string, name: string, passed: boolean, tail: string, branch?: { map: string; index: number }): CheckRecord {
  return {
    t: at(900),
    seq: 1,
    node,
    ...(branch ? { branch } : {}),
    attempt: 1,
    name,
    passed,
    expect: "exit_zero",
    ...(passed ? {} : { reason: "exit 1, expected 0" }),
    exit: passed ? 0 : 1,
    signal: null,
    timed_out: false,
    duration_ms: 40,
    stdout_tail: tail,
    stderr_tail: "",
    truncated: false,
  } as CheckRecord;
}

function attempt(over: Partial<AttemptView> = {}): AttemptView {
  return {
    session: 1,
    round: 1,
    attempt: 1,
    status: "passed",
    qualifier: "verified",
    stop_reason: "complete",
    cause: null,
    error: null,
    retry_cause: null,
    retry_reason: null,
    recovered: false,
    fallback: null,
    cost_usd: 0.05,
    turns: 3,
    tokens: null,
    api_retries: null,
    wall_ms: 500,
    result_tail: null,
    session_id: null,
    started_at: at(0),
    finished_at: at(500),
    checks: [],
    overruns: [],
    ...over,
  };
}

function node(id: string, kind: string, over: Partial<NodeView> = {}): NodeView {
  return {
    node: id,
    kind,
    status: "passed",
    qualifier: kind === "end" ? null : "verified",
    stop_reason: null,
    cause: null,
    error: null,
    cost_usd: null,
    turns: null,
    wall_ms: 10,
    attempts: [attempt({ cost_usd: null })],
    ...over,
  };
}

function workspace(branch: string, commit: string, over: Partial<WorkspaceRecord> = {}): WorkspaceRecord {
  return {
    branch,
    base: BASE,
    commit,
    files_changed: 1,
    insertions: 2,
    deletions: 1,
    path: `/repo/.vouch/worktrees/${RUN}/${branch}`,
    ...over,
  };
}

function branches(t: Texts): BranchView[] {
  const b = (index: number, label: string, status: "passed" | "failed", ws: WorkspaceRecord, checks: CheckRecord[]): BranchView => ({
    map: "implement_each",
    index,
    label,
    status,
    error: null,
    session: 1,
    nodes: [
      node("implement", "agent", {
        branch: { map: "implement_each", index },
        status,
        cause: status === "failed" ? "tampered" : null,
        error: status === "failed" ? "the attempt changed protected paths: scripts/test" : null,
        cost_usd: 0.05,
        workspace: ws,
        attempts: [attempt({ status, checks })],
      }),
    ],
  });
  return [
    b(0, t.task0, "passed", workspace(`vouch/${RUN}/implement_each/0/implement`, C0), [check("implement", "tests", true, t.tail)]),
    b(1, t.task1, "passed", workspace(`vouch/${RUN}/implement_each/1/implement`, C1), []),
    b(2, t.task2, "failed", workspace(`vouch/${RUN}/implement_each/2/implement`, C2, { tampered: ["scripts/test"] }), []),
  ];
}

function mergeOutput(t: Texts) {
  return {
    base: "HEAD",
    base_commit: BASE,
    commit: MERGED,
    merged: [{ branch: `vouch/${RUN}/implement_each/0/implement`, from: "implement_each#0", commit: C0 }],
    left_out: [{ branch: `vouch/${RUN}/implement_each/1/implement`, from: "implement_each#1", reason: "merge_conflict", paths: [t.path] }],
    not_passed: ["implement_each#2"],
    files_changed: 1,
    insertions: 2,
    deletions: 1,
    branch: `vouch/${RUN}/merged`,
  };
}

function topNodes(t: Texts): NodeView[] {
  return [
    node("implement_each", "map"),
    node("integrate", "merge", {
      output: mergeOutput(t),
      workspace: workspace(`vouch/${RUN}/merged`, MERGED),
      attempts: [attempt({ cost_usd: null, checks: [check("integrate", "tests", true, t.tail)] })],
    }),
    node("ask", "approval", { qualifier: "approved" }),
    node("review", "graph", { status: "failed", qualifier: null, cause: "graph_failed", error: "review/check failed" }),
    node("review/lint", "script", { qualifier: "exit-only" }),
    node("review/check", "graph", { status: "failed", qualifier: null, cause: "graph_failed", error: "review/check/fmt failed" }),
    node("review/check/fmt", "script", { status: "failed", qualifier: null, cause: "check_failed", error: "fmt failed" }),
    node("done", "end"),
  ];
}

function ev(ms: number, e: Record<string, unknown>): VouchEvent {
  return { v: 1, run: RUN, seq: 0, t: at(ms), ...e } as unknown as VouchEvent;
}

const fin = (ms: number, node: string, extra: Record<string, unknown> = {}) =>
  ev(ms, {
    type: "node.finished",
    node,
    attempt: 1,
    status: "passed",
    qualifier: null,
    stop_reason: null,
    cause: null,
    cost_usd: null,
    turns: null,
    wall_ms: 0,
    ...extra,
  });

/** Two sessions: the map's branches (one retried once), a usage limit, the merge, an approval that paused the run; then resumed. */
function events(): VouchEvent[] {
  const b0 = { map: "implement_each", index: 0 };
  const b1 = { map: "implement_each", index: 1 };
  const started = (ms: number, node: string, kind: string, extra: Record<string, unknown> = {}) =>
    ev(ms, { type: "node.started", node, kind, attempt: 1, ...extra });
  return [
    ev(0, { type: "run.started", resumed: false, nodes: [] }),
    started(0, "implement_each", "map"),
    started(10, "implement", "agent", { branch: b0 }),
    started(20, "implement", "agent", { branch: b1 }),
    ev(300, {
      type: "node.retrying",
      node: "implement",
      branch: b1,
      attempt: 1,
      cause: "check_failed",
      reason: "tests failed",
      backoff_ms: 0,
    }),
    started(310, "implement", "agent", { branch: b1, attempt: 2 }),
    ev(400, {
      type: "node.limited",
      node: "implement",
      branch: b0,
      attempt: 1,
      harness: "claude",
      resets_at: null,
      error: "usage limit",
      cost_usd: null,
      turns: null,
    }),
    fin(800, "implement", { branch: b1, attempt: 2 }),
    ev(900, {
      type: "check.finished",
      node: "integrate",
      attempt: 1,
      name: "tests",
      passed: true,
      expect: "exit_zero",
      exit: 0,
      signal: null,
      timed_out: false,
      duration_ms: 40,
      stdout_tail: "",
      stderr_tail: "",
      truncated: false,
    }),
    started(850, "integrate", "merge"),
    fin(950, "integrate"),
    started(960, "ask", "approval", { prompt: "Ship it?" }),
    ev(970, { type: "run.paused", reason: "approval", approvals: [{ node: "ask" }] }),
    ev(60_000, { type: "run.started", resumed: true, nodes: [] }),
    started(60_000, "ask", "approval"),
    fin(60_010, "ask"),
    started(60_020, "done", "end"),
    fin(60_030, "done"),
  ];
}

function summary(t: Texts): RunSummary {
  return {
    run: {
      id: RUN,
      graph: "parallel-implement",
      graph_path: "/repo/graphs/parallel-implement.yaml",
      graph_digest: "sha256:0",
      status: "failed",
      started_at: at(0),
      wall_ms: 60_030,
      cost_usd: 0.1,
      cost_unknown: 0,
      exit_code: 1,
      sessions: 2,
      live: false,
      inputs: { tasks: `${t.task0}\n${t.task1}` },
      caps: { budget_usd: 5, wall_ms: 45 * 60_000 },
      concurrency: 4,
      harness: "replay",
      version: "0.1.0",
      reason: null,
      counts: { passed: 6, failed: 3, error: 0, skipped: 0, cancelled: 0 },
      last_seq: 0,
    },
    sessions: [],
    nodes: topNodes(t),
    branches: branches(t),
    overruns: [{ t: at(500), seq: 1, scope: "run", cap: "budget_usd", limit: 5, actual: 5.25 }],
    pass_env: [],
    graph_env: [],
    claims: [],
    retries: [],
  } as unknown as RunSummary;
}

/** The run's model as the report builds it; `diffs` as the command line would hand them in. */
export function workModel(t: Texts = PLAIN, opts: { diffs?: Map<string, NodeDiff> } = {}): ReportModel {
  const diffs =
    opts.diffs ??
    new Map<string, NodeDiff>([
      ["integrate", { patch: t.patch0 }],
      ["implement_each[0].implement", { patch: t.patch0 }],
      ["implement_each[1].implement", { patch: t.patch1 }],
      ["implement_each[2].implement", { patch: t.patch1 }],
    ]);
  return reportModel(summary(t), events(), { diffs });
}
