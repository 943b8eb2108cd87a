// Names every JavaScript object already has (Object.prototype's members) are
// refused at load wherever a graph picks a name that becomes a key (issue 12
// item 7, ADR 0019): node ids (outer and branch), check names (library and
// inline), input names, a map's `as`, stamp fields. Before, `constructor`
// crashed the run and `__proto__` was dropped without a word.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { RESERVED_NAMES } from "../../src/engine/graph/reserved-names.ts";
import { buildChildEnv } from "../../src/spawn/child-env.ts";
import { parseInputs } from "../../src/cli/run-inputs.ts";
import { resolveInputs } from "../../src/engine/run/inputs.ts";
import type { GraphFile } from "../../src/engine/graph/schema.ts";

const NAMES = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"];

/** A graph with NAME in one place; `line` is where the name is written (1-based), `col` its column. */
const PLACES: Record<string, (name: string) => { text: string; line: number; col: number; what: string }> = {
  "outer node id": (n) => ({ text: `version: 1\nname: t\nnodes:\n  ${n}:\n    kind: end\n`, line: 4, col: 3, what: "a node id" }),
  "branch node id": (n) => ({
    text: `version: 1\nname: t\ninputs:\n  xs: { default: [1] }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      ${n}:\n        kind: end\n`,
    line: 10,
    col: 7,
    what: "a node id",
  }),
  "check name": (n) => ({
    text: `version: 1\nname: t\nchecks:\n  ${n}: { run: "true" }\nnodes:\n  a:\n    kind: script\n    run: "true"\n`,
    line: 4,
    col: 3,
    what: "a check name",
  }),
  "inline check name": (n) => ({
    text: `version: 1\nname: t\nnodes:\n  a:\n    kind: script\n    run: "true"\n    success:\n      checks:\n        - { name: ${n}, run: "true" }\n`,
    line: 9,
    col: 19,
    what: "a check name",
  }),
  "input name": (n) => ({
    text: `version: 1\nname: t\ninputs:\n  ${n}: { default: x }\nnodes:\n  a:\n    kind: end\n`,
    line: 4,
    col: 3,
    what: "an input name",
  }),
  "map item name": (n) => ({
    text: `version: 1\nname: t\ninputs:\n  xs: { default: [1] }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    as: ${n}\n    branch:\n      b:\n        kind: end\n`,
    line: 9,
    col: 9,
    what: "a map item name (as)",
  }),
  "stamp field": (n) => ({
    text: `version: 1\nname: t\nnodes:\n  a:\n    kind: agent\n    prompt: p\n    output: { format: json }\n    stamp:\n      ${n}: x\n`,
    line: 9,
    col: 7,
    what: "a stamp field",
  }),
};

describe("reserved names are refused at load, at their place", () => {
  test("property: any reserved name in any place is one problem at file:line:col, the graph refused", () => {
    fc.assert(
      fc.property(fc.constantFrom(...RESERVED_NAMES), fc.constantFrom(...Object.keys(PLACES)), (name, place) => {
        const g = PLACES[place]!(name);
        const r = loadGraph("g.yaml", g.text);
        expect(r.graph).toBeNull();
        const mine = r.problems.filter((p) => p.message.startsWith(`"${name}" cannot be ${g.what}:`));
        expect(mine.map((p) => `${p.line}:${p.col}`)).toEqual([`${g.line}:${g.col}`]);
        for (const p of r.problems) expect(p.message).not.toMatch(/internal error/);
      }),
      { numRuns: 120 },
    );
  });

  test("the same places with an ordinary name load (the fixtures are valid graphs)", () => {
    for (const [place, make] of Object.entries(PLACES)) {
      const r = loadGraph("g.yaml", make("plain_name").text);
      expect([place, r.problems]).toEqual([place, []]);
    }
  });

  test("names that only look alike are allowed: constructor_step, proto, ToString", () => {
    for (const n of ["constructor_step", "proto", "ToString", "_proto_"]) {
      expect(loadGraph("g.yaml", PLACES["outer node id"]!(n).text).problems).toEqual([]);
    }
  });
});

describe("names that stay allowed are plain keys, never inherited members", () => {
  test("an env name such as constructor is passed only when the parent has it", () => {
    const without = buildChildEnv({ PATH: "/bin" }, ["constructor", "__proto__", "toString"]);
    expect(without.missing).toEqual(["constructor", "__proto__", "toString"]);
    expect(without.passed).toEqual([]);
    expect(Object.keys(without.env)).toEqual(["PATH"]);
    const parent = Object.fromEntries([
      ["PATH", "/bin"],
      ["constructor", "c"],
      ["__proto__", "p"],
    ]);
    const withThem = buildChildEnv(parent, ["constructor", "__proto__"]);
    expect(withThem.passed).toEqual(["constructor", "__proto__"]);
    expect(Object.hasOwn(withThem.env, "__proto__") && withThem.env["__proto__"]).toBe("p");
    expect(withThem.env.constructor).toBe("c");
  });

  test("-i __proto__=x is an unknown input, not silently dropped", () => {
    const graph = { version: 1, name: "g", inputs: { x: {} }, nodes: { a: { kind: "end" } } } as unknown as GraphFile;
    const given = parseInputs(["__proto__=evil"], "/", 1024);
    expect(Object.keys(given)).toEqual(["__proto__"]);
    expect(() => resolveInputs(graph, given)).toThrow('unknown input "__proto__"');
  });
});
