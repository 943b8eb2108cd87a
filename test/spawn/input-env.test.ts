// inputEnv: every input a file variable, small ones also inline, and the
// environment bounded whatever the inputs (issue 12, item 9).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { INLINE_INPUT_MAX_BYTES, INLINE_INPUTS_TOTAL_BYTES, inputEnv } from "../../src/spawn/input-env.ts";
import { MAX_ARG_STRLEN } from "../../src/spawn/arg-limits.ts";

const fileOf = (stem: string) => `/tmp/h/inputs/${stem}`;
const bytes = (s: string) => new TextEncoder().encode(s).length;

describe("inputEnv", () => {
  test("a small input is a variable and a file; a large one only a file (never a cut value)", () => {
    const env = inputEnv(
      [
        { stem: "SMALL", text: "hi" },
        { stem: "BIG", text: "x".repeat(150 * 1024) },
      ],
      fileOf,
    );
    expect(env).toEqual({
      VOUCH_INPUT_SMALL_FILE: "/tmp/h/inputs/SMALL",
      VOUCH_INPUT_SMALL: "hi",
      VOUCH_INPUT_BIG_FILE: "/tmp/h/inputs/BIG",
    });
  });

  test("the limit is in bytes: 20,000 two-byte characters are over 32 KiB", () => {
    expect(inputEnv([{ stem: "E", text: "é".repeat(20_000) }], fileOf)).toEqual({ VOUCH_INPUT_E_FILE: "/tmp/h/inputs/E" });
    expect(inputEnv([{ stem: "E", text: "é".repeat(16_000) }], fileOf).VOUCH_INPUT_E).toBe("é".repeat(16_000));
  });

  test("a NUL byte cannot be in an environment string: file only", () => {
    expect(inputEnv([{ stem: "N", text: "a\0b" }], fileOf)).toEqual({ VOUCH_INPUT_N_FILE: "/tmp/h/inputs/N" });
  });

  test("inline values stop at the total, in the graph's order", () => {
    const chunk = "y".repeat(INLINE_INPUT_MAX_BYTES);
    const inputs = ["A", "B", "C", "D", "E"].map((stem) => ({ stem, text: chunk }));
    const env = inputEnv(inputs, fileOf);
    expect(Object.keys(env).filter((k) => !k.endsWith("_FILE"))).toEqual([
      "VOUCH_INPUT_A",
      "VOUCH_INPUT_B",
      "VOUCH_INPUT_C",
      "VOUCH_INPUT_D",
    ]);
    expect(Object.keys(env).filter((k) => k.endsWith("_FILE"))).toHaveLength(5);
  });

  test("property: whatever the inputs, each one has its file, inline values are exact, and the environment stays small", () => {
    const input = fc.record({
      stem: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,20}$/),
      text: fc.oneof(
        fc.string({ maxLength: 50 }),
        fc.string({ unit: "grapheme", maxLength: 20_000 }),
        fc.nat({ max: 300_000 }).map((n) => "z".repeat(n)),
      ),
    });
    fc.assert(
      fc.property(fc.uniqueArray(input, { selector: (i) => i.stem, maxLength: 12 }), (inputs) => {
        const env = inputEnv(inputs, fileOf);
        let inline = 0;
        for (const { stem, text } of inputs) {
          expect(env[`VOUCH_INPUT_${stem}_FILE`]).toBe(fileOf(stem));
          const value = env[`VOUCH_INPUT_${stem}`];
          if (value !== undefined) {
            expect(value).toBe(text);
            expect(bytes(`VOUCH_INPUT_${stem}=${value}`) + 1).toBeLessThan(MAX_ARG_STRLEN);
            inline += bytes(value);
          }
        }
        expect(inline).toBeLessThanOrEqual(INLINE_INPUTS_TOTAL_BYTES);
      }),
      { numRuns: 60 },
    );
  });
});
