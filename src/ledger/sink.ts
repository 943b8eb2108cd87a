// The event sink the CLI puts between the engine and its consumers:
//   engine → sink.append(e) → (batch committed to SQLite) → forward(e) → TUI / NDJSON / plain.
// An event reaches a consumer only after the transaction holding it has
// committed, so whatever was shown survives a kill -9 (docs/architecture.md §8).
// Batching: events queue and are committed together on a short timer, or at
// once when the queue is full or the event ends a session (ADR 0008).
import type { Ledger } from "../engine/ports.ts";
import type { EventType, VouchEvent } from "../engine/events.ts";

export interface EventSink extends Ledger {
  /** Queue one event; throws the error of an earlier failed flush, if any. */
  append(event: VouchEvent): void;
  /** Commit and forward everything queued, now. */
  flush(): void;
  /** flush(), then stop: later appends throw. */
  close(): void;
  /** Events queued, not yet committed nor forwarded. */
  readonly pending: number;
}

export interface SinkOptions {
  /** Commit when this many events are queued. Default 256. */
  maxBatch?: number;
  /** Commit at most this long after the first queued event (0 = on the next
   *  microtask). Default 4 ms: invisible on screen, enough to batch bursts. */
  maxDelayMs?: number;
  /** Called once when a commit on the timer fails (no caller to throw to): the
   *  owner should stop the run now rather than at the next append, which may be
   *  minutes away. The error is still thrown by the next append. */
  onFailure?: (error: unknown) => void;
  /** Forwards a committed batch at once, in order, instead of `forward` per event
   *  (--json writes a batch in one write). */
  forwardBatch?: (events: readonly VouchEvent[]) => void;
}

/** Committed at once (ADR 0009): after run.started, run.paused and run.finished
 *  the process may well exit or wait. */
const COMMIT_NOW: ReadonlySet<EventType> = new Set<EventType>(["run.started", "run.paused", "run.finished"]);
/** Committed at the end of this turn of the event loop, with whatever else the same turn
 *  emitted (one transaction, not one each: a node's end and the next node's start come
 *  together): node.finished, so a resume after a kill -9 sees the pass instead of losing it
 *  in a batch waiting for its timer; node.started, which the spawn seam's barrier (flush
 *  before any process starts, ProcessSupervisor.beforeStart) commits even sooner when a
 *  process is about to start, so the ledger knows of every node process that ran. */
const COMMIT_THIS_TURN: ReadonlySet<EventType> = new Set<EventType>(["node.started", "node.finished"]);

export const DEFAULT_MAX_BATCH = 256;
export const DEFAULT_MAX_DELAY_MS = 4;

/** A sink that commits with `write` (one transaction per call) before forwarding. */
export function batchingSink(
  write: (events: readonly VouchEvent[]) => void,
  forward: (event: VouchEvent) => void,
  options: SinkOptions = {},
): EventSink {
  const maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
  const maxDelayMs = Math.max(0, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  let queue: VouchEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let immediate: ReturnType<typeof setImmediate> | null = null;
  let scheduled = false;
  let failure: unknown = null;
  let closed = false;
  let notified = false;

  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    if (immediate !== null) clearImmediate(immediate);
    timer = null;
    immediate = null;
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    write(batch); // throws: nothing of this batch is forwarded
    if (options.forwardBatch) return options.forwardBatch(batch);
    // A consumer that throws must not keep the others from seeing committed events.
    let consumerError: unknown = null;
    for (const e of batch) {
      try {
        forward(e);
      } catch (err) {
        consumerError ??= err;
      }
    }
    if (consumerError !== null) throw consumerError;
  };
  // A flush from a timer has no caller to throw to: keep the error for the next append.
  const flushLater = (): void => {
    try {
      flush();
    } catch (e) {
      const first = failure === null && !notified;
      failure ??= e;
      if (first) {
        notified = true;
        options.onFailure?.(e);
      }
    }
  };
  /** At the end of this turn, before any timer: replaces a pending timer. */
  const scheduleThisTurn = (): void => {
    if (immediate !== null) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    scheduled = true;
    immediate = setImmediate(flushLater);
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    if (maxDelayMs === 0) queueMicrotask(() => scheduled && flushLater());
    else timer = setTimeout(flushLater, maxDelayMs);
  };
  const rethrow = (): void => {
    if (failure !== null) {
      const e = failure;
      failure = null;
      throw e;
    }
  };

  return {
    append(event) {
      rethrow();
      if (closed) throw new Error("vouch ledger: append after the sink was closed");
      if (COMMIT_NOW.has(event.type)) {
        // What came before is committed and shown first, in its own transaction: a consumer
        // that throws on it stops the session before run.finished (or paused) is recorded,
        // so the ledger never says "passed" for a session that ended as vouch's error.
        flush();
        queue.push(event);
        flush();
        return;
      }
      queue.push(event);
      if (queue.length >= maxBatch) flush();
      else if (COMMIT_THIS_TURN.has(event.type)) scheduleThisTurn();
      else schedule();
    },
    flush() {
      flush();
      rethrow();
    },
    close() {
      if (closed) return;
      try {
        flush();
      } finally {
        closed = true;
      }
      rethrow();
    },
    get pending() {
      return queue.length;
    },
  };
}

/** No ledger at all: forwards at once. For measuring what the ledger costs
 *  (the same run with and without it) and for --dry-run paths. */
export function directSink(forward: (event: VouchEvent) => void): EventSink {
  let closed = false;
  return {
    append(event) {
      if (closed) throw new Error("vouch ledger: append after the sink was closed");
      forward(event);
    },
    flush() {},
    close() {
      closed = true;
    },
    pending: 0,
  };
}
