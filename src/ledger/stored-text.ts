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

/** A value's JSON text shorter than this stays inline: a hole (68 characters) and a blobs row
 *  (~100 bytes with its key) would cost more than they save (measured in ADR 0077). */
export const INLINE_MAX = 1024;

const HOLE = "\u0001";
const END = "\u0002";
/** First character of an event body stored without its header. */
export const HEADERLESS = "\u0003";
const HOLE_RE = /\u0001([0-9a-f]{64})(?::(\d+):(\d+))?\u0002/g;

export function digestOf(body: string): string {
  return createHash("sha256").update(body).digest("hex");
}

/** Where compact puts a blob: stores `body` under `digest` (once: same digest, same body). */
export type PutBlob = (digest: string, body: string) => void;
/** The blob stored under `digest`, or undefined when the ledger has none (damage). */
export type GetBlob = (digest: string) => string | undefined;

/** The strings stored as blobs during one write: a later string inside one of them (a result
 *  tail inside the output it ends) becomes a slice of it instead of a copy. */
export type Leaves = { digest: string; body: string }[];

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
export function compact(text: string, value: unknown, put: PutBlob, leaves: Leaves = [], level = 0): string {
  if (text.length < INLINE_MAX || level >= MAX_LEVELS) return text;
  let out = "";
  let cursor = 0;
  for (const child of children(value)) {
    if (child === null || (typeof child !== "object" && typeof child !== "string")) continue;
    const childText = JSON.stringify(child) as string | undefined;
    if (childText === undefined || childText.length < INLINE_MAX) continue;
    const at = text.indexOf(childText, cursor);
    if (at < 0) continue;
    out += text.slice(cursor, at) + holeFor(child, childText, put, leaves, level);
    cursor = at + childText.length;
  }
  return cursor === 0 ? text : out + text.slice(cursor);
}

/** The hole that stands for one long value: a slice of a string just stored that holds it, or
 *  its own blob (whose long values are holes in turn). */
function holeFor(child: unknown, childText: string, put: PutBlob, leaves: Leaves, level: number): string {
  if (typeof child === "string") {
    const inner = childText.slice(1, -1);
    for (const leaf of leaves.slice(-RECENT_LEAVES)) {
      const at = leaf.body.indexOf(inner);
      if (at >= 0) return `"${HOLE}${leaf.digest}:${at}:${inner.length}${END}"`;
    }
  }
  const body = compact(childText, child, put, leaves, level + 1);
  const digest = digestOf(body);
  put(digest, body);
  if (typeof child === "string") leaves.push({ digest, body });
  return `${HOLE}${digest}${END}`;
}

/** The text `stored` was made from: every hole filled from its blob, recursively. */
export function expand(stored: string, get: GetBlob): string {
  if (!stored.includes(HOLE)) return stored;
  return stored.replace(HOLE_RE, (_m, digest: string, at?: string, len?: string) => {
    const body = get(digest);
    if (body === undefined) throw new MissingBlobError(digest);
    const whole = expand(body, get);
    return at === undefined ? whole : whole.slice(Number(at), Number(at) + Number(len));
  });
}

/** A hole names a blob the ledger does not have: the file was changed under vouch. */
export class MissingBlobError extends Error {
  override readonly name = "MissingBlobError";
  constructor(readonly digest: string) {
    super(`a stored value refers to blob ${digest.slice(0, 12)}…, which the ledger does not hold`);
  }
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
  const head = headerOf(h);
  if (!text.startsWith(head)) return text;
  const next = text[head.length];
  return next === "," || next === "}" ? HEADERLESS + text.slice(head.length) : text;
}

/** The event's text from its stored body and its row's columns. */
export function withHeader(stored: string, h: EventHeader): string {
  return stored.startsWith(HEADERLESS) ? headerOf(h) + stored.slice(1) : stored;
}
