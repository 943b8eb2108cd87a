// Bounded view state for a writer that prints a branch's line and moves on (the plain
// lines, ADR 0078): a finished branch leaves the state, and what the run's last lines
// still need of it — its nodes' seals — is folded into a tally. The map's own counts
// (finished, statusCounts, verdictCounts) are already folded and stay.
import type { BranchRef } from "../engine/events.ts";
import { mergeSeals, NO_SEALS, tallySeals, type SealTally } from "../read/seal.ts";
import { clearAt, entries, getAt } from "./chunked-list.ts";
import { own, withKey } from "./own.ts";
import type { ViewState } from "./view-state.ts";

export interface Folded {
  state: ViewState;
  /** The seals of every branch let go so far. */
  seals: SealTally;
}

/** `ref`'s branch let go of `state`, its nodes' seals added to `seals`. */
export function foldBranch(state: ViewState, ref: BranchRef, seals: SealTally): Folded {
  const m = own(state.maps, ref.map);
  const b = m ? getAt(m.branches, ref.index) : undefined;
  if (!m || !b) return { state, seals };
  const maps = withKey(state.maps, ref.map, { ...m, branches: clearAt(m.branches, ref.index) });
  return { state: { ...state, maps }, seals: tallySeals(Object.values(b.nodes), seals) };
}

/** The run's seals: its top-level nodes first (as allNodes() orders them), then the branches let go, then those still held. */
export function runSeals(state: ViewState, folded: SealTally = NO_SEALS): SealTally {
  let t = mergeSeals(tallySeals(Object.values(state.nodes)), folded);
  for (const m of Object.values(state.maps)) for (const b of entries(m.branches)) t = tallySeals(Object.values(b.nodes), t);
  return t;
}
