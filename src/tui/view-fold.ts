// Bounded view state for finished branches (ADR 0078). A writer that prints a branch's
// line and moves on (the plain lines) lets every finished branch go; the live UI lets
// go of passed ones beyond the last few it lists (tui-store.ts). What the view still
// needs of a branch let go — its nodes' seals for the run's sandbox line, and that it
// was there (the map's `released`) — is folded into the state; the map's own counts
// (finished, statusCounts, verdictCounts) were folded already.
import { NODE_STATUSES, type BranchRef, type NodeStatus, type VouchEvent } from "../engine/events.ts";
import { mergeSeals, NO_SEALS, tallySeals, type SealTally } from "../read/seal.ts";
import { clearAt, emptyList, entries, getAt, setAt } from "./chunked-list.ts";
import { own, withKey } from "./own.ts";
import type { BranchView, MapView, ViewState } from "./view-state.ts";
import { emptyBranch } from "./view-update.ts";

/** `state` without `ref`'s branch; its nodes' seals go to `releasedSeals`, the map counts it in
 *  `released` and keeps what it was counted as (packFacts), to count it out if it runs again. */
export function foldBranch(state: ViewState, ref: BranchRef): ViewState {
  const m = own(state.maps, ref.map);
  const b = m ? getAt(m.branches, ref.index) : undefined;
  if (!m || !b) return state;
  const seals = tallySeals(Object.values(b.nodes));
  const [releasedVerdicts, v] = interned(m.releasedVerdicts ?? [], b.verdictText ?? b.status.toUpperCase());
  const facts = packFacts(NODE_STATUSES.indexOf(b.status as NodeStatus), v, seals.sealed, seals.unsealed);
  const maps = withKey(state.maps, ref.map, {
    ...m,
    branches: clearAt(m.branches, ref.index),
    released: (m.released ?? 0) + 1,
    releasedFacts: setAt(m.releasedFacts ?? emptyList<number>(), ref.index, facts),
    releasedVerdicts,
  });
  return { ...state, maps, releasedSeals: mergeSeals(state.releasedSeals ?? NO_SEALS, seals) };
}

/** A branch let go runs again: what it was counted as comes out of the map's counts and the
 *  released seals, and it is no longer counted as released. Undefined when `index` was not let go. */
export function unfoldBranch(
  state: ViewState,
  m: MapView,
  index: number,
): { state: ViewState; map: MapView; prior: BranchView } | undefined {
  const facts = m.releasedFacts ? getAt(m.releasedFacts, index) : undefined;
  if (facts === undefined) return undefined;
  const { status, verdict, sealed, unsealed } = unpackFacts(facts);
  const prior: BranchView = { ...emptyBranch({ map: m.id, index }), status: NODE_STATUSES[status] ?? "passed" };
  const text = m.releasedVerdicts?.[verdict];
  if (text !== undefined && text !== prior.status.toUpperCase()) prior.verdictText = text;
  const was = state.releasedSeals ?? NO_SEALS;
  const releasedSeals = { ...was, sealed: Math.max(0, was.sealed - sealed), unsealed: Math.max(0, was.unsealed - unsealed) };
  const map = { ...m, released: Math.max(0, (m.released ?? 0) - 1), releasedFacts: clearAt(m.releasedFacts!, index) };
  return { state: { ...state, releasedSeals }, map, prior };
}

/** Distinct verdict texts kept per map for the packed facts; a branch with a text past them is
 *  counted out under its status's word (NO_VERDICT), as `count` names a branch without a text. */
const MAX_VERDICTS = 255;
const NO_VERDICT = 255;

/** `text`'s position in `list`, added when missing and there is room. */
function interned(list: readonly string[], text: string): [readonly string[], number] {
  const at = list.indexOf(text);
  if (at >= 0) return [list, at];
  return list.length < MAX_VERDICTS ? [[...list, text], list.length] : [list, NO_VERDICT];
}
const COUNT_LIMIT = 0xffff;

/** status (3 bits), verdict text (8), sealed and unsealed node counts (16 each): 43 bits, an exact double. */
function packFacts(status: number, verdict: number, sealed: number, unsealed: number): number {
  const c = (n: number) => Math.min(COUNT_LIMIT, n);
  return ((status & 7) * 256 + (verdict & 255)) * 2 ** 32 + c(sealed) * 2 ** 16 + c(unsealed);
}

function unpackFacts(n: number): { status: number; verdict: number; sealed: number; unsealed: number } {
  const high = Math.floor(n / 2 ** 32);
  const low = n - high * 2 ** 32;
  return { status: Math.floor(high / 256), verdict: high % 256, sealed: Math.floor(low / 2 ** 16), unsealed: low % 2 ** 16 };
}

/** The run's seals: its top-level nodes first, then the branches let go, then those still held. */
export function runSeals(state: ViewState): SealTally {
  let t = mergeSeals(tallySeals(Object.values(state.nodes)), state.releasedSeals ?? NO_SEALS);
  for (const m of Object.values(state.maps)) for (const b of entries(m.branches)) t = tallySeals(Object.values(b.nodes), t);
  return t;
}

/** The live UI lists at most this many passed (or skipped) finished branches per map (the
 *  newest); older ones are let go — counted on the fold line, read back with `vouch show`. */
export const KEEP_PASSED_BRANCHES = 1000;

/** For the live UI's store: after each branch.finished, lets go of a map's oldest passed branch
 *  once more than `keep` are held. Unpassed branches stay: they are what a person reads. A branch
 *  that starts again (a feedback round) leaves the queue; one queued that is no longer final and
 *  passed when its turn comes is not let go. */
export function passedBranchRelease(keep = KEEP_PASSED_BRANCHES): (state: ViewState, event: VouchEvent) => ViewState {
  const held = new Map<string, number[]>();
  return (state, event) => {
    if (event.type === "branch.started") {
      const queue = held.get(event.branch.map);
      const at = queue ? queue.indexOf(event.branch.index) : -1;
      if (at >= 0) queue!.splice(at, 1);
      return state;
    }
    if (event.type !== "branch.finished" || (event.status !== "passed" && event.status !== "skipped")) return state;
    let queue = held.get(event.branch.map);
    if (!queue) held.set(event.branch.map, (queue = []));
    queue.push(event.branch.index);
    while (queue.length > keep) {
      const index = queue.shift()!;
      const b = getAt(own(state.maps, event.branch.map)?.branches ?? emptyList<BranchView>(), index);
      if (b && (b.status === "passed" || b.status === "skipped")) return foldBranch(state, { map: event.branch.map, index });
    }
    return state;
  };
}
