// The fixed fragments an event body is written with (schema version 7, ADR 0082), as pure
// functions. Most of a stored event is the same few dozen pieces of JSON — its keys, and the
// values every `true` map item repeats (`"status":"passed"`, the exit-only evidence, the
// unsealed reason) — so a body stored without its header (stored-text.ts) keeps each such
// fragment as one control character (or two), and a reader puts the fragment back.
//
// Reversible by construction: JSON.stringify never writes a raw control character (inside
// strings it escapes them, outside it writes none), so a text holding none of U+0004–U+001F is
// packed, and in a packed text every such character is a token; expanding gives the exact
// characters replaced (the NDJSON contract, docs/events.md). A text that holds one (no JSON
// vouch writes) is stored unpacked. Each fragment holds a `"`, so none matches inside a
// reference's digest (stored-text.ts: hex, digits and `:` between U+0001 and U+0002).
//
// THE LIST IS PART OF THE FILE FORMAT: a ledger written with it is read with it. Append to the
// extended list only (a new token may not change what an old one means); never reorder.

import { PIECE_CHARS, replaceInPieces } from "./long-replace.ts";

/** First character of a body stored without its header and packed with these fragments. */
export const PACKED = "\u0004";
/** Before one character of EXTENDED_KEYS: a fragment of the extended list. */
const EXTENDED = "\u0004";

/** One control character each (U+0005 … U+001F): what every `true` map item repeats. */
const SINGLE: readonly string[] = [
  ',"evidence":[{"part":"exit_zero","outcome":"passed"},{"part":"output","outcome":"not_applicable"},{"part":"result_matches","outcome":"not_applicable"},{"part":"checks","outcome":"not_applicable"}]',
  ',"unsealed_reason":"a script without a workspace runs unconfined in the shared folder"',
  ',"branch":{"map":"',
  '","index":',
  ',"node":"',
  ',"kind":"script"',
  ',"attempt":1',
  ',"status":"passed"',
  ',"qualifier":"exit-only"',
  ',"stop_reason":null',
  ',"cause":null',
  ',"cost_usd":0',
  ',"turns":null',
  ',"wall_ms":',
  ',"tokens":null',
  ',"output":""',
  ',"result_tail":""',
  ',"sealed":false',
  ',"cwd":"',
  ',"item":',
  ',"label":',
  ',"verdict":null',
  ',"kind":"',
  ',"status":"',
  ',"attempt":',
  ',"sealed":true',
  ',"output":',
];

/** The characters after U+0004 that name the extended fragments, in order. */
const EXTENDED_KEYS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** U+0004 and one character: keys and values of the other events (agents, checks, retries). */
const EXTENDED_LIST: readonly string[] = [
  ',"qualifier":"',
  ',"stop_reason":"',
  ',"cause":"',
  ',"cost_usd":',
  ',"turns":',
  ',"tokens":{"input":',
  ',"cache_read":',
  ',"cache_creation":',
  ',"result_tail":"',
  ',"verdict":',
  ',"error":null',
  ',"error":"',
  ',"session_id":"',
  ',"session_cost_usd":',
  ',"harness":"',
  ',"model":"',
  ',"claim":',
  ',"retry_of":',
  ',"round":',
  ',"reason":"',
  ',"recovered":',
  ',"fallback":',
  ',"api_retries":',
  ',"name":"',
  ',"passed":true',
  ',"passed":false',
  ',"exit":',
  ',"stdout_tail":"',
  ',"stderr_tail":"',
  ',"command_digest":"',
  ',"tree_id":"',
  ',"timed_out":false',
  ',"unsealed_reason":"',
  ',"workspace":',
  ',"evidence":[',
  '{"part":"',
  '","outcome":"',
  'not_applicable"}',
  'passed"}',
  'failed"}',
  ',"sealed":',
  ',"status":"failed"',
  ',"qualifier":"verified"',
  ',"kind":"agent"',
  ',"status":"error"',
  '{"index":',
];

interface Token {
  token: string;
  fragment: string;
}

const TOKENS: readonly Token[] = [
  ...SINGLE.map((fragment, i) => ({ token: String.fromCharCode(5 + i), fragment })),
  ...EXTENDED_LIST.map((fragment, i) => ({ token: EXTENDED + EXTENDED_KEYS[i]!, fragment })),
];

const BY_TOKEN = new Map(TOKENS.map((t) => [t.token, t.fragment]));
const BY_FRAGMENT = new Map(TOKENS.map((t) => [t.fragment, t.token]));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Longest first: a whole fragment wins over a key it starts with.
const PACK_RE = new RegExp(
  [...BY_FRAGMENT.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|"),
  "g",
);
const TOKEN_RE = /\u0004[\s\S]?|[\u0005-\u001f]/g;
/** The most characters one stored text may unpack or expand to (stored-text.ts's MAX_EXPANDED is
 *  this one bound: a text past it cannot be expanded either, so no sound file is refused). One
 *  token stands for up to 196 characters: a crafted 1.3 MB body made a 268-million-character
 *  text (859 MB peak) at open. */
export const MAX_UNPACKED = 256 * 1024 * 1024;
const LONGEST = Math.max(...TOKENS.map((t) => t.fragment.length));
const CONTROL_RE = /[\u0004-\u001f]/;

/** The fragments and their tokens (tests, and the SQL that expands them). */
export const FRAGMENT_TOKENS: readonly Token[] = TOKENS;

/** Below this length a text is packed by `scan`; a longer one a piece at a time (ADR 0086). */
const SCAN_MAX = PIECE_CHARS;

/** `text` with each fragment as its token; null when `text` holds a character a token uses. */
export function pack(text: string): string | null {
  return packFrom(text, 0);
}

/** pack(text.slice(from)), without the slice: an event's text packed past its header (ADR 0092). */
export function packFrom(text: string, from: number): string | null {
  if (text.length - from < SCAN_MAX) return scan(text, from);
  const rest = from === 0 ? text : text.slice(from);
  if (CONTROL_RE.test(rest)) return null;
  return replaceInPieces(rest, PACK_RE, LONGEST, (f) => BY_FRAGMENT.get(f)!);
}

/** The fragments that can start where a text has these first and third characters (every
 *  fragment is longer than two, all ASCII), longest first, as PACK_RE tries them; by
 *  first * 128 + third. */
const BY_START: (Token[] | undefined)[] = new Array(128 * 128);
/** Which characters start a fragment: most characters of a body are none, and are passed at once. */
const STARTS = new Uint8Array(128);
for (const t of [...TOKENS].sort((a, b) => b.fragment.length - a.fragment.length)) {
  const key = t.fragment.charCodeAt(0) * 128 + t.fragment.charCodeAt(2);
  (BY_START[key] ??= []).push(t);
  STARTS[t.fragment.charCodeAt(0)] = 1;
}

/** The fragment of BY_START that starts at `i` (whose character `c` starts one), or undefined. */
function fragmentAt(text: string, i: number, c: number): Token | undefined {
  const third = text.charCodeAt(i + 2); // NaN past the end: no list
  const list = third < 128 ? BY_START[c * 128 + third] : undefined;
  if (list === undefined) return undefined;
  for (let k = 0; k < list.length; k++) if (text.startsWith(list[k]!.fragment, i)) return list[k];
  return undefined;
}

/** `text.slice(from).replace(PACK_RE, token)` (null when it holds U+0004–U+001F) by one scan: at
 *  each place the longest fragment that starts there, else the next character, as the
 *  expression's leftmost, first-alternative match does. A 190-character event body went through
 *  the expression with a callback per fragment (ADR 0092: the largest JS cost of a write). */
function scan(text: string, from: number): string | null {
  let out = "";
  let last = from;
  for (let i = from; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c >= 0x04 && c <= 0x1f) return null;
    const hit = c < 128 && STARTS[c] === 1 ? fragmentAt(text, i, c) : undefined;
    if (hit === undefined) {
      i++;
      continue;
    }
    out += text.slice(last, i) + hit.token;
    i += hit.fragment.length;
    last = i;
  }
  return last === from ? text.slice(from) : out + text.slice(last);
}

/** A packed text as it was written; a token no list names is a file vouch did not write. */
export function unpack(packed: string): string {
  if (packed.length * LONGEST > MAX_UNPACKED) sizeUnpacked(packed);
  if (packed.length < PIECE_CHARS) return unpackShort(packed);
  return replaceInPieces(packed, TOKEN_RE, 2, fragmentOf);
}

function fragmentOf(token: string): string {
  const fragment = BY_TOKEN.get(token);
  if (fragment === undefined) throw new UnknownTokenError(token);
  return fragment;
}

/** TOKEN_RE's replace as a loop over the characters: an event's body, read back 40,000 times by
 *  a resume of 8,000 items, in a fifth of the regular expression's time (ADR 0094). A long text
 *  keeps the piecewise replace (ADR 0086): its garbage goes as it works. */
function unpackShort(packed: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < packed.length; i++) {
    const c = packed.charCodeAt(i);
    if (c < 0x04 || c > 0x1f) continue;
    // U+0004 and the character after it (if any) are one token; U+0005–U+001F one each.
    const token = c === 0x04 ? packed.slice(i, i + 2) : packed[i]!;
    out += packed.slice(from, i) + fragmentOf(token);
    i += token.length - 1;
    from = i + 1;
  }
  return from === 0 ? packed : out + packed.slice(from);
}

/** Throws when `packed` unpacks past MAX_UNPACKED; counts without building the text. */
function sizeUnpacked(packed: string): void {
  let length = packed.length;
  for (const m of packed.matchAll(TOKEN_RE)) {
    length += (BY_TOKEN.get(m[0])?.length ?? 0) - m[0].length;
    if (length > MAX_UNPACKED) throw new UnpackedTooLongError();
  }
}

/** A blob's body as stored (version 7): packed, with PACKED first (no JSON text starts with a
 *  control character), or null when packing cannot hold it (it is stored as it is). */
export function packText(text: string): string | null {
  const tokens = pack(text);
  return tokens === null ? null : PACKED + tokens;
}

/** A blob's text from its stored body: a packed one unpacked, any other as it is. */
export function blobText(stored: string | undefined): string | undefined {
  return stored !== undefined && stored.startsWith(PACKED) ? unpack(stored.slice(1)) : stored;
}

/** The tokens whose fragment holds `text` (a LIKE on stored bodies must look for them too). */
export function tokensHolding(text: string): string[] {
  return TOKENS.filter((t) => t.fragment.includes(text)).map((t) => t.token);
}

/** SQL that unpacks the text expression `expr` (the open-time JSON check, integrity.ts). A token
 *  no list names stays, so json_valid refuses the text. */
export function unpackSql(expr: string): string {
  let sql = expr;
  for (const t of TOKENS) {
    const token = [...t.token].map((c) => `char(${c.charCodeAt(0)})`).join(" || ");
    sql = `replace(${sql}, ${token}, '${t.fragment.replaceAll("'", "''")}')`;
  }
  return sql;
}

/** A packed body vouch did not write. */
export class PackedTextError extends Error {}

/** A packed body unpacks past the bound. */
export class UnpackedTooLongError extends PackedTextError {
  override readonly name = "UnpackedTooLongError";
  constructor() {
    super(`a stored event unpacks past the bound of ${MAX_UNPACKED} characters`);
  }
}

/** A packed body holds a token no list names. */
export class UnknownTokenError extends PackedTextError {
  override readonly name = "UnknownTokenError";
  constructor(readonly token: string) {
    super(
      `a stored event holds an unknown token (${[...token].map((c) => `U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(" ")})`,
    );
  }
}
