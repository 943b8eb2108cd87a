// The depth bound (issue 12 item 6): measured by loops, exact at the limit,
// and strings that hold brackets do not count.
import { describe, expect, test } from "vitest";
import { CUT_MARK, cutTooDeep, MAX_JSON_DEPTH, jsonTextTooDeep, parseJson, tooDeepAt, valueTooDeep } from "../../src/engine/json-depth.ts";
import { extractJson, stdoutObject } from "../../src/engine/verdict/json-extract.ts";
import { JsonDocumentReader } from "../../src/spawn/harness/common/json-documents.ts";

const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const nestedObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);

describe("the JSON depth bound", () => {
  test(`${MAX_JSON_DEPTH} levels parse; one more is refused before parsing`, () => {
    expect(parseJson(nested(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseJson(nested(MAX_JSON_DEPTH + 1))).toEqual({
      ok: false,
      message: `nested deeper than ${MAX_JSON_DEPTH} levels`,
      tooDeep: true,
    });
    expect(parseJson(nestedObject(MAX_JSON_DEPTH + 1)).ok).toBe(false);
  });

  test("brackets inside strings (with escaped quotes) are not nesting", () => {
    const text = JSON.stringify({ s: `"${"[".repeat(5000)}\\"{{{` });
    expect(jsonTextTooDeep(text)).toBe(false);
    expect(parseJson(text).ok).toBe(true);
  });

  test("a value's depth is measured without recursion, even a million levels deep", () => {
    let v: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) v = [v];
    const at = tooDeepAt(v);
    expect(at).toHaveLength(MAX_JSON_DEPTH);
    expect(tooDeepAt(JSON.parse(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(tooDeepAt({ a: { b: [0, { c: JSON.parse(nested(MAX_JSON_DEPTH)) }] } })).toEqual([
      "a",
      "b",
      1,
      "c",
      ...Array(MAX_JSON_DEPTH - 4).fill(0),
    ]);
  });

  test("a model's answer 50,000 levels deep is a reason, not a crash; a fence after deep prose still counts", () => {
    expect(extractJson(nested(50_000))).toEqual({
      ok: false,
      message: `the result is nested deeper than ${MAX_JSON_DEPTH} levels`,
      tooDeep: true,
    });
    expect(extractJson("```json\n" + nested(50_000) + "\n```")).toMatchObject({
      ok: false,
      message: `the last fenced code block is nested deeper than ${MAX_JSON_DEPTH} levels`,
    });
    expect(extractJson(`${"[".repeat(400)} prose\n\`\`\`json\n{"ok": true}\n\`\`\``)).toEqual({ ok: true, value: { ok: true } });
    expect(stdoutObject(nestedObject(50_000))).toBeUndefined();
  });

  test("a harness stream line nested 50,000 deep is garbage, and the stream goes on", () => {
    const r = new JsonDocumentReader();
    expect(r.feed(`{"type":"x","v":${nested(50_000)}}`)).toEqual([]);
    expect(r.garbageLines).toBe(1);
    expect(r.feed('{"type":"result"}')).toEqual([{ type: "result" }]);
  });

  test("cutTooDeep keeps a value within the bound whole and cuts a deeper one exactly at it", () => {
    const within = JSON.parse(nested(MAX_JSON_DEPTH)) as unknown;
    expect(cutTooDeep(structuredClone(within))).toEqual(within);
    const cut = cutTooDeep(JSON.parse(nested(50_000)));
    expect(valueTooDeep(cut)).toBe(false);
    expect(tooDeepAt(cut, MAX_JSON_DEPTH - 1)).not.toBeNull();
    expect(JSON.stringify(cut)).toContain(CUT_MARK);
    expect(cutTooDeep({ a: 1, b: [2, "x"] }, 2)).toEqual({ a: 1, b: [2, "x"] });
    expect(cutTooDeep({ a: { b: [1] } }, 2)).toEqual({ a: { b: CUT_MARK } });
  });
});
