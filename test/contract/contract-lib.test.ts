// The contract suite's own helpers: the skip line a newcomer sees, and the
// normalized shape the fixture tests compare.
import { describe, expect, it } from "vitest";
import { CLI_NAMES, pinnedVersion } from "./lib/clis.ts";
import { linesShape, shapeOf } from "./lib/shape.ts";
import { skipSummary } from "./lib/skip-reporter.ts";

describe("the skip summary", () => {
  it("says nothing when every CLI is installed", () => {
    expect(skipSummary([])).toBeNull();
  });
  it("names the missing CLIs and the install command", () => {
    const line = skipSummary(["claude", "gemini"])!;
    expect(line).toContain("SKIPPED for claude, gemini");
    expect(line).toContain("`npm run clis`");
  });
});

describe("pinned versions", () => {
  it("are exact versions in clis/package.json, never ranges", () => {
    for (const name of CLI_NAMES) expect(pinnedVersion(name)).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe("shapeOf", () => {
  it("keeps types, subtypes and keys, drops values", () => {
    const a = shapeOf(
      { type: "result", subtype: "success", session_id: "a", total_cost_usd: 0.1, modelUsage: { "m-1": { x: 1 } } },
      { dictionaries: ["modelUsage"] },
    );
    const b = shapeOf(
      { subtype: "success", type: "result", session_id: "zz", total_cost_usd: 7, modelUsage: { other: {} } },
      { dictionaries: ["modelUsage"] },
    );
    expect(a).toEqual(b);
    expect(a).toMatchObject({ type: "=result", subtype: "=success", session_id: "string" });
  });
  it("tells a renamed key and a changed subtype apart", () => {
    expect(shapeOf({ type: "result", num_turns: 1 })).not.toEqual(shapeOf({ type: "result", turns: 1 }));
    expect(shapeOf({ type: "system", subtype: "init" })).not.toEqual(shapeOf({ type: "system", subtype: "api_retry" }));
  });
  it("treats an array by its distinct element shapes, whatever the order or count", () => {
    expect(shapeOf([{ type: "text" }, { type: "tool_use" }, { type: "text" }])).toEqual(shapeOf([{ type: "tool_use" }, { type: "text" }]));
  });
  it("stops at the depth asked and survives a hostile document", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(shapeOf(deep, { depth: 2 })).toEqual({ a: { a: "object" } });
    const hostile = shapeOf(JSON.parse('{"__proto__":{"type":"x"}}')) as object;
    expect(Object.keys(hostile)).toEqual(["__proto__"]);
    expect(JSON.stringify(hostile)).toBe('{"__proto__":{"type":"=x"}}');
  });
  it("lists each distinct line shape once", () => {
    expect(linesShape('{"type":"a","id":1}\n{"type":"a","id":2}\n\n{"type":"b"}\n')).toHaveLength(2);
  });
});
