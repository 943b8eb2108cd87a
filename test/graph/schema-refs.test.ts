// Output schema references (issue 27 item 14): a $ref resolves inside the schema or
// the graph is refused at the reference's line, so `vouch validate` and `vouch run`
// agree, and nothing is ever fetched. The property holds the rule to ajv, the
// validator the run compiles schemas with.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { schemaRefProblems } from "../../src/engine/graph/schema-refs.ts";
import { OutputSchemas } from "../../src/engine/verdict/output-schema.ts";
import { lines } from "./helpers.ts";

const compiles = (schema: unknown) => {
  try {
    new OutputSchemas().compile(schema as Record<string, unknown>);
    return true;
  } catch {
    return false;
  }
};

const graph = (ref: string) => `version: 1
name: s
nodes:
  a:
    kind: agent
    prompt: p
    output:
      format: json
      schema:
        type: object
        $defs:
          item: { type: string }
        properties:
          x: { $ref: ${JSON.stringify(ref)} }
`;

describe("refused at load, at the $ref", () => {
  test.each([
    ["https://example.com/schema.json", "points at https:"],
    ["file:///etc/passwd", "points at file:"],
    ["other.json#/x", 'points at another document, "other.json"'],
    ["#/$defs/missing", 'names nothing in the schema: "#/$defs/missing"'],
    ["#/properties/y", "names nothing in the schema"],
    ["#nowhere", "names no $anchor"],
    ["#/properties/x", "only refers to itself"],
  ])("%s", (ref, why) => {
    const got = lines(graph(ref));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^14:\d+ output\.schema: \$ref /);
    expect(got[0]).toContain(why);
    expect(compiles({ $defs: { item: { type: "string" } }, properties: { x: { $ref: ref } } })).toBe(false);
  });

  test("accepted: local pointers, the document, anchors, an inner $id, ajv's own meta-schema", () => {
    for (const ref of ["#/$defs/item", "#", "http://json-schema.org/draft-07/schema#"]) expect(lines(graph(ref)), ref).toEqual([]);
    const anchored = { $defs: { a: { $anchor: "here", type: "string" }, b: { $id: "b.json", $defs: { c: { type: "number" } } } } };
    for (const ref of ["#here", "b.json", "b.json#/$defs/c"]) {
      const schema = { ...anchored, properties: { x: { $ref: ref } } };
      expect(schemaRefProblems(schema), ref).toEqual([]);
      expect(compiles(schema), ref).toBe(true);
    }
  });

  test("a $ref inside data (an enum, a default) or a property named $ref is not a reference", () => {
    expect(
      schemaRefProblems({ enum: [{ $ref: "http://x" }], default: { $ref: "file:x" }, properties: { $ref: { type: "string" } } }),
    ).toEqual([]);
  });
});

// The rule may refuse more than ajv (a bad $ref under $defs that nothing reaches: ajv compiles
// only what the root reaches), never less: whatever it accepts, the run compiles.
test("property: a schema the rule accepts, ajv compiles", () => {
  const ref = fc.constantFrom(
    "#",
    "#/$defs/a",
    "#/$defs/b",
    "#/$defs/nope",
    "#/properties/p",
    "#/properties/p/items",
    "#/$defs/a~1x",
    "#/$defs/a%20b",
    "#anc",
    "#missing",
    "inner.json",
    "inner.json#/$defs/z",
    "inner.json#/$defs/nope",
    "other.json",
    "http://example.com/s",
    "file:///etc/hosts",
    "urn:x:y",
  );
  const node = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.constant({ type: "string" }),
      ref.map((r) => ({ $ref: r })),
    ),
    tree: fc.oneof(
      { depthSize: "small" },
      tie("leaf"),
      fc.record({ type: fc.constant("array"), items: tie("tree") }),
      fc.record({ properties: fc.record({ p: tie("tree"), q: tie("leaf") }) }),
    ),
  })).tree;
  fc.assert(
    fc.property(node, node, fc.boolean(), (p, other, withInner) => {
      const schema: Record<string, unknown> = {
        $defs: {
          a: { $anchor: "anc", type: "number" },
          b: other,
          "a/x": { type: "string" },
          "a b": { type: "string" },
          ...(withInner ? { inner: { $id: "inner.json", $defs: { z: { type: "boolean" } } } } : {}),
        },
        properties: { p },
      };
      if (schemaRefProblems(schema).length === 0) expect(compiles(schema), JSON.stringify(schema)).toBe(true);
    }),
    { numRuns: 400 },
  );
});
