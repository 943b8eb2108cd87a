import { describe, expect, test } from "vitest";
import { JsonDocumentReader, MAX_PENDING_BYTES } from "../../src/spawn/harness/common/json-documents.ts";

const feedAll = (r: JsonDocumentReader, lines: string[]) => [...lines.flatMap((l) => r.feed(l)), ...r.finish()];

describe("JsonDocumentReader", () => {
  test("one object per line; blank lines ignored", () => {
    expect(feedAll(new JsonDocumentReader(), ['{"a":1}', "", '{"b":2}'])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  test("a pretty-printed object is collected until it closes, even with inner lines that parse alone", () => {
    const text = JSON.stringify({ errors: ["Reached maximum budget ($0.001)"], n: [1, 2] }, null, 2);
    const r = new JsonDocumentReader();
    expect(feedAll(r, text.split("\n"))).toEqual([{ errors: ["Reached maximum budget ($0.001)"], n: [1, 2] }]);
    expect(r.garbageLines).toBe(0);
  });

  test("a document still open at the end is tried once more, else counted as garbage", () => {
    const r = new JsonDocumentReader();
    expect(feedAll(r, ["{", '  "a": 1'])).toEqual([]);
    expect(r.garbageLines).toBe(1);
  });

  test("a stray '{' line does not swallow the stream that follows", () => {
    const r = new JsonDocumentReader();
    expect(feedAll(r, ["{", '{"type":"result"}'])).toEqual([{ type: "result" }]);
    expect(r.garbageLines).toBe(1);
  });

  test("non-JSON lines are counted, the last one kept bounded", () => {
    const r = new JsonDocumentReader();
    feedAll(r, ["hello", "x".repeat(5000)]);
    expect(r.garbageLines).toBe(2);
    expect(r.lastGarbage!.length).toBeLessThan(300);
  });

  test("an open document is dropped past MAX_PENDING_BYTES (memory stays bounded)", () => {
    const r = new JsonDocumentReader();
    r.feed("{");
    const chunk = `  "k": "${"y".repeat(1024 * 1024)}",`;
    for (let i = 0; i < 10; i++) r.feed(chunk);
    expect(r.open).toBe(false);
    expect(r.garbageLines).toBeGreaterThan(0);
    expect(10 * chunk.length).toBeGreaterThan(MAX_PENDING_BYTES);
  });
});
