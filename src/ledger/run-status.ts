// The abandoned rule (ADR 0008), as pure functions over what the ledger holds.
import type { RunStatus } from "../engine/events.ts";
import type { LedgerRunStatus } from "./types.ts";

export interface SessionFacts {
  session: number;
  /** The status its run.finished carried; null when it has none. */
  finished: RunStatus | null;
  started_at: string;
  last_event_at: string;
  wall_ms: number | null;
}

/** A session with a run.finished has that status. One without is `running`
 *  only if it is the run's latest session and a live process holds the run's
 *  lock; otherwise its process died: `abandoned`. Never written, always derived. */
export function sessionStatus(s: SessionFacts, isLatest: boolean, live: boolean): LedgerRunStatus {
  if (s.finished !== null) return s.finished;
  return isLatest && live ? "running" : "abandoned";
}

/** A finished session's wall is what run.finished said; an unfinished one
 *  lasted until now (while live) or until its last recorded event. */
export function sessionWallMs(s: SessionFacts, running: boolean, now: number): number {
  if (s.finished !== null && s.wall_ms !== null) return s.wall_ms;
  const start = Date.parse(s.started_at);
  const end = running ? now : Date.parse(s.last_event_at);
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : 0;
}
