// Copy-on-write updates of the view state: one node, one branch, one attempt, the
// map's counts. Every update copies only the path it touches, so a burst of events
// stays cheap. A node's cost_usd is kept equal to nodeCost of its attempts (the one
// rule `vouch show` uses too), and the run's live total follows it.
import { nodeKey, ZERO_COUNTS, type BranchRef, type NodeStatus } from "../engine/events.ts";
import { nodeCost } from "../read/node-cost.ts";
import { noVerdict } from "../read/views.ts";
import { emptyList, getAt, setAt } from "./chunked-list.ts";
import { own, withKey } from "./own.ts";
import type { AttemptView, BranchView, MapView, NodeView, OverrunRecord, ViewState } from "./view-state.ts";
import { isFinal } from "./view-state.ts";

export function emptyNode(id: string, kind: string, branch?: BranchRef): NodeView {
  const n: NodeView = {
    key: nodeKey(id, branch),
    node: id,
    kind,
    status: "pending",
    attempt: 0,
    attempts: [],
    ...noVerdict(),
    tokens: null,
    overruns: [],
    startedAt: null,
  };
  if (branch) n.branch = branch;
  return n;
}

export function emptyMap(id: string): MapView {
  return { id, items: null, started: 0, running: 0, finished: 0, statusCounts: ZERO_COUNTS, verdictCounts: [], branches: emptyList() };
}

export function emptyBranch(ref: BranchRef): BranchView {
  return {
    map: ref.map,
    index: ref.index,
    label: `#${ref.index}`,
    status: "running",
    verdict: null,
    verdictText: null,
    error: null,
    nodes: {},
  };
}

/** `fn` applied to node `id` (of `branch`), its cost recomputed, the run's live total moved by the difference. */
export function updateNode(
  s: ViewState,
  id: string,
  branch: BranchRef | undefined,
  fn: (n: NodeView) => NodeView,
  mapFn?: (m: MapView) => MapView,
): ViewState {
  let delta = 0;
  const apply = (prior: NodeView): NodeView => {
    const changed = fn(prior);
    const n = { ...changed, cost_usd: nodeCost(changed.attempts) };
    delta = (n.cost_usd ?? 0) - (prior.cost_usd ?? 0);
    return n;
  };
  let next: ViewState;
  if (!branch) {
    const n = apply(own(s.nodes, id) ?? emptyNode(id, "agent"));
    next = { ...s, nodes: withKey(s.nodes, id, n), order: s.order.includes(id) ? s.order : [...s.order, id] };
    if (mapFn || n.kind === "map")
      next = { ...next, maps: withKey(next.maps, id, (mapFn ?? ((m) => m))(own(next.maps, id) ?? emptyMap(id))) };
  } else {
    next = updateBranch(s, branch, (b, m) => {
      const br = b ?? emptyBranch(branch);
      const n = apply(own(br.nodes, id) ?? emptyNode(id, "agent", branch));
      const current = n.status === "running" || n.status === "waiting" ? id : br.current;
      const nb: BranchView = { ...br, nodes: withKey(br.nodes, id, n) };
      if (current !== undefined) nb.current = current;
      return [nb, b ? m : { ...m, started: m.started + 1, running: m.running + 1 }];
    });
  }
  // run.finished's total is authoritative once it has arrived.
  return delta === 0 || s.end ? next : { ...next, costUsd: next.costUsd + delta };
}

export function updateBranch(
  s: ViewState,
  ref: BranchRef,
  fn: (b: BranchView | undefined, m: MapView) => [BranchView, MapView],
): ViewState {
  const map = own(s.maps, ref.map) ?? emptyMap(ref.map);
  const [branch, nextMap] = fn(getAt(map.branches, ref.index), map);
  const maps = withKey(s.maps, ref.map, { ...nextMap, branches: setAt(nextMap.branches, ref.index, branch) });
  return { ...s, maps, order: s.order.includes(ref.map) ? s.order : [...s.order, ref.map] };
}

/** A finished branch counted into (or, `sign` -1, out of) its map's tallies. */
export function count(m: MapView, b: BranchView, sign: 1 | -1 = 1): MapView {
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

export function newAttempt(session: number, round: number, attempt: number, startedAt: number | null): AttemptView {
  return {
    session,
    round,
    attempt,
    startedAt,
    status: "running",
    turns: null,
    cost_usd: null,
    tokens: null,
    api_retries: null,
    finished_at: null,
    checks: [],
  };
}

/** `fn` applied to attempt `attempt` of the node's current round in `session` (made when missing). */
export function withAttempt(n: NodeView, session: number, attempt: number, fn: (a: AttemptView) => AttemptView): NodeView {
  const round = n.round ?? 1;
  const i = n.attempts.findIndex((a) => a.session === session && a.round === round && a.attempt === attempt);
  const prior = i >= 0 ? n.attempts[i]! : newAttempt(session, round, attempt, null);
  const attempts = n.attempts.slice();
  if (i >= 0) attempts[i] = fn(prior);
  else attempts.push(fn(prior));
  return { ...n, attempts };
}

/** One overrun per cap and attempt, the largest actual kept. */
export function addOverrun(list: readonly OverrunRecord[], o: OverrunRecord): OverrunRecord[] {
  const i = list.findIndex((x) => x.cap === o.cap && x.attempt === o.attempt);
  if (i < 0) return [...list, o];
  const next = list.slice();
  next[i] = { ...o, actual: Math.max(o.actual, list[i]!.actual) };
  return next;
}
