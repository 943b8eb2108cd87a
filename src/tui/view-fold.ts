// Bounded view state for finished branches (ADR 0078). A writer that prints a branch's
// line and moves on (the plain lines) lets every finished branch go; the live UI lets
// go of passed ones beyond the last few it lists (tui-store.ts). What the view still
// needs of a branch let go — its nodes' seals for the run's sandbox line, and that it
// was there (the map's `released`) — is folded into the state; the map's own counts
// (finished, statusCounts, verdictCounts) were folded already.
import type { BranchRef, VouchEvent } from "../engine/events.ts";
import { mergeSeals, NO_SEALS, tallySeals, type SealTally } from "../read/seal.ts";
import { clearAt, entries, getAt } from "./chunked-list.ts";
import { own, withKey } from "./own.ts";
import type { ViewState } from "./view-state.ts";

/** `state` without `ref`'s branch; its nodes' seals go to `releasedSeals`, the map counts it in `released`. */
export function foldBranch(state: ViewState, ref: BranchRef): ViewState {
  const m = own(state.maps, ref.map);
  const b = m ? getAt(m.branches, ref.index) : undefined;
  if (!m || !b) return state;
  const maps = withKey(state.maps, ref.map, { ...m, branches: clearAt(m.branches, ref.index), released: (m.released ?? 0) + 1 });
  return { ...state, maps, releasedSeals: tallySeals(Object.values(b.nodes), state.releasedSeals) };
}

/** The run's seals: its top-level nodes first (as allNodes() orders them), then the branches let go, then those still held. */
export function runSeals(state: ViewState): SealTally {
  let t = mergeSeals(tallySeals(Object.values(state.nodes)), state.releasedSeals ?? NO_SEALS);
  for (const m of Object.values(state.maps)) for (const b of entries(m.branches)) t = tallySeals(Object.values(b.nodes), t);
  return t;
}

/** The live UI lists at most this many passed (or skipped) finished branches per map (the
 *  newest); older ones are let go — counted on the fold line, read back with `vouch show`. */
export const KEEP_PASSED_BRANCHES = 1000;

/** For the live UI's store: after each branch.finished, lets go of a map's oldest passed branch
 *  once more than `keep` are held. Unpassed branches stay: they are what a person reads. */
export function passedBranchRelease(keep = KEEP_PASSED_BRANCHES): (state: ViewState, event: VouchEvent) => ViewState {
  const held = new Map<string, number[]>();
  return (state, event) => {
    if (event.type !== "branch.finished" || (event.status !== "passed" && event.status !== "skipped")) return state;
    let queue = held.get(event.branch.map);
    if (!queue) held.set(event.branch.map, (queue = []));
    queue.push(event.branch.index);
    if (queue.length <= keep) return state;
    return foldBranch(state, { map: event.branch.map, index: queue.shift()! });
  };
}
