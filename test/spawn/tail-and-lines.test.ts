// TailBuffer and LineSplitter against naive models, over random chunkings
// (fast-check): the kept tail is exactly the last bytes, lines are exactly the
// split text, however the stream was cut into chunks.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { TailBuffer } from "../../src/spawn/tail-buffer.ts";
import { LineSplitter } from "../../src/spawn/line-splitter.ts";

/** Cuts `bytes` at the given points (sorted, deduplicated) into chunks. */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

describe("TailBuffer", () => {
  test("keeps exactly the last `keep` bytes and counts all, for any chunking", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.integer({ min: 0, max: 5000 }),
        (bytes, cuts, keep) => {
          const tail = new TailBuffer(keep);
          for (const c of chunk(bytes, cuts)) tail.push(c);
          expect(tail.total).toBe(bytes.length);
          expect(tail.truncated).toBe(bytes.length > keep);
          expect([...tail.bytes()]).toEqual([...bytes.subarray(Math.max(0, bytes.length - keep))]);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("memory stays at `keep` bytes however much is pushed", () => {
    const tail = new TailBuffer(1000);
    const chunkOf = new Uint8Array(777).fill(65);
    for (let i = 0; i < 10_000; i++) tail.push(chunkOf);
    expect(tail.total).toBe(7_770_000);
    expect(tail.bytes().length).toBe(1000);
  });

  test("text drops the orphaned UTF-8 continuation bytes at a cut, and only at a cut", () => {
    const enc = new TextEncoder();
    const cut = new TailBuffer(5);
    cut.push(enc.encode("a€€")); // a e2 82 ac e2 82 ac: the last 5 start inside the first €
    expect(cut.text()).toBe("€");
    const whole = new TailBuffer(64);
    whole.push(enc.encode("€x"));
    expect(whole.text()).toBe("€x");
  });

  test("a negative or fractional size is refused", () => {
    expect(() => new TailBuffer(-1)).toThrow(RangeError);
    expect(() => new TailBuffer(1.5)).toThrow(RangeError);
  });
});

describe("LineSplitter", () => {
  test("yields exactly text.split('\\n') (minus a trailing empty piece) for any chunking, multibyte included", () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom("\n", "é", "€", "😀", "\r"), fc.string({ maxLength: 8 })), { maxLength: 60 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 30 }), (t, cuts) => {
        const got: string[] = [];
        const splitter = new LineSplitter((line, cutFlag) => {
          expect(cutFlag).toBe(false);
          got.push(line);
        }, 1_000_000);
        for (const c of chunk(new TextEncoder().encode(t), cuts)) splitter.push(c);
        splitter.end();
        const want = t.split("\n");
        if (want[want.length - 1] === "") want.pop();
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  test("a long line is cut to maxLength, flagged, and never splits a surrogate pair", () => {
    const got: [string, boolean][] = [];
    const splitter = new LineSplitter((l, c) => got.push([l, c]), 5);
    splitter.push(new TextEncoder().encode("abcd😀efgh\nok\n"));
    splitter.end();
    expect(got).toEqual([
      ["abcd", true],
      ["ok", false],
    ]);
  });

  test("a long final line without a newline is delivered cut at end()", () => {
    const got: [string, boolean][] = [];
    const splitter = new LineSplitter((l, c) => got.push([l, c]), 3);
    splitter.push(new TextEncoder().encode("abcdef"));
    splitter.end();
    expect(got).toEqual([["abc", true]]);
  });
});
