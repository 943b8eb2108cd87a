// Coalesces render requests: at most one frame every FRAME_INTERVAL_MS, however
// many events arrive, and a final frame on flush(). The scheduler is injected so
// tests count frames on a fake clock instead of measuring time.

/** The frame interval: 20 frames a second is smooth to the eye and cheap for a 2-core machine. */
export const FRAME_INTERVAL_MS = 50;

export interface FrameScheduler {
  /** Run `fn` after `ms` milliseconds; the returned function cancels it. */
  schedule(fn: () => void, ms: number): () => void;
  now(): number;
}

export const realScheduler: FrameScheduler = {
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};

export interface Throttle {
  /** Something changed: a frame will follow, no sooner than the interval after the last one. */
  request(): void;
  /** Render now if anything changed since the last frame (or nothing was ever rendered). */
  flush(): void;
  /** Drop any pending frame and ignore later requests. */
  stop(): void;
  readonly renders: number;
}

export function createThrottle(render: () => void, opts: { intervalMs?: number; scheduler?: FrameScheduler } = {}): Throttle {
  const interval = opts.intervalMs ?? FRAME_INTERVAL_MS;
  const scheduler = opts.scheduler ?? realScheduler;
  let cancelPending: (() => void) | null = null;
  let dirty = false;
  let stopped = false;
  let last = Number.NEGATIVE_INFINITY;
  let renders = 0;

  const fire = () => {
    cancelPending = null;
    if (!dirty || stopped) return;
    dirty = false;
    last = scheduler.now();
    renders++;
    render();
  };

  return {
    request() {
      if (stopped) return;
      dirty = true;
      if (cancelPending) return;
      cancelPending = scheduler.schedule(fire, Math.max(0, last + interval - scheduler.now()));
    },
    flush() {
      if (stopped) return;
      cancelPending?.();
      cancelPending = null;
      if (renders === 0) dirty = true;
      fire();
    },
    stop() {
      stopped = true;
      cancelPending?.();
      cancelPending = null;
    },
    get renders() {
      return renders;
    },
  };
}
