// A damaged ledger is said to be damaged (ADR 0048): SQLite's "database disk
// image is malformed" (SQLITE_CORRUPT), a file that is no database
// (SQLITE_NOTADB), and a stored value vouch wrote that no longer parses all
// become one LedgerCorruptError naming the file and what to do, and a ledger
// found damaged is never written again by this process. On open, SQLite's own
// quick check looks at every page of a ledger small enough for it to be cheap,
// and SQLite's json_valid at every stored event.
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { LedgerError } from "../engine/errors.ts";
import { digestOf, withHeader, withPlaceholders } from "./stored-text.ts";
import { blobText, PackedTextError, unpackSql } from "./event-fragments.ts";

/** Ledgers up to this size get PRAGMA quick_check on every open (measured: ~20 ms at 22 MiB,
 *  ~45 ms at 67 MiB, ~245 ms at 269 MiB, warm cache; docs/ledger.md). */
export const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/** The ledger file is damaged: nothing more is read from it or written to it (exit 3). */
export class LedgerCorruptError extends LedgerError {
  readonly corrupt = true;
}

/** A value vouch stored that does not read back: the file was changed under it. */
export class StoredValueError extends Error {
  override readonly name = "StoredValueError";
}

export function corruptLedger(file: string, what: string): LedgerCorruptError {
  return new LedgerCorruptError(
    `the ledger ${file} is damaged (${what}): vouch will not read more of it or write to it`,
    `keep a copy, then move it away (vouch starts a new ledger there) or set VOUCH_HOME to another folder; ` +
      `sqlite3 can often save the rest: sqlite3 ${file} .recover | sqlite3 recovered.sqlite`,
  );
}

/** True for the errors SQLite raises on a damaged file, whatever the call that met them. */
export function isCorruption(e: unknown): boolean {
  if (e instanceof StoredValueError) return true;
  const code = (e as { code?: string })?.code ?? "";
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") return true;
  return /malformed|file is not a database/i.test((e as Error)?.message ?? "");
}

/** SQLite's quick check (every page and index entry, not the cross-checks of integrity_check)
 *  when the file is small enough for it to be cheap; throws LedgerCorruptError on a problem. */
export function quickCheck(db: Database, file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return; // an immutable or vanished file: what reads it next will say
  }
  if (size > QUICK_CHECK_MAX_BYTES) return;
  const rows = db.query("PRAGMA quick_check(3)").all() as { quick_check: string }[];
  const found = rows.map((r) => r.quick_check).filter((r) => r !== "ok");
  if (found.length > 0) throw corruptLedger(file, `SQLite's quick check: ${oneLineOf(found.join("; "))}`);
  // The pages can be sound and a value in them not: every event vouch stored is JSON it wrote.
  if (db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() === null) return; // a new ledger
  const bad = firstUnparsedEvent(db);
  if (bad !== null) throw corruptLedger(file, `event ${bad.seq} of run ${bad.run_id} is not the JSON vouch wrote`);
}

/** A stored body as SQL can see it: an event stored without its header (schema version 6,
 *  stored-text.ts) gets it back from its columns, so json_valid judges the whole event. */
const HEADER_SQL = `'{"v":1,"run":' || json_quote(run_id) || ',"t":' || json_quote(t) || ',"seq":' || seq || ',"type":' || json_quote(type)`;
export const EVENT_JSON_SQL = `CASE WHEN substr(body, 1, 1) = char(3) THEN ${HEADER_SQL} || substr(body, 2)
  WHEN substr(body, 1, 1) = char(4) THEN ${HEADER_SQL} || ${unpackSql("substr(body, 2)")}
  ELSE body END`;

const PACKED_CHUNK = 4096;
/** The packed rows the chunked JS pass reads: keys of one type each, so (run_id, seq) orders them
 *  totally (a NULL key ends the keyset walk) and the header built from them is JSON (a text seq
 *  is not). A crafted file's other packed rows are checked one by one with the suspects. */
const PACKED_KEYS = "typeof(body) = 'text' AND typeof(run_id) = 'text' AND typeof(seq) = 'integer'";

/** The first event whose body is no JSON. SQLite's json_valid refuses JSON nested deeper than
 *  1,000 levels, which a vouch from before the depth bound (ADR 0019) stored and readers cut
 *  (stored-json.ts): what it refuses is parsed here too, and only what JSON.parse refuses is damage.
 *  An event with a long value kept as a reference (ADR 0077) is parsed with each reference as a
 *  placeholder, never expanded (a long value recurring in many events would cost its expanded
 *  size, not the file's); the blobs it names must then exist, hash to their names and be JSON
 *  in the same way, each checked once: linear in the file. */
function firstUnparsedEvent(db: Database): { run_id: string; seq: number } | null {
  // Packed bodies (schema 7, ADR 0082) are checked in JS below: unpacking them in SQL (a nested
  // replace per token) cost 611 ms for 40,000 events, unpacking and parsing in JS 78 ms.
  const suspects = db.prepare(
    `SELECT run_id, seq, t, type, body FROM events
     WHERE substr(body, 1, 1) IS NOT char(4) AND (typeof(body) != 'text' OR NOT json_valid(${EVENT_JSON_SQL}))
        OR substr(body, 1, 1) = char(4) AND NOT (${PACKED_KEYS})`,
  );
  // Read in key order, 4,096 rows a query as arrays: a row object each (iterate) cost 65 ms of the
  // 40,000 events' scan, arrays 23 ms; the chunks bound the memory.
  const packedSql = (from: string) =>
    `SELECT run_id, seq, body FROM events WHERE substr(body, 1, 1) = char(4) AND ${PACKED_KEYS}${from}
     ORDER BY run_id, seq LIMIT ${PACKED_CHUNK}`;
  // The first chunk has no lower bound: a key of any type (a crafted file's) sorts into it.
  const packedFirst = db.prepare(packedSql(""));
  const packed = db.prepare(packedSql(" AND (run_id, seq) > (?, ?)"));
  const hasBlobs = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blobs'").get() !== null;
  const blob = hasBlobs ? db.query("SELECT body FROM blobs WHERE digest = ?") : null;
  const checked = new Set<string>();
  const blobIsSound = (digest: string): boolean => {
    const pending = [digest];
    while (pending.length > 0) {
      const d = pending.pop()!;
      if (checked.has(d)) continue;
      checked.add(d);
      const stored = (blob?.get(d) as { body: unknown } | null)?.body;
      const body = typeof stored === "string" ? unlessForeign(() => blobText(stored) ?? null) : null;
      if (body === null || digestOf(body) !== d) return false;
      const names = new Set<string>();
      if (!parses(withPlaceholders(body, names))) return false;
      pending.push(...names);
    }
    return true;
  };
  try {
    for (const row of suspects.iterate() as IterableIterator<{ run_id: string; seq: number; t: string; type: string; body: unknown }>) {
      if (typeof row.body !== "string") return row;
      const names = new Set<string>();
      const body = row.body;
      const whole = unlessForeign(() => withHeader(body, { run: row.run_id, t: row.t, seq: row.seq, type: row.type }));
      if (whole === null) return row;
      const text = withPlaceholders(whole, names);
      if (!parses(text) || ![...names].every(blobIsSound)) return row;
    }
    for (let after: [string, number] | null = null; ; ) {
      const rows = (after === null ? packedFirst.values() : packed.values(...after)) as [string, number, string][];
      for (const [run_id, seq, body] of rows) {
        const rest = unlessForeign(() => blobText(body) ?? null);
        // The header is JSON built from the row's columns (blob-store.ts): its place holds one member.
        const names = new Set<string>();
        // `null`, not the `1` the header starts with: like the string the header ends with, no
        // character can continue it (a rest of `0}` made `{"v":10}`, which parses; the reader's
        // `"type":"x"0}` does not).
        const text = rest === null ? null : `{"v":null${rest.includes("\u0001") ? withPlaceholders(rest, names) : rest}`;
        if (text === null || !parses(text) || ![...names].every(blobIsSound)) return { run_id, seq };
      }
      if (rows.length < PACKED_CHUNK) return null;
      const last = rows[rows.length - 1]!;
      after = [last[0], last[1]];
    }
  } finally {
    suspects.finalize();
    packedFirst.finalize();
    packed.finalize();
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
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function oneLineOf(text: string): string {
  return text.replace(/\s*\n\s*/g, "; ").slice(0, 300);
}
