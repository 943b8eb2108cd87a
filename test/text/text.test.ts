// src/text: one set of formatters for every reader. Widths are the terminal's
// (string-width), money and durations read one way on the TUI, in `vouch show`
// and in the reports.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { duration, exactDuration } from "../../src/text/duration.ts";
import { indentTail, linesOf, oneLine } from "../../src/text/lines.ts";
import { money, usd, usdAsWritten } from "../../src/text/money.ts";
import { table } from "../../src/text/table.ts";
import { displayWidth, padEnd, truncate, wrap } from "../../src/text/width.ts";
import { parseDuration } from "../../src/engine/graph/duration.ts";
import stringWidth from "string-width";

describe("display width", () => {
  test("emoji the hand-made ranges missed are two columns: 🚀 ✅ ⚠️ ❌, CJK too, marks none", () => {
    expect(["🚀", "✅", "❌", "⚠️", "日", "한", "ｱ"].map(displayWidth)).toEqual([2, 2, 2, 2, 2, 2, 1]);
    expect(displayWidth("e\u0301")).toBe(1); // e + combining acute
    expect(displayWidth("👨‍👩‍👧")).toBe(2); // one ZWJ family
    expect(displayWidth("abc")).toBe(3);
  });

  test("truncate never splits a cluster and never exceeds the width; padEnd is exactly the width", () => {
    expect(truncate("👨‍👩‍👧👨‍👩‍👧", 3)).toBe("👨‍👩‍👧…");
    expect(truncate("日本語", 4)).toBe("日…");
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "日", "🚀", "✅", "e\u0301", " ", "👨‍👩‍👧") }),
        fc.integer({ min: 1, max: 12 }),
        (s, w) => {
          expect(displayWidth(truncate(s, w))).toBeLessThanOrEqual(w);
          expect(displayWidth(padEnd(s, w))).toBe(w);
          for (const piece of wrap(s, Math.max(2, w))) expect(displayWidth(piece)).toBeLessThanOrEqual(Math.max(2, w));
          expect(wrap(s, Math.max(2, w)).join("").replace(/ /g, "")).toBe(s.replace(/ /g, ""));
        },
      ),
    );
  });

  test("the short way for narrow text counts what string-width counts", () => {
    const narrow = fc.constantFrom("a", " ", "é", "ß", "Ł", "ʃ", "–", "…", "•", "‰", "→", "↻", "↔", "─", "│", "└", "⠋", "⠏", "·");
    fc.assert(
      fc.property(fc.string({ unit: narrow }), (s) => {
        expect(displayWidth(s)).toBe(stringWidth(s));
      }),
    );
    // Next to a wide or zero-width neighbour the short way is not taken.
    for (const s of ["↔\ufe0f", "a\u00ad", "→✅", "·\u0301"]) expect([s, displayWidth(s)]).toEqual([s, stringWidth(s)]);
  });

  test("a table pads by display width", () => {
    expect(
      table(
        ["NODE", "STATUS"],
        [
          ["ビルド", "passed"],
          ["✅", "failed"],
          ["build", "error"],
        ],
      ),
    ).toBe(["NODE    STATUS", "ビルド  passed", "✅      failed", "build   error", ""].join("\n"));
  });
});

describe("money", () => {
  test("the precision the amount needs; unknown sittings counted; nothing known is -", () => {
    expect([5, 0.42, 0.2949, 0.0121, 0.00472475, 0.001, 0].map(usd)).toEqual([
      "$5.00",
      "$0.42",
      "$0.295",
      "$0.012",
      "$0.0047",
      "$0.001",
      "$0",
    ]);
    expect(money(0.07, 1)).toBe("$0.07 (+1 unknown)");
    expect(money(null)).toBe("-");
    expect(money(null, 2)).toBe("? (2 unknown)");
  });

  test("a cap as a person writes it: $5, $2.50, $0.001; it reads back as the amount", () => {
    expect([5, 10, 2.5, 0.25, 0.001, 0.0047, 1.005].map(usdAsWritten)).toEqual([
      "$5",
      "$10",
      "$2.50",
      "$0.25",
      "$0.001",
      "$0.0047",
      "$1.005",
    ]);
    expect(usdAsWritten(1e-7)).toBe("$0.0000001");
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), (micros) => {
        const amount = micros / 1_000_000;
        expect(Number(usdAsWritten(amount).slice(1))).toBe(amount);
      }),
    );
  });
});

describe("durations", () => {
  test("measured times are rounded down to what a person reads", () => {
    expect([250, 1200, 4250, 59_999, 90_250, 7_500_999].map(duration)).toEqual(["250ms", "1.2s", "4.2s", "59.9s", "1m30s", "2h5m"]);
    expect(duration(null)).toBe("-");
  });

  test("a graph-language duration is exact and reads back", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 3_600_000 }), (ms) => {
        expect(parseDuration(exactDuration(ms))).toBe(ms);
      }),
    );
  });
});

describe("lines", () => {
  test("oneLine cleans and collapses; linesOf drops empty lines; indentTail counts what it leaves out", () => {
    expect(oneLine("a\n\tb  \u001b[31mc\u001b[0m\r\n")).toBe("a b c");
    expect(linesOf("x\n\n y \n")).toEqual(["x", " y"]);
    expect(indentTail("1\n2\n3\n", "| ", 2)).toBe("| … (1 earlier lines)\n| 2\n| 3");
  });
});
