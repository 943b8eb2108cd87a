// The open-time check of the events' content (ADR 0048): every event vouch stored is JSON it
// wrote, and the blobs it names exist, hash to their names and are JSON. Each event is checked
// by one open, not by every open (ADR 0088): an open that found a run's events sound leaves a
// mark (meta `checked:<run>` = the last seq it read), and later opens read each run's events
// after its mark only — three index lookups for a run with nothing new, instead of the whole file.
import type { Database } from "bun:sqlite";
import { digestOf, withHeader, withPlaceholders } from "./stored-text.ts";
import { blobText, PackedTextError, unpackSql } from "./event-fragments.ts";
import { BUSY_TIMEOUT_MS } from "./busy-wait.ts";

/** Each run's last checked seq, as [run id, seq]. */
export type CheckedMarks = readonly (readonly [string, number])[];
export interface EventCheck {
  /** The first event that is not the JSON vouch wrote, or null. */
  bad: { run_id: unknown; seq: unknown } | null;
  /** The marks to leave when `bad` is null. */
  marks: CheckedMarks;
}

/** What the check did, for the tests that bound it (test/ledger/integrity-marks.test.ts). */
export const integrityCounters = { parsed: 0 };

/** A stored body as SQL can see it: an event stored without its header (schema version 6,
 *  stored-text.ts) gets it back from its columns, so json_valid judges the whole event. */
const HEADER_SQL = `'{"v":1,"run":' || json_quote(run_id) || ',"t":' || json_quote(t) || ',"seq":' || seq || ',"type":' || json_quote(type)`;
export const EVENT_JSON_SQL = `CASE WHEN substr(body, 1, 1) = char(3) THEN ${HEADER_SQL} || substr(body, 2)
  WHEN substr(body, 1, 1) = char(4) THEN ${HEADER_SQL} || ${unpackSql("substr(body, 2)")}
  ELSE body END`;

const PACKED_CHUNK = 4096;
/** The packed rows the chunked JS pass reads: a text body and an integer seq, so seq orders them
 *  and the header built from the row is JSON (a text seq is not). A crafted file's other packed
 *  rows are checked one by one with the suspects. */
const PACKED_ROW = "substr(body, 1, 1) = char(4) AND typeof(body) = 'text' AND typeof(seq) = 'integer'";
const SUSPECT = `(substr(body, 1, 1) IS NOT char(4) AND (typeof(body) != 'text' OR NOT json_valid(${EVENT_JSON_SQL}))
  OR substr(body, 1, 1) = char(4) AND NOT (typeof(body) = 'text' AND typeof(seq) = 'integer'))`;

/** The events of one run (any type of id: a crafted file's too) after its mark, if it has one. */
interface Range {
  run: unknown;
  after: number | null;
}

/**
 * Checks every event not yet marked, in one read snapshot the caller holds. SQLite's json_valid
 * refuses JSON nested deeper than 1,000 levels, which a vouch from before the depth bound (ADR
 * 0019) stored and readers cut (stored-json.ts): what it refuses is parsed here too, and only what
 * JSON.parse refuses is damage. A long value kept as a reference (ADR 0077) is parsed as a
 * placeholder, never expanded; each blob named is checked once: linear in what is new.
 */
export function checkEvents(db: Database): EventCheck {
  const q = queries(db);
  const marks: [string, number][] = [];
  try {
    for (const range of ranges(q)) {
      const last = q.lastSeq.get(range.run as string) as { m: unknown } | null;
      // A mark is the last seq a check read: one above what the run holds was left by no check
      // (a crafted one, ahead of events not yet written) and hides nothing: the run is read whole.
      const after = range.after !== null && typeof last?.m === "number" && last.m < range.after ? null : range.after;
      // Nothing after the mark: the run's events were all read by an earlier open.
      if (after !== null && typeof last?.m === "number" && last.m === after) continue;
      const bad = firstBad(q, { run: range.run, after });
      if (bad !== null) return { bad, marks: [] };
      if (typeof range.run === "string" && typeof last?.m === "number" && Number.isSafeInteger(last.m)) marks.push([range.run, last.m]);
    }
    return { bad: null, marks };
  } finally {
    for (const s of [q.firstRun, q.nextRun, q.nullRuns, q.mark, q.lastSeq, ...q.suspects, ...q.packed, q.packedAfter, q.blob])
      s?.finalize();
  }
}

function queries(db: Database) {
  const hasBlobs = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blobs'").get() !== null;
  const from = (bounded: boolean) => (bounded ? "run_id = ?1 AND seq > ?2" : "run_id IS ?1");
  const prep = (sql: (bounded: boolean) => string) => [db.prepare(sql(false)), db.prepare(sql(true))] as const;
  return {
    // min() over the key's first column is one index seek: the distinct run ids in R seeks.
    firstRun: db.prepare("SELECT min(run_id) AS r FROM events"),
    nextRun: db.prepare("SELECT min(run_id) AS r FROM events WHERE run_id > ?1"),
    nullRuns: db.prepare("SELECT 1 FROM events WHERE run_id IS NULL LIMIT 1"),
    mark: db.prepare("SELECT CAST(value AS INTEGER) AS m FROM meta WHERE key = 'checked:' || ?1"),
    lastSeq: db.prepare("SELECT max(seq) AS m FROM events WHERE run_id IS ?1"),
    suspects: prep((b) => `SELECT run_id, seq, t, type, body FROM events WHERE ${from(b)} AND ${SUSPECT}`),
    packed: prep((b) => `SELECT seq, body FROM events WHERE ${from(b)} AND ${PACKED_ROW} ORDER BY seq LIMIT ${PACKED_CHUNK}`),
    packedAfter: db.prepare(
      `SELECT seq, body FROM events WHERE run_id IS ?1 AND seq > ?2 AND ${PACKED_ROW} ORDER BY seq LIMIT ${PACKED_CHUNK}`,
    ),
    blob: hasBlobs ? db.prepare("SELECT body FROM blobs WHERE digest = ?1") : null,
    checked: new Set<string>(),
  };
}
type Queries = ReturnType<typeof queries>;

function* ranges(q: Queries): Generator<Range> {
  if (q.nullRuns.get() !== null) yield { run: null, after: null };
  for (let run = (q.firstRun.get() as { r: unknown }).r; run !== null; run = (q.nextRun.get(run as string) as { r: unknown }).r) {
    // A text mark that is no number reads as 0 (CAST): it can hide seq 0 of its run, no more.
    const m = typeof run === "string" ? (q.mark.get(run) as { m: unknown } | null)?.m : undefined;
    yield { run, after: typeof m === "number" ? m : null };
  }
}

function firstBad(q: Queries, range: Range): EventCheck["bad"] {
  const bounded = range.after !== null;
  const args = (bounded ? [range.run, range.after] : [range.run]) as [string, number];
  const suspects = q.suspects[bounded ? 1 : 0];
  for (const row of suspects.iterate(...args) as IterableIterator<{
    run_id: string;
    seq: number;
    t: string;
    type: string;
    body: unknown;
  }>) {
    if (typeof row.body !== "string") return row;
    const body = row.body;
    const whole = unlessForeign(() => withHeader(body, { run: row.run_id, t: row.t, seq: row.seq, type: row.type }));
    const names = new Set<string>();
    if (whole === null || !parses(withPlaceholders(whole, names)) || ![...names].every((d) => blobIsSound(q, d))) return row;
  }
  // Read in seq order, 4,096 rows a query as arrays (a row object each cost 65 ms of 40,000
  // events' scan, arrays 23 ms); the chunks bound the memory.
  let rows = q.packed[bounded ? 1 : 0].values(...args) as [number, string][];
  for (;;) {
    for (const [seq, body] of rows) {
      const rest = unlessForeign(() => blobText(body) ?? null);
      const names = new Set<string>();
      // `null`, not the `1` the header starts with: like the string the header ends with, no
      // character can continue it (a rest of `0}` made `{"v":10}`, which parses).
      const text = rest === null ? null : `{"v":null${rest.includes("\u0001") ? withPlaceholders(rest, names) : rest}`;
      if (text === null || !parses(text) || ![...names].every((d) => blobIsSound(q, d))) return { run_id: range.run, seq };
    }
    if (rows.length < PACKED_CHUNK) return null;
    rows = q.packedAfter.values(range.run as string, rows[rows.length - 1]![0]) as [number, string][];
  }
}

function blobIsSound(q: Queries, digest: string): boolean {
  const pending = [digest];
  while (pending.length > 0) {
    const d = pending.pop()!;
    if (q.checked.has(d)) continue;
    q.checked.add(d);
    const stored = (q.blob?.get(d) as { body: unknown } | null)?.body;
    const body = typeof stored === "string" ? unlessForeign(() => blobText(stored) ?? null) : null;
    if (body === null || digestOf(body) !== d) return false;
    const names = new Set<string>();
    if (!parses(withPlaceholders(body, names))) return false;
    pending.push(...names);
  }
  return true;
}

/** Leaves the marks a check returned (a writer's open: a reader has no write access); a mark only
 *  moves forward, so two opens at once cannot move one back. */
export function writeCheckedMarks(db: Database, marks: CheckedMarks): void {
  if (marks.length === 0) return;
  let put: ReturnType<Database["prepare"]> | undefined;
  try {
    // Prepared inside the try: a crafted meta without its key (no conflict target) refuses the
    // statement itself, and an open that wrote no mark before this change must not fail on one.
    put = db.prepare(
      `INSERT INTO meta (key, value) VALUES ('checked:' || ?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value
       WHERE CAST(excluded.value AS INTEGER) > coalesce(CAST(meta.value AS INTEGER), -1)`,
    );
    const upsert = put;
    // No wait for the write lock: before ADR 0088 an up-to-date open took none (migrate), and a
    // reader's open (show, runs) waited the whole busy timeout (5 s) behind another process's
    // write transaction for marks that only save work. Busy now: no marks, the next open checks.
    db.run("PRAGMA busy_timeout = 0");
    db.transaction(() => {
      for (const [run, seq] of marks) upsert.run(run, String(seq));
    })();
  } catch {
    // The marks only save the next open work: a ledger busy past the wait (a writer's long
    // transaction) or a failed write leaves them as they were, and that open checks more.
  } finally {
    db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    put?.finalize();
  }
}

/** What `read` gives, or null when the packed text it reads holds a token vouch never wrote or
 *  unpacks past the bound (ADR 0082): a blob's text, a body with its header back. */
function unlessForeign<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (e instanceof PackedTextError) return null;
    throw e;
  }
}

function parses(text: string): boolean {
  integrityCounters.parsed++;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
