// A run's events as they were appended, in seq order: what the engine's
// priorFromEvents folds for resume. Each is checked against the event union,
// so a row this vouch cannot understand is an error naming it, not a crash later.
import { parseStored } from "./stored-json.ts";
import type { Database } from "bun:sqlite";
import { LedgerError } from "../engine/errors.ts";
import { corruptLedger } from "./integrity.ts";
import { eventSchema, type VouchEvent } from "../engine/events.ts";
import { BlobStore, type StoredEventRow } from "./blob-store.ts";
import { fastEvent, UNSURE } from "./event-fast.ts";

const COLUMNS = "run_id, seq, t, type, body";

export function runEvents(db: Database, runId: string, file: string): VouchEvent[] {
  const rows = db.query(`SELECT ${COLUMNS} FROM events WHERE run_id = ? ORDER BY seq`).all(runId) as StoredEventRow[];
  const blobs = new BlobStore(db);
  return rows.map((row) => eventOf(row.seq, textOf(row, blobs, runId, file), runId, file));
}

/** A row's text; a body that is no text was not written by vouch (the open's check says the same). */
function textOf(row: StoredEventRow, blobs: BlobStore, runId: string, file: string): string {
  if (typeof row.body !== "string") throw corruptLedger(file, `event ${row.seq} of run ${runId} is not the JSON vouch wrote`);
  return blobs.eventText(row);
}

/** An event and the text the ledger holds for it (what `--json` printed: the same bytes). */
export interface StoredEvent {
  event: VouchEvent;
  text: string;
}

/** The run's events after `afterSeq`, at most `limit` of them, in seq order: one range read
 *  of the (run_id, seq) primary key, so following a run as it grows (`vouch watch`) costs
 *  what is new, never a re-read of what was read (ADR 0063). */
export function eventsAfter(db: Database, runId: string, afterSeq: number, limit: number, file: string): StoredEvent[] {
  const rows = db
    .query(`SELECT ${COLUMNS} FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`)
    .all(runId, afterSeq, limit) as StoredEventRow[];
  const blobs = new BlobStore(db);
  return rows.map((row) => {
    const text = blobs.eventText(row);
    return { event: eventOf(row.seq, text, runId, file), text };
  });
}

function eventOf(seq: number, body: string, runId: string, file: string): VouchEvent {
  let value: unknown;
  try {
    value = parseStored(body);
  } catch {
    throw corruptLedger(file, `event ${seq} of run ${runId} is not the JSON vouch wrote`);
  }
  // The common event is read without zod (ADR 0094); zod reads the rest and says what is wrong.
  const fast = fastEvent(value);
  if (fast !== UNSURE) return fast;
  const parsed = eventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
    throw new LedgerError(
      `${file}: event ${seq} of run ${runId} is not an event this vouch understands${where}: ${issue?.message ?? "invalid"}`,
      "it was written by another vouch version or altered outside vouch",
    );
  }
  return parsed.data;
}

/** The highest seq recorded for the run, or null when it has no events. */
export function lastSeq(db: Database, runId: string): number | null {
  const row = db.query("SELECT max(seq) AS seq FROM events WHERE run_id = ?").get(runId) as { seq: number | null } | null;
  return row?.seq ?? null;
}
