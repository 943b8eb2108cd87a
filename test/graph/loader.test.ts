// The loader: positions, YAML-level problems, one problem per root cause,
// and the salvage that lets semantic rules run beside schema problems.
import { describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { lines, problems } from "./helpers.ts";

const VALID = `version: 1
name: ok
nodes:
  a:
    kind: agent
    prompt: hi
    caps: { wall: 1m30s }
`;

describe("a valid graph", () => {
  test("loads with no problems, and durations become milliseconds", () => {
    const r = loadGraph("g.yaml", VALID);
    expect(r.problems).toEqual([]);
    const a = r.graph!.nodes.a!;
    expect(a.kind === "agent" && a.caps?.wall).toBe(90_000);
  });

  test("a byte-order mark and CRLF line endings change nothing", () => {
    expect(loadGraph("g.yaml", `\uFEFF${VALID.replace(/\n/g, "\r\n")}`).problems).toEqual([]);
  });
});

describe("positions", () => {
  test("an unknown field points at its key; a wrong value at the value", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: hi\n    tools: Read\n    colour: red\n")).toEqual([
      '7:12 tools must be a list, not "Read"',
      '8:5 unknown field "colour" in node "a"',
    ]);
  });

  test("a missing field points at the key of the mapping that lacks it", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: router\n")).toEqual(['4:3 missing field "routes" in node "a"']);
  });

  test("a template problem points at the {{ inside a block scalar, lines below its key", () => {
    const text = "version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: |\n      first line\n      then {{ inputs.nope }}\n";
    expect(lines(text)).toEqual(['8:12 {{ inputs.nope }}: no input "nope"']);
  });

  test("…and inside a double-quoted string with escapes before it", () => {
    const text = 'version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: "say \\"hi\\" to {{ inputs.who }}"\n';
    expect(lines(text)).toEqual(['6:28 {{ inputs.who }}: no input "who"']);
  });

  test("a problem inside an anchored mapping used through a merge key points into the anchor", () => {
    const text =
      "version: 1\nname: x\nnodes:\n  a: &base\n    kind: agent\n    prompt: hi\n    harness: claud\n  b:\n    <<: *base\n    needs: [a]\n";
    const found = lines(text);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((l) => l.startsWith("7:14 harness must be one of"))).toBe(true);
  });

  test("problems come sorted by line, then column", () => {
    const text =
      "version: 1\nname: x\nnodes:\n  b:\n    kind: agent\n    prompt: '{{ inputs.q }}'\n    needs: [zz]\n  a:\n    kind: agnet\n";
    const found = problems(text).map((p) => [p.line, p.col] as const);
    expect(found.length).toBe(3);
    expect([...found].sort((x, y) => x[0] - y[0] || x[1] - y[1])).toEqual(found);
  });
});

describe("YAML-level problems", () => {
  test("a duplicate key names the key and where it was first written, and checking goes on", () => {
    const r = problems("version: 1\nname: x\nnodes:\n  a: { kind: agent, prompt: hi }\n  a: { kind: agent, prompt: hi, colour: red }\n");
    expect(r.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual(['5:3 duplicate key "a"', '5:33 unknown field "colour" in node "a"']);
    expect(r[0]!.hint).toContain("4:3");
  });

  test("a syntax error stops there: no schema problems guessed from a broken structure", () => {
    expect(lines("version: 1\nname: x\nnodes: [a, b\n  c: {{\n")).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\d+:\d+ YAML: /)]),
    );
    expect(lines("version: 1\nname: x\nnodes: [a, b\n").every((l) => / YAML: /.test(l))).toBe(true);
  });

  test("an alias inside its own anchor is refused (the value would contain itself)", () => {
    expect(lines("version: 1\nname: x\nnodes: &n\n  a: *n\n")).toEqual([
      "4:6 alias *n is inside its own anchor &n, so the value would contain itself",
    ]);
  });

  test("an exponential alias bomb is refused, not expanded", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(", ")}]`,
      );
    const found = lines(bomb.join("\n"));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^1:1 YAML: .*alias/i);
  });

  test("the empty file and a comment-only file are one clear problem", () => {
    expect(lines("")).toEqual(["1:1 the file is empty"]);
    expect(lines("# nothing\n")).toEqual(["1:1 the file is empty"]);
  });
});

describe("one problem per root cause", () => {
  test("a misspelt required field is one problem, not also a missing field", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    promt: hi\n")).toEqual([
      '6:5 unknown field "promt" in node "a" (did you mean prompt?)',
    ]);
  });

  test("text cut off by a comma inside { ... } is an unknown field with a hint to quote", () => {
    const p = problems("version: 1\nname: x\ninputs:\n  f: { description: a, b c }\nnodes:\n  a: { kind: agent, prompt: hi }\n");
    expect(p.map((x) => `${x.line}:${x.col} ${x.message}`)).toEqual(['4:24 unknown field "b c" in input "f"']);
    expect(p[0]!.hint).toMatch(/quote the value/);
  });

  test("a field of another kind says which kind it belongs to", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: hi\n    over: inputs.x\n")).toEqual([
      '7:5 "over" is not a field of agent nodes (it belongs to map nodes) in node "a"',
    ]);
  });

  test("a misspelt kind is one problem (no union dump of every kind's fields)", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: scirpt\n    run: make\n")).toEqual([
      '5:11 unknown node kind "scirpt" (did you mean script?)',
    ]);
  });

  test("an unquoted {{ template }} is one problem, not also a type error", () => {
    expect(lines("version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: {{ inputs.x }}\n")).toEqual([
      "6:13 a value that starts with {{ must be quoted (YAML reads {{ ... }} as a mapping)",
    ]);
  });
});

describe("salvage: semantic rules run beside schema problems", () => {
  test("a node the schema refuses is still known: references to it are not 'unknown'", () => {
    const text =
      "version: 1\nname: x\nnodes:\n  a:\n    kind: agnet\n    prompt: hi\n  b:\n    kind: agent\n    needs: [a]\n    prompt: '{{ nodes.a.output }}'\n";
    expect(lines(text)).toEqual(['5:11 unknown node kind "agnet" (did you mean agent?)']);
  });

  test("even when every node is refused, references between them are still checked", () => {
    const text = "version: 1\nname: x\nnodes:\n  a:\n    kind: agnet\n  b:\n    kind: agent\n    needs: [c]\n    promt: hi\n";
    expect(lines(text)).toEqual([
      '5:11 unknown node kind "agnet" (did you mean agent?)',
      '8:13 unknown node "c" in needs',
      '9:5 unknown field "promt" in node "b" (did you mean prompt?)',
    ]);
  });

  test("semantic problems elsewhere are reported in the same run", () => {
    const text =
      "version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    prompt: hi\n    caps: { turns: 0 }\n  b:\n    kind: agent\n    needs: [zz]\n    prompt: hi\n";
    expect(lines(text)).toEqual(["7:20 turns must be greater than zero", '10:13 unknown node "zz" in needs']);
  });

  test("a refused field is cut narrowly: the same node's templates are still checked", () => {
    const text = "version: 1\nname: x\nnodes:\n  a:\n    kind: agent\n    harness: claud\n    prompt: '{{ inputs.q }}'\n";
    expect(lines(text)).toEqual([expect.stringMatching(/^6:14 harness must be one of/), '7:14 {{ inputs.q }}: no input "q"']);
  });

  test("a refused router still orders the nodes it routes to (no false 'not upstream')", () => {
    const text = [
      "version: 1",
      "name: x",
      "nodes:",
      "  r:",
      "    kind: router",
      "    routes:",
      "      - when: { nodes.r.output: { matches: '(' } }",
      "        to: [b]",
      "  b:",
      "    kind: agent",
      "    prompt: '{{ nodes.r.status }}'",
    ].join("\n");
    const found = lines(text);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^7:\d+ routes\[0\]\.when: invalid regular expression/);
  });
});
