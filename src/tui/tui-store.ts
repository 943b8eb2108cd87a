// Holds the live view model between events and frames: push() folds an event
// in at once (cheap), the throttle decides when React sees a new snapshot.
import type { VouchEvent } from "../engine/events.ts";
import { createApprovalQueue, type ApprovalQueue } from "./approval-queue.ts";
import { createThrottle, realScheduler, type FrameScheduler } from "./throttle.ts";
import { reduce } from "./view-model.ts";
import type { PendingApprovalView } from "./view-rows.ts";
import { initialState, type ViewState } from "./view-state.ts";
import { passedBranchRelease } from "./view-fold.ts";

/** While a run is live, a frame at least this often keeps the spinner and the clock moving. */
export const TICK_MS = 250;

export interface Snapshot {
  state: ViewState;
  now: number;
  approvals: readonly PendingApprovalView[];
  /** Frames published so far. */
  frame: number;
}

export interface TuiStore {
  push(event: VouchEvent): void;
  getSnapshot(): Snapshot;
  subscribe(listener: () => void): () => void;
  /** Publish the final state now (close path). */
  flush(): void;
  stop(): void;
  readonly approvals: ApprovalQueue;
  readonly frames: number;
}

export function createTuiStore(
  opts: { scheduler?: FrameScheduler; intervalMs?: number; tick?: boolean; keepPassedBranches?: number } = {},
): TuiStore {
  const scheduler = opts.scheduler ?? realScheduler;
  const approvals = createApprovalQueue();
  const listeners = new Set<() => void>();
  let state = initialState();
  // Bounded for a map of any size (ADR 0078): the newest passed branches stay listed, older ones are counted.
  const release = passedBranchRelease(opts.keepPassedBranches);
  let snapshot: Snapshot = { state, now: scheduler.now(), approvals: [], frame: 0 };
  let stopped = false;
  let cancelTick: (() => void) | null = null;

  const throttle = createThrottle(
    () => {
      snapshot = { state, now: scheduler.now(), approvals: approvals.pending(), frame: snapshot.frame + 1 };
      listeners.forEach((l) => l());
    },
    { scheduler, ...(opts.intervalMs !== undefined ? { intervalMs: opts.intervalMs } : {}) },
  );
  approvals.subscribe(() => throttle.request());

  const tick = () => {
    cancelTick = null;
    if (stopped || state.end) return;
    throttle.request();
    cancelTick = scheduler.schedule(tick, TICK_MS);
  };
  if (opts.tick) cancelTick = scheduler.schedule(tick, TICK_MS);

  return {
    push(event) {
      if (stopped) return;
      state = release(reduce(state, event), event);
      throttle.request();
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush: () => throttle.flush(),
    stop() {
      stopped = true;
      throttle.stop();
      cancelTick?.();
    },
    approvals,
    get frames() {
      return throttle.renders;
    },
  };
}
