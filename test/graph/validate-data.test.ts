// Rules about data paths (templates, conditions, over, verdict) and commands.
// Each refusal has a passing twin, so a rule that refuses everything fails too.
import { describe, expect, test } from "vitest";
import { lines, problems, withNodes } from "./helpers.ts";

const msgs = (text: string) => lines(text).map((l) => l.replace(/^\d+:\d+ /, ""));

describe("template roots", () => {
  test("inputs.X must be declared, with did-you-mean and the declared names as hint", () => {
    const text = withNodes("  a:\n    kind: agent\n    prompt: '{{ inputs.topc }} {{ inputs.topic }}'\n", "inputs:\n  topic: {}\n");
    const p = problems(text);
    expect(p.map((x) => `${x.line}:${x.col} ${x.message}`)).toEqual(['8:14 {{ inputs.topc }}: no input "topc" (did you mean topic?)']);
    expect(p[0]!.hint).toBe("declared inputs: topic");
  });

  test("nodes.X must be upstream — through needs, a router's route, or being X's fallback", () => {
    const ok = withNodes(
      [
        "  a: { kind: agent, prompt: a, fallback: f }",
        "  f: { kind: end, output: '{{ nodes.a.error }}' }",
        "  r: { kind: router, needs: [a], routes: [{ when: { nodes.a.status: passed }, to: [t] }] }",
        "  t: { kind: agent, prompt: '{{ nodes.a.output }} {{ nodes.r.status }}' }",
      ].join("\n") + "\n",
    );
    expect(lines(ok)).toEqual([]);
    const bad = withNodes("  a: { kind: agent, prompt: a }\n  b: { kind: agent, prompt: '{{ nodes.a.output }}' }\n");
    const p = problems(bad);
    expect(p.map((x) => x.message)).toEqual(['{{ nodes.a.output }}: "a" is not upstream of "b", so its result is not there yet']);
    expect(p[0]!.hint).toBe('add a to the needs of "b"');
  });

  test("a node may not read its own result; nodes.X needs a part; the parts are checked", () => {
    const text = withNodes(
      "  a: { kind: agent, prompt: a }\n  b: { kind: agent, needs: [a], prompt: '{{ nodes.b.output }} {{ nodes.a }} {{ nodes.a.result }}' }\n",
    );
    expect(msgs(text)).toEqual([
      '{{ nodes.b.output }}: node "b" cannot read its own result here',
      '{{ nodes.a }}: say which part of node "a": nodes.a.output, nodes.a.status, nodes.a.error',
      '{{ nodes.a.result }}: node "a" has no "result"',
    ]);
  });

  test("a map's results: results[i] fields and output.{results,counts}", () => {
    const head = "inputs:\n  xs: { default: [1] }\n";
    const map = "  m: { kind: map, over: inputs.xs, branch: { one: { kind: agent, prompt: x } } }\n";
    const ok = withNodes(
      map + "  e: { kind: end, needs: [m], output: ['{{ nodes.m.results.0.verdict }}', '{{ nodes.m.output.counts }}'] }\n",
      head,
    );
    expect(lines(ok)).toEqual([]);
    const bad = withNodes(
      map + "  e: { kind: end, needs: [m], output: ['{{ nodes.m.results.0.verdit }}', '{{ nodes.m.output.total }}'] }\n",
      head,
    );
    expect(msgs(bad)).toEqual([
      '{{ nodes.m.results.0.verdit }}: a map result has no "verdit" (did you mean verdict?)',
      '{{ nodes.m.output.total }}: the output of map "m" is { results, counts }; it has no "total"',
    ]);
  });

  test("item, index and the as-name exist in a branch only; error in exhausted only", () => {
    const head = "inputs:\n  xs: { default: [1] }\n";
    const ok = withNodes(
      "  m:\n    kind: map\n    over: inputs.xs\n    as: x\n    branch:\n      one: { kind: agent, prompt: '{{ x }} {{ index }}', exhausted: { output: '{{ error }} {{ x.id }}' } }\n",
      head,
    );
    expect(lines(ok)).toEqual([]);
    const bad = withNodes("  a: { kind: agent, prompt: '{{ x }} {{ index }} {{ error }}' }\n", head);
    expect(msgs(bad)).toEqual([
      '{{ x }}: unknown name "x"',
      '{{ index }}: "index" exists only inside a map branch',
      '{{ error }}: "error" exists only inside exhausted: { output }',
    ]);
  });

  test("a branch node reads its map's ancestors and earlier branch nodes, and is told to fix the map's needs", () => {
    const head = "inputs:\n  xs: { default: [1] }\n";
    const text = withNodes(
      [
        "  up: { kind: agent, prompt: up }",
        "  side: { kind: agent, prompt: side }",
        "  m:",
        "    kind: map",
        "    needs: [up]",
        "    over: inputs.xs",
        "    branch:",
        "      one: { kind: agent, prompt: '{{ nodes.up.output }}' }",
        "      two: { kind: agent, needs: [one], prompt: '{{ nodes.one.output }} {{ nodes.side.output }} {{ nodes.m.results }}' }",
      ].join("\n") + "\n",
      head,
    );
    const p = problems(text);
    expect(p.map((x) => x.message)).toEqual([
      '{{ nodes.side.output }}: "side" is not upstream of "two", so its result is not there yet',
      '{{ nodes.m.results }}: the results of map "m" are not there while its branch runs',
    ]);
    expect(p[0]!.hint).toBe('add side to the needs of map "m"');
  });

  test("defaults may read inputs only (they apply to every node)", () => {
    const text = withNodes(
      "  a: { kind: agent, prompt: a }\n",
      "inputs:\n  dir: {}\ndefaults:\n  cwd: '{{ inputs.dir }}/{{ nodes.a.output }}'\n",
    );
    expect(msgs(text)).toEqual(["{{ nodes.a.output }}: defaults apply to every node, so they may read inputs only"]);
  });

  test("a template into a text output or past a closed output schema is refused", () => {
    const text = withNodes(
      [
        "  t: { kind: agent, prompt: t }",
        "  j: { kind: agent, prompt: j, output: { format: json, schema: { type: object, additionalProperties: false, properties: { a: { type: string } } } } }",
        "  o: { kind: agent, prompt: j, output: { format: json, schema: { type: object, properties: { a: { type: string } } } } }",
        "  u: { kind: agent, needs: [t, j, o], prompt: '{{ nodes.t.output.x }} {{ nodes.j.output.b }} {{ nodes.j.output.a.c }} {{ nodes.o.output.anything }}' }",
      ].join("\n") + "\n",
    );
    expect(msgs(text)).toEqual([
      '{{ nodes.t.output.x }}: the output of "t" is text (it has no output: { format: json }), so it has no field "x"',
      '{{ nodes.j.output.b }}: the output schema of "j" has no field "b"',
      '{{ nodes.j.output.a.c }}: the output schema of "j" types a as string, which has no field "c"',
    ]);
  });
});

describe("conditions", () => {
  test("when, route and feedback conditions use the same roots; feedback.when may read its own node", () => {
    const ok = withNodes(
      [
        "  a: { kind: agent, prompt: a }",
        "  b: { kind: agent, needs: [a], prompt: b, when: { nodes.a.status: passed }, feedback: { to: a, max: 1, when: { nodes.b.output: { matches: bad } } } }",
        "  r: { kind: router, needs: [b], routes: [{ when: { nodes.b.status: failed }, to: [c] }] }",
        "  c: { kind: agent, prompt: c }",
      ].join("\n") + "\n",
    );
    expect(lines(ok)).toEqual([]);
    const bad = withNodes(
      [
        "  a: { kind: agent, prompt: a, when: { nodes.a.status: passed } }",
        "  r: { kind: router, routes: [{ when: { any: [{ item: 1 }] }, to: [a] }] }",
      ].join("\n") + "\n",
    );
    expect(lines(bad)).toEqual([
      '4:40 condition path nodes.a.status: node "a" cannot read its own result here',
      '5:49 condition path item: "item" exists only inside a map branch',
    ]);
  });
});

describe("map over and verdict", () => {
  const head = "inputs:\n  text: { required: true }\n  list: { default: [1, 2] }\n  obj: { default: { a: 1 } }\n";
  const map = (id: string, over: string, extra = "") =>
    `  ${id}: { kind: map, over: ${over}, branch: { ${id}_b: { kind: agent, prompt: x } }${extra} }\n`;

  test("over a text input, a list input, an array field, a map's results: fine", () => {
    const text = withNodes(
      map("m1", "inputs.text") +
        map("m2", "inputs.list") +
        "  p: { kind: agent, prompt: p, output: { format: json, schema: { type: object, properties: { xs: { type: array } } } } }\n" +
        map("m3", "nodes.p.output.xs", ", needs: [p]") +
        map("m4", "nodes.m3.results", ", needs: [m3]") +
        map("m5", "nodes.m3.output.results", ", needs: [m3]") +
        "  s: { kind: script, run: ls }\n" +
        map("m6", "nodes.s.output.files", ", needs: [s]"),
      head,
    );
    expect(lines(text)).toEqual([]);
  });

  test("over something that cannot be a list is refused, each with its reason", () => {
    const text = withNodes(
      map("m1", "inputs.obj") +
        "  t: { kind: agent, prompt: t }\n" +
        map("m2", "nodes.t.output", ", needs: [t]") +
        "  p: { kind: agent, prompt: p, output: { format: json, schema: { type: object, properties: { n: { type: number } } } } }\n" +
        map("m3", "nodes.p.output.n", ", needs: [p]") +
        map("m4", "nodes.m3.output.counts", ", needs: [m3]") +
        map("m5", "nodes.p.status", ", needs: [p]") +
        map("m6", "nodes.p.output.xs") +
        map("m7", "index") +
        "  s: { kind: script, run: ls, output: { format: text } }\n" +
        map("m8", "nodes.s.output", ", needs: [s]") +
        map("m9", "inputs.list.0"),
      head,
    );
    expect(msgs(text)).toEqual([
      'over inputs.obj: the default of input "obj" is neither text nor a list',
      'over nodes.t.output cannot name a list: the output of agent "t" is text (no output: { format: json })',
      'over nodes.p.output.n cannot name a list: the output schema of "p" types n as number',
      'over nodes.m3.output.counts cannot name a list: the list of map "m3" is nodes.m3.results',
      "over nodes.p.status cannot name a list: nodes.p.status is text",
      'over nodes.p.output.xs: "p" is not upstream of "m6", so its result is not there yet',
      'over must start with inputs. or nodes., not "index"',
      'over nodes.s.output cannot name a list: the output of script "s" is text (output: { format: text })',
      "over inputs.list.0: name one input, as inputs.NAME",
    ]);
  });

  test("verdict starts with output, status, item, index or error", () => {
    expect(lines(withNodes(map("m", "inputs.list", ", verdict: output.verdict"), head))).toEqual([]);
    expect(msgs(withNodes(map("m", "inputs.list", ", verdict: outptu.verdict"), head))).toEqual([
      'verdict: "outptu.verdict" must start with output, status, item, index, error (did you mean output?)',
    ]);
  });
});

describe("commands", () => {
  test("no template anywhere in run: or argv:, with the environment variable to use instead", () => {
    const text = withNodes(
      "  s: { kind: script, run: 'echo {{ inputs.x }}' }\n  t: { kind: script, argv: [echo, '{{ index }}'] }\n",
      "inputs:\n  x: {}\n",
    );
    const p = problems(text);
    expect(p.map((x) => `${x.line}:${x.col} ${x.message}`)).toEqual([
      "6:33 a template in a run: command is refused",
      "7:36 a template in a argv: command is refused",
    ]);
    expect(p[0]!.hint).toMatch(
      /^read "\$VOUCH_INPUT_X" instead \(or the file "\$VOUCH_INPUT_X_FILE": a large value is only there\); .*VOUCH_ITEM_FILE.*VOUCH_STATE_FILE/,
    );
  });

  test("a command using the environment is fine", () => {
    expect(lines(withNodes("  s: { kind: script, run: 'echo \"$VOUCH_INPUT_X\"' }\n", "inputs:\n  x: {}\n"))).toEqual([]);
  });

  test("origin: planned refuses every run:/argv:, library checks included; origin: user allows them", () => {
    const body =
      "  s: { kind: script, argv: [ls] }\n  a: { kind: agent, prompt: a, workspace: { mode: worktree }, success: { checks: [lib, { name: i, run: ls }] } }\n";
    const head = (origin: string) => `origin: ${origin}\nchecks:\n  lib: { run: make }\n`;
    expect(lines(withNodes(body, head("user")))).toEqual([]);
    expect(msgs(withNodes(body, head("planned")))).toEqual([
      "run: commands are refused in a planned graph (origin: planned)",
      "argv: commands are refused in a planned graph (origin: planned)",
      "run: commands are refused in a planned graph (origin: planned)",
    ]);
  });

  test("check names exist in the library; regular expressions compile", () => {
    const text = withNodes(
      "  a: { kind: agent, prompt: a, success: { result_matches: '[', checks: [test, tests, { name: x, run: ls, expect: { output_matches: '(' } }] } }\n",
      "checks:\n  tests: { run: make }\n",
    );
    expect(msgs(text)).toEqual([
      expect.stringMatching(/^result_matches is not a valid regular expression: /),
      'unknown check "test" (did you mean tests?)',
      expect.stringMatching(/^output_matches is not a valid regular expression: /),
    ]);
  });
});
