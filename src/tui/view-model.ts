// The pure reducer from events to the view model: one handler per event type,
// each copying only the path it touches (view-update.ts). Unknown or
// out-of-order events are taken leniently: a replayed ledger may start mid-run
// or hold a resumed run (each run.started opens the next session).
import type { EventOf, EventType, VouchEvent } from "../engine/events.ts";
import { recordOf } from "../read/views.ts";
import { verdictText } from "./format.ts";
import { own, put, withKey } from "./own.ts";
import { getAt } from "./chunked-list.ts";
import { unfoldBranch } from "./view-fold.ts";
import { addOverrun, count, emptyBranch, emptyMap, emptyNode, newAttempt, updateBranch, updateNode, withAttempt } from "./view-update.ts";
import type { BranchView, LiveCheck, MapView, NodeView, RunView, ViewState } from "./view-state.ts";
import { flakyText } from "../read/check-history.ts";
import { initialState } from "./view-state.ts";
import { noteWorker } from "./view-worker.ts";

export * from "./view-state.ts";
export { selectFrame, selectBodyRows, type Frame, type FrameOptions, type PendingApprovalView } from "./view-rows.ts";
export { selectDetails } from "./view-details.ts";

type Handler<T extends EventType> = (s: ViewState, e: EventOf<T>, at: number | null) => ViewState;

const HANDLERS: { [T in EventType]: Handler<T> } = {
  "run.started": runStarted,
  "node.started": nodeStarted,
  "node.progress": (s, e) =>
    updateNode(s, e.node, e.branch, (n) => {
      const next = withAttempt(n, session(s), e.attempt, (a) => ({
        ...a,
        turns: e.turns ?? a.turns,
        cost_usd: e.cost_usd ?? a.cost_usd,
        tokens: e.tokens ?? a.tokens,
        api_retries: e.api_retries ?? a.api_retries,
      }));
      if (e.activity !== undefined) next.activity = e.activity;
      return next;
    }),
  "check.finished": (s, e) =>
    updateNode(s, e.node, e.branch, (n) =>
      // A witness's run on the base (tree: base, ADR 0044), the check's own run and each rerun are records of their own.
      withAttempt(n, session(s), e.attempt, (a) => ({ ...a, checks: [...a.checks.filter((c) => !sameRun(c, e)), liveCheck(s, e)] })),
    ),
  "cap.overrun": (s, e) => {
    const o = recordOf(e);
    if (e.scope === "run" || e.node === undefined) return { ...s, runOverruns: addOverrun(s.runOverruns, o) };
    return updateNode(s, e.node, e.branch, (n) => ({ ...n, overruns: addOverrun(n.overruns, o) }));
  },
  "node.retrying": (s, e) =>
    updateNode(s, e.node, e.branch, (n) => ({
      ...withAttempt(n, session(s), e.attempt, (a) => ({
        ...a,
        status: "retrying",
        retry: { cause: e.cause, reason: e.reason, backoff_ms: e.backoff_ms, ...(e.error !== undefined ? { error: e.error } : {}) },
      })),
      status: "retrying",
    })),
  "node.finished": (s, e) => updateNode(s, e.node, e.branch, (n) => nodeFinished(n, e, session(s))),
  // What the model claimed is read from the ledger (vouch stats), not shown live.
  "attempt.judged": (s) => s,
  "node.limited": (s, e) =>
    updateNode(s, e.node, e.branch, (n) => ({
      ...withAttempt(n, session(s), e.attempt, (a) => ({
        ...a,
        status: "waiting",
        turns: e.turns ?? a.turns,
        cost_usd: e.cost_usd ?? a.cost_usd,
        finished_at: e.t,
      })),
      status: "waiting",
      stop_reason: "rate_limited",
      activity: e.error,
    })),
  "branch.started": branchStarted,
  "branch.finished": branchFinished,
  // Where a branch runs is noted by noteWorker (view-worker.ts), after every event.
  "branch.dispatched": (s) => s,
  "branch.cut_off": (s) => s,
  "repo.changed": (s, e) => updateNode(s, e.node, e.branch, (n) => ({ ...n, repoChanged: e.changed })),
  "branch.result_refused": (s) => s,
  "merge.conflict": (s, e) =>
    updateNode(s, e.node, undefined, (n) => ({
      ...n,
      conflicts: [
        ...(n.conflicts ?? []).filter((c) => c.git_branch !== e.git_branch),
        { git_branch: e.git_branch, from: e.from, paths: e.paths },
      ],
    })),
  "run.paused": (s, e) => {
    const limit = e.reason === "rate_limited" && e.harness !== undefined ? { harness: e.harness, resetsAt: e.resets_at ?? null } : null;
    return { ...s, status: "paused", paused: e.approvals, limit };
  },
  "run.waiting": (s, e) => ({ ...s, limit: { harness: e.harness, resetsAt: e.resets_at, until: e.until } }),
  "run.cancel_requested": (s, e) => ({ ...s, cancelledBy: `${e.by.user}@${e.by.host}` }),
  "run.finished": runFinished,
};

/** One run of one check: a rerun (ADR 0066) is a record of its own, so no failure is replaced by a later green. */
function sameRun(c: LiveCheck, e: EventOf<"check.finished">): boolean {
  return c.name === e.name && c.tree === e.tree && (c.rerun ?? 0) === (e.rerun ?? 0);
}

/** The check's record, marked when its history calls it flaky (by name, and by command when the event names one). */
function liveCheck(s: ViewState, e: EventOf<"check.finished">): LiveCheck {
  const r: LiveCheck = recordOf(e);
  const f = s.run?.flakyChecks.find((x) => x.name === e.name && (e.command_digest === undefined || x.command_digest === e.command_digest));
  if (f !== undefined) r.flakyHistory = flakyText(f);
  return r;
}

export function reduce(state: ViewState, event: VouchEvent): ViewState {
  const at = Date.parse(event.t);
  const s: ViewState = { ...state, events: state.events + 1, lastEventAt: Number.isNaN(at) ? state.lastEventAt : at };
  const handler = HANDLERS[event.type] as Handler<EventType>;
  return noteWorker(handler(s, event, Number.isNaN(at) ? null : at), event);
}

/** Fold a whole recorded sequence (tests, `vouch show --tui`). */
export function reduceAll(events: Iterable<VouchEvent>, state: ViewState = initialState()): ViewState {
  let s = state;
  for (const e of events) s = reduce(s, e);
  return s;
}

/** The session events belong to; events before any run.started (a ledger read mid-run) count as the first. */
function session(s: ViewState): number {
  return Math.max(1, s.session);
}

function runStarted(s: ViewState, e: EventOf<"run.started">, at: number | null): ViewState {
  const run: RunView = {
    id: e.run,
    graph: e.graph,
    graphPath: e.graph_path,
    // A resumed run keeps the first start, so elapsed covers the whole run.
    startedAt: e.resumed && s.run ? s.run.startedAt : at,
    budgetUsd: e.caps.budget_usd,
    wallMs: e.caps.wall_ms,
    concurrency: e.concurrency,
    resumed: e.resumed,
    harness: e.harness,
    version: e.version,
    flakyChecks: e.flaky_checks ?? [],
  };
  const order: string[] = [];
  const branchOrder: Record<string, string[]> = {};
  const nodes: Record<string, NodeView> = { ...s.nodes };
  const maps: Record<string, MapView> = { ...s.maps };
  for (const info of e.nodes) {
    if (info.map !== undefined) {
      put(branchOrder, info.map, [...(own(branchOrder, info.map) ?? []), info.id]);
      continue;
    }
    order.push(info.id);
    const prior = own(nodes, info.id);
    put(nodes, info.id, prior ?? { ...emptyNode(info.id, info.kind), ...(info.description ? { description: info.description } : {}) });
    if (info.kind === "map" && !own(maps, info.id)) put(maps, info.id, emptyMap(info.id));
  }
  // Keep nodes seen before run.started (a ledger read mid-run) after the declared ones.
  for (const id of s.order) if (!order.includes(id)) order.push(id);
  // What the earlier sessions cost stays counted: their run.finished totals, or what they spent so far.
  const earlier = s.session === 0 ? s.earlier : { costUsd: s.costUsd, costUnknown: s.end?.costUnknown ?? s.earlier.costUnknown };
  return {
    ...s,
    run,
    status: "running",
    end: null,
    session: s.session + 1,
    earlier,
    paused: null,
    limit: null,
    cancelledBy: null,
    order,
    branchOrder,
    nodes,
    maps,
  };
}

function nodeStarted(state: ViewState, e: EventOf<"node.started">, at: number | null): ViewState {
  // A sitting of the harness a wait was for starts: the wait is over.
  const s = state.limit?.until !== undefined && state.limit.harness === e.harness ? { ...state, limit: null } : state;
  const round = e.round ?? 1;
  const attempt = newAttempt(session(s), round, e.attempt, at);
  const same = (a: { session: number; round: number; attempt: number }) =>
    a.session === attempt.session && a.round === round && a.attempt === e.attempt;
  return updateNode(
    s,
    e.node,
    e.branch,
    (n) => {
      const next: NodeView = {
        ...n,
        kind: e.kind,
        status: e.kind === "approval" ? "waiting" : "running",
        attempt: e.attempt,
        attempts: [...n.attempts.filter((a) => !same(a)), attempt],
        startedAt: at,
        qualifier: null,
        stop_reason: null,
        cause: null,
      };
      if (e.harness !== undefined) next.harness = e.harness;
      if (e.prompt !== undefined) next.prompt = e.prompt;
      if (e.round !== undefined) next.round = e.round;
      if (e.sealed !== undefined) next.sealed = e.sealed;
      return next;
    },
    e.kind === "map" ? (m) => ({ ...m, items: e.items ?? m.items }) : undefined,
  );
}

function nodeFinished(n: NodeView, e: EventOf<"node.finished">, sessionNo: number): NodeView {
  const round = e.round !== undefined ? { ...n, round: e.round } : n;
  const closed =
    e.attempt > 0
      ? withAttempt(round, sessionNo, e.attempt, (a) => ({
          ...a,
          status: e.status,
          turns: e.turns ?? a.turns,
          tokens: e.tokens ?? a.tokens,
          // The round's cost (its attempts summed), on the attempt that closed it, as the ledger keeps it.
          cost_usd: e.cost_usd,
          finished_at: e.t,
        }))
      : round;
  const next: NodeView = {
    ...closed,
    status: e.status,
    attempt: Math.max(n.attempt, e.attempt),
    qualifier: e.qualifier,
    stop_reason: e.stop_reason,
    cause: e.cause,
    error: e.error ?? null,
    turns: e.turns,
    wall_ms: e.wall_ms,
    tokens: e.tokens ?? null,
  };
  for (const k of [
    "activity",
    "result_tail",
    "recovered",
    "fallback",
    "session_id",
    "evidence",
    "workspace",
    "witnessed",
    "sealed",
    "unsealed_reason",
  ] as const)
    delete next[k];
  if (e.evidence !== undefined) next.evidence = e.evidence;
  if (e.result_tail !== undefined) next.result_tail = e.result_tail;
  if (e.recovered !== undefined) next.recovered = e.recovered;
  if (e.fallback !== undefined) next.fallback = e.fallback;
  if (e.session_id !== undefined) next.session_id = e.session_id;
  if (e.workspace !== undefined) next.workspace = e.workspace;
  if (e.witnessed !== undefined) next.witnessed = e.witnessed;
  if (e.sealed !== undefined) next.sealed = e.sealed;
  if (e.unsealed_reason !== undefined) next.unsealed_reason = e.unsealed_reason;
  return next;
}

/** A branch starts, or starts again (a feedback round, a resumed run): what it was counted as
 *  comes out first — from its view, or from what was kept when it was let go (view-fold.ts). */
function branchStarted(s: ViewState, e: EventOf<"branch.started">): ViewState {
  const held = own(s.maps, e.branch.map);
  const back = held && getAt(held.branches, e.branch.index) === undefined ? unfoldBranch(s, held, e.branch.index) : undefined;
  const base = back ? { ...back.state, maps: withKey(back.state.maps, e.branch.map, back.map) } : s;
  return updateBranch(base, e.branch, (b, m) => {
    const prior = b ?? back?.prior;
    const map = prior && prior.status !== "running" ? count(m, prior, -1) : m;
    const next: BranchView = { ...emptyBranch(e.branch), label: e.label, nodes: b?.nodes ?? {} };
    return [next, { ...map, started: map.started + (prior ? 0 : 1), running: map.running + (prior?.status === "running" ? 0 : 1) }];
  });
}

function branchFinished(s: ViewState, e: EventOf<"branch.finished">): ViewState {
  return updateBranch(s, e.branch, (b, m) => {
    const prior = b ?? emptyBranch(e.branch);
    let map =
      prior.status === "running"
        ? { ...m, running: Math.max(0, m.running - (b ? 1 : 0)), started: m.started + (b ? 0 : 1) }
        : count(m, prior, -1);
    const next: BranchView = {
      ...prior,
      status: e.status,
      verdict: e.verdict,
      verdictText: verdictText(e.verdict, e.status),
      error: e.error ?? prior.error,
    };
    map = count(map, next);
    return [next, map];
  });
}

function runFinished(s: ViewState, e: EventOf<"run.finished">): ViewState {
  // The run's total over every session, as `vouch show` sums them.
  const costUsd = s.earlier.costUsd + e.cost_usd;
  return {
    ...s,
    status: e.status,
    costUsd,
    end: {
      status: e.status,
      exitCode: e.exit_code,
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
      costUsd,
      costUnknown: s.earlier.costUnknown + e.cost_unknown,
      wallMs: e.wall_ms,
      counts: e.counts,
    },
  };
}
