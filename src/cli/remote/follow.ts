// Following a run another process records (ADR 0063): read its events by seq as
// the ledger grows — one range read of the (run_id, seq) key per poll, at most
// BATCH events each, so the work per poll is bounded and nothing is read twice —
// until the run has ended. The end is the run's last word: a run.finished with
// nothing after it, or the run's lock free with no run.finished (its process died).
import type { EventOf } from "../../engine/events.ts";
import type { RunLedger, StoredEvent } from "../../ledger/index.ts";

/** Between two reads that found nothing new. */
export const FOLLOW_POLL_MS = 100;
/** At most this many events per read; a full read is followed by the next at once. */
export const FOLLOW_BATCH = 1000;
/** The lock is probed once per this many empty reads (about a second). */
const PROBE_EVERY = 10;

export type FollowEnd =
  | { kind: "finished"; event: EventOf<"run.finished"> }
  /** The lock is free and the last event is no run.finished: the recording process died. */
  | { kind: "abandoned" }
  /** stop() matched an event. */
  | { kind: "matched"; event: StoredEvent["event"] }
  /** The signal was aborted (the person left). */
  | { kind: "left" };

export interface FollowOptions {
  /** Start after this seq (default: from the run's first event). */
  afterSeq?: number;
  signal?: AbortSignal;
  /** Who holds the run's lock: held, free, or unknown (a folder this user cannot write: wait for run.finished). */
  lockState(): "held" | "free" | "unknown";
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  pollMs?: number;
  batch?: number;
  /** Ends the follow at the first event it holds for. */
  stop?(event: StoredEvent["event"]): boolean;
}

/** Hands each batch to `onBatch` in order; resolves with how the following ended. */
export async function followRun(
  ledger: Pick<RunLedger, "eventsAfter">,
  runId: string,
  onBatch: (batch: readonly StoredEvent[]) => void,
  o: FollowOptions,
): Promise<FollowEnd> {
  const batch = o.batch ?? FOLLOW_BATCH;
  let seq = o.afterSeq ?? -1;
  let last: StoredEvent["event"] | null = null;
  let empty = 0;
  /** The lock was found free: the next read is the last unless it finds more. */
  let lockFree = false;
  for (;;) {
    if (o.signal?.aborted) return { kind: "left" };
    const got = ledger.eventsAfter(runId, seq, batch);
    if (got.length > 0) {
      onBatch(got);
      seq = got[got.length - 1]!.event.seq;
      last = got[got.length - 1]!.event;
      empty = 0;
      lockFree = false;
    }
    const matched = o.stop ? got.find((s) => o.stop!(s.event)) : undefined;
    if (matched) return { kind: "matched", event: matched.event };
    if (got.length === batch) continue;
    const end = ended(last);
    if (end) return end;
    if (got.length === 0 && lockFree) return { kind: "abandoned" };
    if (got.length === 0 && ++empty % PROBE_EVERY === 0 && o.lockState() === "free") {
      // Free now: whatever it committed before letting go is in the ledger. One more read decides.
      lockFree = true;
      continue;
    }
    try {
      await o.sleep(o.pollMs ?? FOLLOW_POLL_MS, o.signal);
    } catch {
      return { kind: "left" };
    }
  }
}

function ended(last: StoredEvent["event"] | null): FollowEnd | null {
  return last?.type === "run.finished" ? { kind: "finished", event: last } : null;
}
