// The ledger's side of stored-text.ts (schema version 6, ADR 0077): the `blobs` table, each long
// value once under the SHA-256 of its text, and the readers' way back from a stored text to the
// text that was written. Since version 7 (ADR 0082) event bodies and blobs are written packed
// (event-fragments.ts); readers unpack whatever starts with its mark, whichever vouch wrote it.
import type { Database, Statement } from "bun:sqlite";
import { StoredValueError } from "./integrity.ts";
import { blobText, packText, PackedTextError } from "./event-fragments.ts";
import {
  compact,
  expand,
  INLINE_MAX,
  MAX_LEVELS,
  packed,
  packedWithoutHeader,
  StoredTextError,
  verifiedGetter,
  withHeader,
  withoutHeader,
  type EventHeader,
  type GetBlob,
  type Leaves,
  type Texts,
} from "./stored-text.ts";
import { seedTexts } from "./json-spans.ts";

/** What a reader needs of an event's row to give back its text. */
export interface StoredEventRow {
  run_id: string;
  seq: number;
  t: string;
  type: string;
  body: string;
}

export class BlobStore {
  private readonly insert: Statement | null;
  private readonly select: Statement | null;
  private readonly get: GetBlob;
  /** Event bodies are packed with event-fragments.ts (schema version 7, ADR 0082). */
  private readonly packs: boolean;

  /** False on a ledger older than version 6 (no blobs table): values are stored whole. */
  get stores(): boolean {
    return this.insert !== null;
  }

  constructor(db: Database) {
    const has = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'blobs'").get() !== null;
    // A ledger older than version 6 opened read-only has no blobs, and needs none: its texts have no holes.
    this.insert = has ? db.query("INSERT OR IGNORE INTO blobs (digest, body) VALUES (?, ?)") : null;
    this.select = has ? db.query("SELECT body FROM blobs WHERE digest = ?") : null;
    const version = has ? (db.query("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | null) : null;
    this.packs = Number(version?.value) >= 7;
    this.get = verifiedGetter((digest) => blobText((this.select?.get(digest) as { body: string } | null)?.body));
  }

  /** A value's JSON text as a column stores it: the value itself, or long values inside it, as holes. */
  store(text: string | null, value: unknown, leaves: Leaves = [], texts?: Texts): string | null {
    if (text === null || this.insert === null) return text;
    return compact(text, [value], this.put, leaves, 0, texts);
  }

  /** An event's body as it is stored: no header, its long values as holes (never the whole event). */
  storeEvent(text: string, event: EventHeader, leaves: Leaves, texts?: Texts): string {
    if (this.insert === null) return text;
    // Shorter than INLINE_MAX, no value inside is long: compact would give the text back as it is.
    if (this.packs && text.length < INLINE_MAX) return packedWithoutHeader(text, event);
    // The long values' texts as slices of the event's (json-spans.ts), and the header taken off
    // the compacted text, not the whole one: no copy of a long event's text is made (ADR 0084).
    // The header's fields are short, so no hole lies in it: the same holes either way.
    if (texts && text.length >= INLINE_MAX) seedTexts(text, event, texts, INLINE_MAX, MAX_LEVELS + 1);
    const stored = withoutHeader(compact(text, event, this.put, leaves, 0, texts), event);
    return this.packs ? packed(stored) : stored;
  }

  // Named by the digest of its text; stored packed (version 7) when packing can hold it.
  private readonly put = (digest: string, body: string): void => {
    this.insert?.run(digest, this.packs ? (packText(body) ?? body) : body);
  };

  /** The text a stored value was made from; a hole with no blob is a damaged file. */
  text(stored: string): string;
  text(stored: string | null): string | null;
  text(stored: string | null): string | null {
    if (stored === null) return null;
    return damagedAs(() => expand(stored, this.get));
  }

  /** The event's text, as it was written (and as `--json` printed it). */
  eventText(row: StoredEventRow): string {
    return this.text(damagedAs(() => withHeader(row.body, { run: row.run_id, t: row.t, seq: row.seq, type: row.type })));
  }
}

/** What a file vouch did not write gives: the ledger's damaged-value error (ADR 0048). */
function damagedAs<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof StoredTextError || e instanceof PackedTextError) throw new StoredValueError(e.message);
    throw e;
  }
}
