// The pure reducer from events to the view model. Every event copies only the
// path it touches (a node, one chunk of a map's branches), so a burst of
// thousands of events stays cheap. Unknown or out-of-order events are taken
// leniently: a replayed ledger may start mid-run or hold a resumed run.
import { nodeKey, ZERO_COUNTS, type BranchRef, type EventOf, type NodeStatus, type VouchEvent } from "../engine/events.ts";
import { emptyList, getAt, setAt } from "./chunked-list.ts";
import { verdictText } from "./format.ts";
import type { AttemptView, BranchView, MapView, NodeView, OverrunView, RunView, ViewState } from "./view-state.ts";
import { initialState, isFinal, nodeCost } from "./view-state.ts";
import { own, put, withKey } from "./own.ts";
import { noteWorker } from "./view-worker.ts";

export * from "./view-state.ts";
export { selectFrame, selectBodyRows, type Frame, type FrameOptions, type PendingApprovalView } from "./view-rows.ts";
export { selectDetails } from "./view-details.ts";

export function reduce(state: ViewState, event: VouchEvent): ViewState {
  return noteWorker(reduceEvent(state, event), event);
}

function reduceEvent(state: ViewState, event: VouchEvent): ViewState {
  const at = Date.parse(event.t);
  const s: ViewState = { ...state, events: state.events + 1, lastEventAt: Number.isNaN(at) ? state.lastEventAt : at };
  switch (event.type) {
    case "run.started":
      return runStarted(s, event, at);
    case "node.started":
      // A sitting of the harness a wait was for starts: the wait is over.
      return updateNode(
        s.limit?.until !== undefined && s.limit.harness === event.harness ? { ...s, limit: null } : s,
        event.node,
        event.branch,
        (n) => {
          const attempt: AttemptView = {
            attempt: event.attempt,
            startedAt: time(at),
            status: "running",
            turns: null,
            costUsd: null,
            tokens: null,
            checks: [],
          };
          // A later feedback round numbers its attempts from 1 again: what the earlier rounds cost is carried.
          const newRound = event.round !== undefined && n.round !== undefined && event.round > n.round;
          const next: NodeView = {
            ...n,
            ...(newRound ? { carriedCostUsd: nodeCost(n), costUsd: null } : {}),
            kind: event.kind,
            status: event.kind === "approval" ? "waiting" : "running",
            attempt: event.attempt,
            attempts: newRound ? [attempt] : [...n.attempts.filter((a) => a.attempt !== event.attempt), attempt],
            startedAt: time(at),
            qualifier: null,
            stopReason: null,
            cause: null,
          };
          if (event.harness !== undefined) next.harness = event.harness;
          if (event.prompt !== undefined) next.prompt = event.prompt;
          if (event.round !== undefined) next.round = event.round;
          return next;
        },
        event.kind === "map" ? (m) => ({ ...m, items: event.items ?? m.items }) : undefined,
      );
    case "node.progress":
      return updateNode(s, event.node, event.branch, (n) => {
        const next = withAttempt(n, event.attempt, (a) => ({
          ...a,
          turns: event.turns ?? a.turns,
          costUsd: event.cost_usd ?? a.costUsd,
          tokens: event.tokens ?? a.tokens,
          ...(event.api_retries !== undefined
            ? { apiRetries: event.api_retries }
            : a.apiRetries !== undefined
              ? { apiRetries: a.apiRetries }
              : {}),
        }));
        if (event.activity !== undefined) next.activity = event.activity;
        return next;
      });
    case "check.finished":
      return updateNode(s, event.node, event.branch, (n) =>
        withAttempt(n, event.attempt, (a) => ({ ...a, checks: [...a.checks.filter((c) => c.name !== event.name), checkView(event)] })),
      );
    case "cap.overrun": {
      const o: OverrunView = { cap: event.cap, limit: event.limit, actual: event.actual, attempt: event.attempt ?? null };
      if (event.scope === "run" || event.node === undefined) return { ...s, runOverruns: addOverrun(s.runOverruns, o) };
      return updateNode(s, event.node, event.branch, (n) => ({ ...n, overruns: addOverrun(n.overruns, o) }));
    }
    case "node.retrying":
      return updateNode(s, event.node, event.branch, (n) => ({
        ...withAttempt(n, event.attempt, (a) => ({
          ...a,
          status: "retrying",
          retry: {
            cause: event.cause,
            reason: event.reason,
            backoffMs: event.backoff_ms,
            ...(event.error !== undefined ? { error: event.error } : {}),
          },
        })),
        status: "retrying",
      }));
    case "node.finished":
      return updateNode(s, event.node, event.branch, (n) => nodeFinished(n, event));
    case "branch.started":
      return updateBranch(s, event.branch, (b, m) => {
        const map = b && b.status !== "running" ? uncount(m, b) : m;
        return [
          { index: event.branch.index, label: event.label, status: "running", verdict: null, verdictText: null, nodes: b?.nodes ?? {} },
          { ...map, started: map.started + (b ? 0 : 1), running: map.running + (b?.status === "running" ? 0 : 1) },
        ];
      });
    case "branch.finished":
      return updateBranch(s, event.branch, (b, m) => {
        const prior = b ?? {
          index: event.branch.index,
          label: `#${event.branch.index}`,
          status: "running",
          verdict: null,
          verdictText: null,
          nodes: {},
        };
        let map =
          prior.status === "running"
            ? { ...m, running: Math.max(0, m.running - (b ? 1 : 0)), started: m.started + (b ? 0 : 1) }
            : uncount(m, prior);
        const next: BranchView = {
          ...prior,
          status: event.status,
          verdict: event.verdict,
          verdictText: verdictText(event.verdict, event.status),
        };
        if (event.error !== undefined) next.error = event.error;
        map = count(map, next);
        return [next, map];
      });
    case "branch.dispatched":
    case "branch.cut_off":
      // Where a branch runs is noted by noteWorker (view-worker.ts), after every event.
      return s;
    case "repo.changed":
      return updateNode(s, event.node, event.branch, (n) => ({ ...n, repoChanged: event.changed }));
    case "merge.conflict":
      return updateNode(s, event.node, undefined, (n) => ({
        ...n,
        conflicts: [
          ...(n.conflicts ?? []).filter((c) => c.gitBranch !== event.git_branch),
          { gitBranch: event.git_branch, from: event.from, paths: event.paths },
        ],
      }));
    case "run.paused": {
      const limit =
        event.reason === "rate_limited" && event.harness !== undefined
          ? { harness: event.harness, resetsAt: event.resets_at ?? null }
          : null;
      return { ...s, status: "paused", paused: event.approvals, limit };
    }
    case "run.waiting":
      return { ...s, limit: { harness: event.harness, resetsAt: event.resets_at, until: event.until } };
    case "node.limited":
      return updateNode(s, event.node, event.branch, (n) => ({
        ...withAttempt(n, event.attempt, (a) => ({
          ...a,
          status: "waiting",
          turns: event.turns ?? a.turns,
          costUsd: event.cost_usd ?? a.costUsd,
        })),
        status: "waiting",
        stopReason: "rate_limited",
        activity: event.error,
      }));
    case "run.finished":
      return {
        ...s,
        status: event.status,
        costUsd: event.cost_usd,
        end: {
          status: event.status,
          exitCode: event.exit_code,
          ...(event.reason !== undefined ? { reason: event.reason } : {}),
          costUsd: event.cost_usd,
          costUnknown: event.cost_unknown,
          wallMs: event.wall_ms,
          counts: event.counts,
        },
      };
  }
}

/** Fold a whole recorded sequence (tests, `vouch show --tui`). */
export function reduceAll(events: Iterable<VouchEvent>, state: ViewState = initialState()): ViewState {
  let s = state;
  for (const e of events) s = reduce(s, e);
  return s;
}

function time(at: number): number | null {
  return Number.isNaN(at) ? null : at;
}

function runStarted(s: ViewState, e: EventOf<"run.started">, at: number): ViewState {
  const run: RunView = {
    id: e.run,
    graph: e.graph,
    graphPath: e.graph_path,
    // A resumed run keeps the first start, so elapsed covers the whole run.
    startedAt: e.resumed && s.run ? s.run.startedAt : time(at),
    budgetUsd: e.caps.budget_usd,
    wallMs: e.caps.wall_ms,
    concurrency: e.concurrency,
    resumed: e.resumed,
    harness: e.harness,
    version: e.version,
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
  return { ...s, run, status: "running", end: null, paused: null, limit: null, order, branchOrder, nodes, maps };
}

function emptyNode(id: string, kind: string, branch?: BranchRef): NodeView {
  const n: NodeView = {
    key: nodeKey(id, branch),
    id,
    kind,
    status: "pending",
    attempt: 0,
    attempts: [],
    qualifier: null,
    stopReason: null,
    cause: null,
    costUsd: null,
    turns: null,
    wallMs: null,
    tokens: null,
    overruns: [],
    startedAt: null,
  };
  if (branch) n.branch = branch;
  return n;
}

function emptyMap(id: string): MapView {
  return { id, items: null, started: 0, running: 0, finished: 0, statusCounts: ZERO_COUNTS, verdictCounts: [], branches: emptyList() };
}

function updateNode(
  s: ViewState,
  id: string,
  branch: BranchRef | undefined,
  fn: (n: NodeView) => NodeView,
  mapFn?: (m: MapView) => MapView,
): ViewState {
  let next: ViewState;
  let before = 0;
  let after = 0;
  if (!branch) {
    const prior = own(s.nodes, id) ?? emptyNode(id, "agent");
    const n = fn(prior);
    before = nodeCost(prior);
    after = nodeCost(n);
    next = { ...s, nodes: withKey(s.nodes, id, n), order: s.order.includes(id) ? s.order : [...s.order, id] };
    if (mapFn || n.kind === "map")
      next = { ...next, maps: withKey(next.maps, id, (mapFn ?? ((m) => m))(own(next.maps, id) ?? emptyMap(id))) };
  } else {
    next = updateBranch(s, branch, (b, m) => {
      const br = b ?? { index: branch.index, label: `#${branch.index}`, status: "running", verdict: null, verdictText: null, nodes: {} };
      const prior = own(br.nodes, id) ?? emptyNode(id, "agent", branch);
      const n = fn(prior);
      before = nodeCost(prior);
      after = nodeCost(n);
      const current = n.status === "running" || n.status === "waiting" ? id : br.current;
      const nb: BranchView = { ...br, nodes: withKey(br.nodes, id, n) };
      if (current !== undefined) nb.current = current;
      return [nb, b ? m : { ...m, started: m.started + 1, running: m.running + 1 }];
    });
  }
  // run.finished's total is authoritative once it has arrived.
  return after === before || s.end ? next : { ...next, costUsd: next.costUsd + after - before };
}

function updateBranch(s: ViewState, ref: BranchRef, fn: (b: BranchView | undefined, m: MapView) => [BranchView, MapView]): ViewState {
  const map = own(s.maps, ref.map) ?? emptyMap(ref.map);
  const [branch, nextMap] = fn(getAt(map.branches, ref.index), map);
  const maps = withKey(s.maps, ref.map, { ...nextMap, branches: setAt(nextMap.branches, ref.index, branch) });
  return { ...s, maps, order: s.order.includes(ref.map) ? s.order : [...s.order, ref.map] };
}

function count(m: MapView, b: BranchView, sign: 1 | -1 = 1): MapView {
  if (!isFinal(b.status)) return m;
  const status = b.status as NodeStatus;
  const statusCounts = { ...m.statusCounts, [status]: m.statusCounts[status] + sign };
  const text = b.verdictText ?? status.toUpperCase();
  const found = m.verdictCounts.some(([v]) => v === text);
  const verdictCounts = found
    ? m.verdictCounts.map(([v, c]) => [v, v === text ? c + sign : c] as const).filter(([, c]) => c > 0)
    : sign > 0
      ? [...m.verdictCounts, [text, 1] as const]
      : m.verdictCounts;
  return { ...m, statusCounts, verdictCounts, finished: m.finished + sign };
}

function uncount(m: MapView, b: BranchView): MapView {
  return count(m, b, -1);
}

function withAttempt(n: NodeView, attempt: number, fn: (a: AttemptView) => AttemptView): NodeView {
  const i = n.attempts.findIndex((a) => a.attempt === attempt);
  const prior: AttemptView =
    i >= 0 ? n.attempts[i]! : { attempt, startedAt: null, status: "running", turns: null, costUsd: null, tokens: null, checks: [] };
  const attempts = n.attempts.slice();
  if (i >= 0) attempts[i] = fn(prior);
  else attempts.push(fn(prior));
  return { ...n, attempts };
}

function addOverrun(list: readonly OverrunView[], o: OverrunView): OverrunView[] {
  const i = list.findIndex((x) => x.cap === o.cap && x.attempt === o.attempt);
  if (i < 0) return [...list, o];
  const next = list.slice();
  next[i] = { ...o, actual: Math.max(o.actual, list[i]!.actual) };
  return next;
}

function checkView(e: EventOf<"check.finished">) {
  return {
    // A witness's run on the base (ADR 0044) must fail there: say which run a row is.
    name: e.tree === "base" ? `${e.name} (on the base)` : e.name,
    passed: e.passed,
    expect: e.expect,
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    exit: e.exit,
    signal: e.signal,
    timedOut: e.timed_out,
    durationMs: e.duration_ms,
    stdoutTail: e.stdout_tail,
    stderrTail: e.stderr_tail,
    truncated: e.truncated,
  };
}

function nodeFinished(n: NodeView, e: EventOf<"node.finished">): NodeView {
  const next: NodeView = {
    ...(e.attempt > 0
      ? withAttempt(n, e.attempt, (a) => ({ ...a, status: e.status, turns: e.turns ?? a.turns, tokens: e.tokens ?? a.tokens }))
      : n),
    status: e.status,
    attempt: Math.max(n.attempt, e.attempt),
    qualifier: e.qualifier,
    stopReason: e.stop_reason,
    cause: e.cause,
    costUsd: e.cost_usd,
    turns: e.turns,
    wallMs: e.wall_ms,
    tokens: e.tokens ?? null,
  };
  delete next.activity;
  for (const k of ["error", "resultTail", "recovered", "fallback", "sessionId", "evidence", "workspace", "witnessed"] as const)
    delete next[k];
  if (e.evidence !== undefined) next.evidence = e.evidence;
  if (e.error !== undefined) next.error = e.error;
  if (e.result_tail !== undefined) next.resultTail = e.result_tail;
  if (e.recovered !== undefined) next.recovered = e.recovered;
  if (e.fallback !== undefined) next.fallback = e.fallback;
  if (e.session_id !== undefined) next.sessionId = e.session_id;
  if (e.workspace !== undefined) next.workspace = e.workspace;
  if (e.witnessed !== undefined) next.witnessed = e.witnessed;
  return next;
}
