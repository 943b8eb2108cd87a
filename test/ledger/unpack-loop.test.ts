// A short packed text is unpacked by a loop over its characters (ADR 0094), a long one by the
// piecewise regular-expression replace (ADR 0086): both give what the one replace gave, the
// same text or the same refusal of a token no list names.
import fc from "fast-check";
import { expect, test } from "vitest";
import { FRAGMENT_TOKENS, pack, UnknownTokenError, unpack } from "../../src/ledger/event-fragments.ts";
import { PIECE_CHARS } from "../../src/ledger/long-replace.ts";

const BY_TOKEN = new Map(FRAGMENT_TOKENS.map((t) => [t.token, t.fragment]));
/** The replace unpack made before the loop, whole. */
function reference(packed: string): string {
  return packed.replace(/\u0004[\s\S]?|[\u0005-\u001f]/g, (t) => {
    const f = BY_TOKEN.get(t);
    if (f === undefined) throw new UnknownTokenError(t);
    return f;
  });
}
const outcome = (f: () => string) => {
  try {
    return f();
  } catch (e) {
    return e instanceof UnknownTokenError ? `refused ${JSON.stringify(e.message)}` : `other ${String(e)}`;
  }
};

const piece = fc.oneof(
  fc.constantFrom(...FRAGMENT_TOKENS.map((t) => t.token)),
  fc.string({ maxLength: 6 }),
  fc.constantFrom("\u0004", "\u0001", "\u0002", "\u0003", "\u001f", "\u0004\u0004", "\u0004\u0005", "\u0004\uffff"),
);

test("any short text, tokens or not, unpacks as the one replace did", () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
      const packed = parts.join("");
      expect(outcome(() => unpack(packed))).toBe(outcome(() => reference(packed)));
    }),
    { numRuns: 5000 },
  );
});

test("packed JSON round-trips, short and long, on each side of the piece size", () => {
  const item = '{"node":"work","branch":{"map":"each","index":7},"status":"passed","qualifier":"exit-only"}';
  const lengths: number[] = [];
  for (const n of [1, 10, PIECE_CHARS / 4]) {
    const text = `[${Array.from({ length: n }, () => item).join(",")}]`;
    const packed = pack(text)!;
    lengths.push(packed.length);
    expect(unpack(packed)).toBe(text);
  }
  expect(lengths[1]! < PIECE_CHARS && lengths[2]! > PIECE_CHARS).toBe(true);
});
