// Packing and unpacking a long text a piece at a time gives the text a whole replace gives
// (ADR 0086): the same stored bytes, the same text read back, whatever the piece size.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FRAGMENT_TOKENS, pack, unpack } from "../../src/ledger/event-fragments.ts";
import { COLLECT_EVERY_PIECES, replaceInPieces } from "../../src/ledger/long-replace.ts";
import { mapResults } from "./events-fixture.ts";

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const BY_FRAGMENT = new Map(FRAGMENT_TOKENS.map((t) => [t.fragment, t.token]));
const BY_TOKEN = new Map(FRAGMENT_TOKENS.map((t) => [t.token, t.fragment]));
const PACK_RE = new RegExp(
  [...BY_FRAGMENT.keys()]
    .sort((a, b) => b.length - a.length)
    .map(esc)
    .join("|"),
  "g",
);
const TOKEN_RE = /\u0004[\s\S]?|[\u0005-\u001f]/g;
const LONGEST = Math.max(...FRAGMENT_TOKENS.map((t) => t.fragment.length));
const packBy = (f: string) => BY_FRAGMENT.get(f)!;
const unpackBy = (t: string) => BY_TOKEN.get(t) ?? "?";

// Texts made of fragments, their prefixes and suffixes (matches cut at every place) and other characters.
const bit = fc.oneof(
  fc.constantFrom(...BY_FRAGMENT.keys()),
  fc.constantFrom(...BY_FRAGMENT.keys()).chain((f) => fc.nat(f.length).map((n) => f.slice(0, n))),
  fc.constantFrom(...BY_FRAGMENT.keys()).chain((f) => fc.nat(f.length).map((n) => f.slice(n))),
  fc.string({ maxLength: 6 }),
);
const texts = fc.array(bit, { maxLength: 60 }).map((bits) => bits.join(""));

describe("replaceInPieces", () => {
  test("packs as a whole replace does, for any piece size", () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 80 }), (text, piece) => {
        expect(replaceInPieces(text, PACK_RE, LONGEST, packBy, { piece, collect: () => {} })).toBe(text.replace(PACK_RE, packBy));
      }),
      { numRuns: 500 },
    );
  });

  test("unpacks as a whole replace does, a lone U+0004 at a piece's end included", () => {
    const tokens = fc.array(fc.oneof(fc.constantFrom(...BY_TOKEN.keys(), "\u0004"), fc.string({ maxLength: 4 })), { maxLength: 60 });
    fc.assert(
      fc.property(tokens, fc.integer({ min: 1, max: 40 }), (parts, piece) => {
        const text = parts.join("");
        expect(replaceInPieces(text, TOKEN_RE, 2, unpackBy, { piece, collect: () => {} })).toBe(text.replace(TOKEN_RE, unpackBy));
      }),
      { numRuns: 500 },
    );
  });

  test("a 100,000-item map's results pack and unpack as before, collecting every few pieces", () => {
    const results = JSON.stringify(mapResults(100_000));
    const packed = pack(results)!;
    expect(packed).toBe(results.replace(PACK_RE, packBy));
    expect(unpack(packed)).toBe(results);
    let collected = 0;
    const piece = 64 * 1024;
    replaceInPieces(results, PACK_RE, LONGEST, packBy, { piece, collect: () => void collected++ });
    const pieces = Math.ceil(results.length / piece);
    expect(collected).toBeGreaterThanOrEqual(Math.floor(pieces / COLLECT_EVERY_PIECES) - 1);
    expect(collected).toBeLessThanOrEqual(Math.floor(pieces / COLLECT_EVERY_PIECES) + 1);
  });
});
