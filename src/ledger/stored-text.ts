// How the ledger keeps JSON text small (schema version 6, ADR 0077), as pure functions: a
// value whose JSON text is long is stored once, in `blobs` under the SHA-256 of its text, and
// the text that held it keeps a reference (a hole) in its place; an event's header (v, run, t,
// seq, type: the row's own columns) is not stored a second time in its body.
//
// Both marks are control characters, which JSON.stringify never writes raw (it escapes them
// inside strings, and puts none outside), so a stored text with neither is the JSON itself — as
// every row of a ledger from before version 6 is — and no JSON text can be mistaken for a mark.
// Expanding is splicing: a hole gives back the exact characters it replaced, so what a reader
// gets is byte for byte what was written (the NDJSON contract, docs/events.md).
import { createHash } from "node:crypto";
import { MAX_UNPACKED, PACKED, pack, packFrom, unpack } from "./event-fragments.ts";

/** A value's JSON text shorter than this stays inline: a hole (66 characters) and a blobs row
 *  (~80 bytes with its key) would cost more than they save (measured in ADR 0077). */
export const INLINE_MAX = 1024;

const HOLE = "\u0001";
const END = "\u0002";
/** First character of an event body stored without its header. */
export const HEADERLESS = "\u0003";
const HOLE_RE = /\u0001([0-9a-f]{64})(?::(\d+):(\d+))?\u0002/g;

/** Hashed this many characters at a time: the UTF-8 copy a hash update makes of a string is a
 *  slice's, not the whole body's (a 100,000-item map's results are ~9 MB, ADR 0084). */
const DIGEST_CHUNK = 64 * 1024;

export function digestOf(body: string): string {
  const hash = createHash("sha256");
  for (let at = 0; at < body.length; ) {
    let end = Math.min(at + DIGEST_CHUNK, body.length);
    // Never between the two halves of a surrogate pair: each would hash as U+FFFD. A high
    // surrogate last goes to the next slice, with whatever follows it (stepping forward instead
    // split "\ud800\ud800\udc00" between its second and third character).
    const c = body.charCodeAt(end - 1);
    if (end < body.length && c >= 0xd800 && c <= 0xdbff) end--;
    hash.update(body.slice(at, end));
    at = end;
  }
  return hash.digest("hex");
}

/** Where compact puts a blob: stores `body` under `digest` (once: same digest, same body). */
export type PutBlob = (digest: string, body: string) => void;
/** The blob stored under `digest`, or undefined when the ledger has none (damage). */
export type GetBlob = (digest: string) => string | undefined;

/** The strings stored as blobs during one write: a later string inside one of them (a result
 *  tail inside the output it ends) becomes a slice of it instead of a copy. */
export type Leaves = { digest: string; body: string }[];

/** The JSON text of objects one write has stringified already: an event's output is the event's
 *  child, its node's row's column, its map's result (a 10,000-item map's is megabytes), and is
 *  stringified once (ADR 0077). Per write: an object is not changed while it is written. */
export type Texts = WeakMap<object, string>;

/** `value`'s JSON text, from `texts` when this write made it already. */
export function textOf(value: unknown, texts?: Texts): string | undefined {
  if (texts === undefined || value === null || typeof value !== "object") return JSON.stringify(value) as string | undefined;
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value) as string;
    texts.set(value, text);
  }
  return text;
}

/** How many levels below a text its long values are taken out: deeper ones stay inside their
 *  ancestor's blob (still once). Bounds the work on hostile deep values to this many passes. */
export const MAX_LEVELS = 16;
/** A long string is looked for in this many of the strings stored just before it (a tail right
 *  after its output), so 10,000 long outputs in a map's results are not searched 10,000 times. */
const RECENT_LEAVES = 4;

function children(value: unknown): unknown[] {
  if (value === null || typeof value !== "object") return [];
  return Array.isArray(value) ? value : Object.values(value as Record<string, unknown>);
}

/** `text` (the JSON of `value`, or text that holds it) with each long value inside it replaced
 *  by a hole; the blobs go to `put`. One pass: JSON.stringify writes a value's children in
 *  order, so each is looked for after the last one found. What is not found (text that is not
 *  exactly JSON.stringify's) stays as it is: a hole only ever stands for the characters it
 *  replaced, so whatever is replaced, expanding gives the text back. */
export function compact(text: string, value: unknown, put: PutBlob, leaves: Leaves = [], level = 0, texts?: Texts): string {
  if (text.length < INLINE_MAX || level >= MAX_LEVELS) return text;
  if (texts && value !== null && typeof value === "object" && notes.get(texts)?.short.has(value)) return text;
  let out = "";
  let cursor = 0;
  for (const child of children(value)) {
    if (child === null || (typeof child !== "object" && typeof child !== "string")) continue;
    const childText = textOf(child, texts);
    if (childText === undefined || childText.length < INLINE_MAX) continue;
    const at = text.indexOf(childText, cursor);
    if (at < 0) continue;
    out += text.slice(cursor, at) + holeFor(child, childText, put, leaves, level, texts);
    cursor = at + childText.length;
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

/** The hole that stands for one long value: a slice of a string just stored that holds it, or
 *  its own blob (whose long values are holes in turn). */
function holeFor(child: unknown, childText: string, put: PutBlob, leaves: Leaves, level: number, texts?: Texts): string {
  if (typeof child === "string") {
    const inner = childText.slice(1, -1);
    for (const leaf of leaves.slice(-RECENT_LEAVES)) {
      const at = leaf.body.indexOf(inner);
      if (at >= 0) return `"${HOLE}${leaf.digest}:${at}:${inner.length}${END}"`;
    }
  }
  // The same object again in one write (a node's output is its event's member and its row's
  // column): its hole is known, and its blob stored (ADR 0084: not hashed and bound twice).
  const known = typeof child === "object" && child !== null && texts ? holesOf(texts).get(child) : undefined;
  if (known !== undefined) return known;
  const body = compact(childText, child, put, leaves, level + 1, texts);
  const digest = digestOf(body);
  put(digest, body);
  if (typeof child === "string") leaves.push({ digest, body });
  const hole = `${HOLE}${digest}${END}`;
  if (typeof child === "object" && child !== null && texts) holesOf(texts).set(child, hole);
  return hole;
}

/** What one write learnt besides texts, kept as long as its `texts` (one per write) is: the holes
 *  it made, and the values whose every member's text is short (seedTexts saw their lengths). */
interface WriteNotes {
  holes: WeakMap<object, string>;
  short: WeakSet<object>;
}
const notes = new WeakMap<Texts, WriteNotes>();
function notesOf(texts: Texts): WriteNotes {
  let n = notes.get(texts);
  if (n === undefined) {
    n = { holes: new WeakMap(), short: new WeakSet() };
    notes.set(texts, n);
  }
  return n;
}
const holesOf = (texts: Texts): WeakMap<object, string> => notesOf(texts).holes;

/** `value`'s members all print shorter than INLINE_MAX: compact need not stringify each (a
 *  100,000-item map's results were 100,000 small texts held for the write, ADR 0084). */
export function markShortMembers(texts: Texts, value: object): void {
  notesOf(texts).short.add(value);
}

/** The most characters one stored text may expand to. A long value is stored once however often
 *  it recurs (1,600 branches printing one 55 KB text expand to 88 MB from a 4.5 MB file), so this
 *  is no bound on a sound file's size; it stops a crafted one whose slices of slices multiply. */
export const MAX_EXPANDED = MAX_UNPACKED; // one bound for both ways a text grows back

/** The text `stored` was made from: every hole filled from its blob, recursively — each blob
 *  expanded once per call, none inside itself, no deeper than compact nests them, the result
 *  bounded (MAX_EXPANDED). A file that breaks any of these was not written by vouch. */
export function expand(stored: string, get: GetBlob): string {
  if (!stored.includes(HOLE)) return stored;
  const done = new Map<string, string>();
  // Sized first, from lengths alone: a crafted file whose slices of slices multiply is refused
  // before any of its text is built.
  expandedLength(stored, get, new Map(), new Set());
  return expandIn(stored, get, done, new Set());
}

/** How long `stored` expands to, without building it (each blob sized once). */
function expandedLength(stored: string, get: GetBlob, sized: Map<string, number>, open: Set<string>): number {
  let total = stored.length;
  for (const m of stored.matchAll(HOLE_RE)) {
    const [hole, digest, , len] = m as unknown as [string, string, string | undefined, string | undefined];
    let whole = sized.get(digest!);
    if (whole === undefined) {
      if (open.has(digest!)) throw new DamagedBlobError(digest!, "holds a reference to itself");
      if (open.size > MAX_LEVELS) throw new DamagedBlobError(digest!, `is nested deeper than ${MAX_LEVELS} levels`);
      const body = get(digest!);
      if (body === undefined) throw new MissingBlobError(digest!);
      open.add(digest!);
      whole = body.includes(HOLE) ? expandedLength(body, get, sized, open) : body.length;
      open.delete(digest!);
      sized.set(digest!, whole);
    }
    total += (len === undefined ? whole : Math.min(Number(len), whole)) - hole.length;
    if (total > MAX_EXPANDED) throw new DamagedBlobError(digest!, `expands past ${MAX_EXPANDED} characters`);
  }
  return total;
}

function expandIn(stored: string, get: GetBlob, done: Map<string, string>, open: Set<string>): string {
  let total = 0;
  return stored.replace(HOLE_RE, (_m, digest: string, at?: string, len?: string) => {
    let whole = done.get(digest);
    if (whole === undefined) {
      if (open.has(digest)) throw new DamagedBlobError(digest, "holds a reference to itself");
      if (open.size > MAX_LEVELS) throw new DamagedBlobError(digest, `is nested deeper than ${MAX_LEVELS} levels`);
      const body = get(digest);
      if (body === undefined) throw new MissingBlobError(digest);
      open.add(digest);
      whole = body.includes(HOLE) ? expandIn(body, get, done, open) : body;
      open.delete(digest);
      done.set(digest, whole);
    }
    const piece = at === undefined ? whole : whole.slice(Number(at), Number(at) + Number(len));
    total += piece.length;
    if (total > MAX_EXPANDED) throw new DamagedBlobError(digest, `expands past ${MAX_EXPANDED} characters`);
    return piece;
  });
}

/** `stored` with each hole replaced by the JSON value 0 (a slice's, inside its quotes, by the
 *  text 0), and the digests it names added to `names`: the shape of the text without reading
 *  any blob — what the open-time check parses, linear in the stored size. */
export function withPlaceholders(stored: string, names?: Set<string>): string {
  if (!stored.includes(HOLE)) return stored;
  return stored.replace(HOLE_RE, (_m, digest: string) => {
    names?.add(digest);
    return "0";
  });
}

/** A stored value cannot be given back: the file was changed under vouch. */
export class StoredTextError extends Error {
  override readonly name: string = "StoredTextError";
  constructor(
    readonly digest: string,
    message: string,
  ) {
    super(message);
  }
}

/** A hole names a blob the ledger does not have. */
export class MissingBlobError extends StoredTextError {
  override readonly name = "MissingBlobError";
  constructor(digest: string) {
    super(digest, `a stored value refers to blob ${digest.slice(0, 12)}…, which the ledger does not hold`);
  }
}

/** A blob that is not one vouch wrote (its text does not hash to its name, it nests itself, it
 *  expands past the bound). */
export class DamagedBlobError extends StoredTextError {
  override readonly name = "DamagedBlobError";
  constructor(digest: string, what: string) {
    super(digest, `stored blob ${digest.slice(0, 12)}… ${what}`);
  }
}

/** A GetBlob that gives a blob's text only when it hashes to its name; each digest is hashed once
 *  (`verified` keeps at most `keep` of them). */
export function verifiedGetter(read: (digest: string) => string | undefined, keep = 4096): GetBlob {
  const verified = new Set<string>();
  return (digest) => {
    const body = read(digest);
    if (body === undefined || verified.has(digest)) return body;
    if (digestOf(body) !== digest) throw new DamagedBlobError(digest, "does not hold the text whose digest names it");
    if (verified.size >= keep) verified.clear();
    verified.add(digest);
    return body;
  };
}

export interface EventHeader {
  run: string;
  t: string;
  seq: number;
  type: string;
}

/** The first five fields as the emitter writes them (engine/run/emitter.ts: v, run, t, seq, type). */
export function headerOf(h: EventHeader): string {
  return `{"v":1,"run":${JSON.stringify(h.run)},"t":${JSON.stringify(h.t)},"seq":${h.seq},"type":${JSON.stringify(h.type)}`;
}

/** An event's text without its header, when it starts with exactly that header; else the text. */
export function withoutHeader(text: string, h: EventHeader): string {
  // Only a header of the emitter's types is rebuilt from columns as it was written.
  if (typeof h.run !== "string" || typeof h.t !== "string" || typeof h.type !== "string" || !Number.isSafeInteger(h.seq)) return text;
  const head = headerOf(h);
  if (!text.startsWith(head)) return text;
  const next = text[head.length];
  return next === "," || next === "}" ? HEADERLESS + text.slice(head.length) : text;
}

/** The JSON texts of the header's strings kept across events: a run's events share their run id,
 *  a burst its time, and there are a few dozen types (ADR 0092: three JSON texts an event). */
const headerTexts = new Map<string, string>();
const HEADER_TEXTS_KEPT = 256;
function headerText(value: string): string {
  let text = headerTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (headerTexts.size >= HEADER_TEXTS_KEPT) headerTexts.clear();
    headerTexts.set(value, text);
  }
  return text;
}

/** Where the body after headerOf(h) starts in `text`, or -1 when withoutHeader would keep the text
 *  whole: the same test, piece by piece, with no header text built. */
function headerEnd(text: string, h: EventHeader): number {
  if (typeof h.run !== "string" || typeof h.t !== "string" || typeof h.type !== "string" || !Number.isSafeInteger(h.seq)) return -1;
  let at = after(text, 0, '{"v":1,"run":');
  at = after(text, at, headerText(h.run));
  at = after(text, at, ',"t":');
  at = after(text, at, headerText(h.t));
  at = after(text, at, ',"seq":');
  at = after(text, at, String(h.seq));
  at = after(text, at, ',"type":');
  at = after(text, at, headerText(h.type));
  const next = at < 0 ? undefined : text[at];
  return next === "," || next === "}" ? at : -1;
}

/** Where `piece` ends when `text` has it at `at` (-1: it has not, or an earlier piece failed). */
function after(text: string, at: number, piece: string): number {
  return at >= 0 && text.startsWith(piece, at) ? at + piece.length : -1;
}

/** packed(withoutHeader(text, h)) of an event's text in which compact left nothing to replace (a
 *  short one), without the header's text or the headerless copy made (ADR 0092). */
export function packedWithoutHeader(text: string, h: EventHeader): string {
  const at = headerEnd(text, h);
  if (at < 0) return text;
  const tokens = packFrom(text, at);
  return tokens === null ? HEADERLESS + text.slice(at) : PACKED + tokens;
}

/** A headerless body (after compact: its holes stay as they are) packed with event-fragments.ts's
 *  tokens (schema version 7, ADR 0082); any other text, or one packing cannot hold, as it is. */
export function packed(stored: string): string {
  if (!stored.startsWith(HEADERLESS)) return stored;
  const tokens = pack(stored.slice(1));
  return tokens === null ? stored : PACKED + tokens;
}

/** The event's text from its stored body and its row's columns (PackedTextError: a packed
 *  body holds a token vouch never wrote, or unpacks past the bound). */
export function withHeader(stored: string, h: EventHeader): string {
  if (stored.startsWith(HEADERLESS)) return headerOf(h) + stored.slice(1);
  return stored.startsWith(PACKED) ? headerOf(h) + unpack(stored.slice(1)) : stored;
}
