// A sub-graph's nodes under their graph node (ADR 0024 ids: review/lint), nested,
// the list's order kept, every node exactly once whatever the ids.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { foldSubgraphs, type Folded } from "../../src/report/subgraph-fold.ts";

const ids = (f: Folded<string>[]): unknown[] => f.map((x) => (x.inside.length ? [x.item, ids(x.inside)] : x.item));
const all = (f: Folded<string>[]): string[] => f.flatMap((x) => [x.item, ...all(x.inside)]);

describe("foldSubgraphs", () => {
  test("nested as deep as the ids go; order kept; a node whose graph node is absent goes under the nearest present", () => {
    const list = ["a", "review", "review/lint", "review/check", "review/check/fmt", "b", "gone/x/y", "gone/x"];
    expect(ids(foldSubgraphs(list, (s) => s))).toEqual([
      "a",
      ["review", ["review/lint", ["review/check", ["review/check/fmt"]]]],
      "b",
      ["gone/x", ["gone/x/y"]],
    ]);
    // The graph node listed after its nodes still holds them.
    expect(ids(foldSubgraphs(["r/a", "r"], (s) => s))).toEqual([["r", ["r/a"]]]);
  });

  test("for any ids (duplicates, slashes anywhere): every node exactly once", () => {
    const part = fc.constantFrom("a", "b", "", "/");
    fc.assert(
      fc.property(
        fc.array(
          fc.array(part, { maxLength: 5 }).map((p) => p.join("")),
          { maxLength: 30 },
        ),
        (list) => {
          expect(all(foldSubgraphs(list, (s) => s)).sort()).toEqual([...list].sort());
        },
      ),
    );
  });
});
