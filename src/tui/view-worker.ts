// Which worker runs a branch (issue 19, ADR 0026): the view model reads it from
// the `remote` tag the coordinator puts on every event a worker streamed back,
// and from branch.cut_off (a worker died or was stopped under the branch). A
// worker's name reaches the screen only through workerLabel: it comes through
// Redis from another machine, so it is sanitized and bounded like any output.
import type { BranchRef, VouchEvent } from "../engine/events.ts";
import { getAt, setAt } from "./chunked-list.ts";
import { own, withKey } from "./own.ts";
import { oneLine } from "../text/lines.ts";
import { truncate } from "../text/width.ts";
import type { BranchView, ViewState } from "./view-state.ts";

/** Columns a worker's name may take on a row (details show it whole, wrapped). */
export const WORKER_WIDTH = 24;

/** The state after `event` with the worker it names noted on its branch and node. */
export function noteWorker(s: ViewState, event: VouchEvent): ViewState {
  if (event.type === "branch.cut_off") {
    return onBranch(s, event.branch, (b) => {
      const next: BranchView = { ...b, cutOff: [...(b.cutOff ?? []), { worker: event.worker, attempt: event.attempt }] };
      delete next.worker; // the job waits for another worker
      return next;
    });
  }
  const worker = event.remote?.worker;
  const branch = "branch" in event ? (event.branch as BranchRef | undefined) : undefined;
  if (worker === undefined || branch === undefined) return s;
  const node = "node" in event && typeof event.node === "string" ? event.node : undefined;
  return onBranch(s, branch, (b) => {
    const n = node === undefined ? undefined : own(b.nodes, node);
    if (b.worker === worker && (n === undefined || n.worker === worker)) return b;
    const next: BranchView = { ...b, worker };
    if (n && n.worker !== worker) next.nodes = withKey(b.nodes, node!, { ...n, worker });
    return next;
  });
}

/** Changes one branch already in the view; a branch the view never saw is left alone. */
function onBranch(s: ViewState, ref: BranchRef, fn: (b: BranchView) => BranchView): ViewState {
  const m = own(s.maps, ref.map);
  const b = m ? getAt(m.branches, ref.index) : undefined;
  if (!m || !b) return s;
  const next = fn(b);
  if (next === b) return s;
  return { ...s, maps: withKey(s.maps, ref.map, { ...m, branches: setAt(m.branches, ref.index, next) }) };
}

/** A worker's name as one short, safe piece of a line. */
export function workerLabel(name: string, width = WORKER_WIDTH): string {
  return truncate(oneLine(name), width);
}

/** What a branch row says about where it runs: "on w1", or "cut off on w1" while it waits for another worker. */
export function workerText(b: BranchView): string | null {
  if (b.worker !== undefined) return `on ${workerLabel(b.worker)}`;
  const last = b.cutOff?.at(-1);
  if (!last) return null;
  return last.worker === "" ? "cut off" : `cut off on ${workerLabel(last.worker)}`;
}
