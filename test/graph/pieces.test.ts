// The small pure pieces: cycles and ancestors, graphOrder, did-you-mean,
// JSON Schema paths, condition text.
import { describe, expect, test } from "vitest";
import { ancestorsOf, cycleThrough, cyclicComponents } from "../../src/engine/graph/dag.ts";
import { didYouMean, editDistance, suggest } from "../../src/engine/graph/did-you-mean.ts";
import { schemaAt } from "../../src/engine/graph/json-schema-path.ts";
import { conditionText } from "../../src/engine/graph/condition-text.ts";
import { ancestors, graphOrder } from "../../src/engine/graph/validate.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const deps = (o: Record<string, string[]>) => new Map(Object.entries(o));

describe("dag", () => {
  test("cyclic components and one shortest cycle through each, in the given order", () => {
    const d = deps({ a: ["b"], b: ["c"], c: ["a", "d"], d: [], e: ["e"], f: ["a"] });
    const comps = cyclicComponents(["a", "b", "c", "d", "e", "f"], d);
    expect(comps).toEqual([["a", "b", "c"], ["e"]]);
    expect(cycleThrough(comps[0]!, d)).toEqual(["a", "b", "c", "a"]);
    expect(cycleThrough(comps[1]!, d)).toEqual(["e", "e"]);
  });

  test("no cycle in a DAG; edges to unknown ids are ignored", () => {
    expect(cyclicComponents(["a", "b"], deps({ a: ["b", "zz"], b: [] }))).toEqual([]);
  });

  test("ancestors are transitive and exclude the node itself", () => {
    expect([...ancestorsOf("d", deps({ a: [], b: ["a"], c: ["a"], d: ["b", "c"] }))].sort()).toEqual(["a", "b", "c"]);
  });
});

describe("graphOrder and ancestors (used by the engine and the TUI)", () => {
  const g = loadGraph(
    "g.yaml",
    `version: 1
name: o
inputs: { xs: { default: [1] } }
nodes:
  a: { kind: agent, prompt: a, fallback: f }
  f: { kind: end }
  r: { kind: router, needs: [a], routes: [{ when: { nodes.a.status: passed }, to: [m] }] }
  m:
    kind: map
    over: inputs.xs
    branch:
      one: { kind: agent, prompt: one }
      two: { kind: agent, prompt: two, needs: [one] }
  z: { kind: agent, prompt: z, needs: [m] }
`,
  ).graph!;

  test("outer nodes in file order, each map followed by its branch nodes", () => {
    expect(graphOrder(g).map((n) => (n.map ? `${n.map}/${n.id}` : n.id))).toEqual(["a", "f", "r", "m", "m/one", "m/two", "z"]);
  });

  test("ancestors follow needs, router routes and fallbacks; a branch node also gets its map's ancestors", () => {
    expect([...ancestors(g, "f")]).toEqual(["a"]);
    expect([...ancestors(g, "m")].sort()).toEqual(["a", "r"]);
    expect([...ancestors(g, "two")].sort()).toEqual(["a", "one", "r"]);
    expect([...ancestors(g, "z")].sort()).toEqual(["a", "m", "r"]);
    expect(ancestors(g, "nope").size).toBe(0);
  });
});

describe("did you mean", () => {
  test("edit distance counts a transposition as one edit", () => {
    expect(editDistance("promt", "prompt")).toBe(1);
    expect(editDistance("agnet", "agent")).toBe(1);
    expect(editDistance("abc", "abc")).toBe(0);
  });

  test("suggests close names only", () => {
    expect(suggest("promt", ["prompt", "model"])).toBe("prompt");
    expect(suggest("Prompt", ["prompt"])).toBe("prompt");
    expect(suggest("banana", ["prompt", "model"])).toBeUndefined();
    expect(suggest("b", ["a"])).toBeUndefined();
    expect(didYouMean("tset", ["tests", "lint"])).toBe(" (did you mean tests?)");
    expect(didYouMean("zzz", ["tests"])).toBe("");
  });
});

describe("JSON Schema paths", () => {
  const schema = {
    type: "object",
    additionalProperties: false,
    properties: {
      xs: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } },
      n: { type: ["number", "null"] },
    },
  };
  test("follows properties and items, reports forbidden fields and scalar types", () => {
    expect(schemaAt(schema, ["xs"])).toEqual({ kind: "typed", types: ["array"], depth: 1 });
    expect(schemaAt(schema, ["xs", "0", "id"])).toEqual({ kind: "typed", types: ["string"], depth: 3 });
    expect(schemaAt(schema, ["n", "deeper"])).toEqual({ kind: "typed", types: ["number", "null"], depth: 1 });
    expect(schemaAt(schema, ["nope"])).toEqual({ kind: "absent", field: "nope", known: ["xs", "n"] });
    expect(schemaAt({ type: "object" }, ["anything"])).toEqual({ kind: "unknown" });
    expect(schemaAt({ $ref: "#/x" }, ["a"])).toEqual({ kind: "unknown" });
  });
});

describe("condition text", () => {
  test("every operator, all/any/not, and a cut with … past the limit", () => {
    expect(conditionText({ a: 1, b: { in: [x(), "y"] } })).toBe("a = 1 and b in [x, y]");
    expect(conditionText({ any: [{ a: { gt: 1 } }, { b: { lte: 2 } }], not: { c: { exists: true } } })).toBe(
      "(a > 1 or b ≤ 2) and not c exists",
    );
    expect(conditionText({ a: { matches: "^x" }, b: { equals: { k: 1 } } })).toBe('a ~ /^x/ and b = {"k":1}');
    expect(conditionText({ long: "x".repeat(100) }, 20)).toBe(`long = ${"x".repeat(12)}…`);
  });
});

function x(): string {
  return "x";
}
