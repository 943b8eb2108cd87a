// Rules about ids and edges: unknown ids by scope, cycles, fallback and
// feedback rules, end nodes, branch ids. Each rule also has a passing twin,
// so a rule that reports everything would fail here too.
import { describe, expect, test } from "vitest";
import { lines, problems, withNodes } from "./helpers.ts";

const agent = (id: string, extra = "") => `  ${id}:\n    kind: agent\n    prompt: ${id}\n${extra}`;

describe("references to nodes", () => {
  test("needs, routes, default, fallback and feedback.to must name existing nodes", () => {
    const text = withNodes(
      agent("a") +
        agent("b", "    needs: [a, nope]\n    fallback: gone\n    feedback: { to: nowhere, max: 1 }\n") +
        "  r:\n    kind: router\n    routes:\n      - when: { inputs.x: 1 }\n        to: [a, ghost]\n    default: [phantom]\n",
      "inputs:\n  x: { default: 1 }\n",
    );
    expect(lines(text)).toEqual([
      '12:16 unknown node "nope" in needs',
      '13:15 unknown node "gone" in fallback',
      '14:21 unknown node "nowhere" in feedback.to',
      '19:17 unknown node "ghost" in routes',
      '20:15 unknown node "phantom" in default',
    ]);
  });

  test("the same graph with the ids fixed has no problems", () => {
    const text = withNodes(
      agent("a") +
        agent("b", "    needs: [a]\n    fallback: c\n    feedback: { to: a, max: 1 }\n") +
        agent("c") +
        "  r:\n    kind: router\n    routes:\n      - when: { inputs.x: 1 }\n        to: [a]\n    default: [c]\n",
      "inputs:\n  x: { default: 1 }\n",
    );
    expect(lines(text)).toEqual([]);
  });

  test("an outer node needing a branch node is told to need the map", () => {
    const text = withNodes(
      "  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      inner: { kind: agent, prompt: hi }\n" +
        agent("after", "    needs: [inner]\n"),
      "inputs:\n  xs: { default: [1] }\n",
    );
    expect(lines(text)).toEqual(['14:13 "inner" is inside the branch of map "m"; needs cannot reach into a branch']);
  });
});

describe("cycles", () => {
  test("a cycle is printed once, from its first node in file order", () => {
    const text = withNodes(agent("x", "    needs: [z]\n") + agent("y", "    needs: [x]\n") + agent("z", "    needs: [y]\n"));
    expect(lines(text)).toEqual(["7:13 cycle in needs: x → z → y → x"]);
  });

  test("two separate cycles are two problems", () => {
    const text = withNodes(agent("a", "    needs: [b]\n") + agent("b", "    needs: [a]\n") + agent("c", "    needs: [c]\n"));
    expect(lines(text)).toEqual(["7:13 cycle in needs: a → b → a", "15:13 cycle in needs: c → c"]);
  });

  test("a router routing back to a node it needs is a cycle, named as such", () => {
    const router = "  r:\n    kind: router\n    needs: [a]\n    routes:\n      - when: { nodes.a.status: passed }\n        to: [a]\n";
    const found = problems(withNodes(agent("a") + router));
    expect(found.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual(["12:14 cycle in the graph: a → r → a"]);
    expect(found[0]!.hint).toContain("router r routes to a");
  });

  test("a diamond is not a cycle", () => {
    const text = withNodes(
      agent("a") + agent("b", "    needs: [a]\n") + agent("c", "    needs: [a]\n") + agent("d", "    needs: [b, c]\n"),
    );
    expect(lines(text)).toEqual([]);
  });

  test("a 2,000-node chain is checked without overflowing the stack", () => {
    const body = Array.from(
      { length: 2000 },
      (_, i) => `  n${i}: { kind: agent, prompt: p${i === 0 ? "" : `, needs: [n${i - 1}]`} }\n`,
    ).join("");
    expect(lines(withNodes(body))).toEqual([]);
    const cyclic = withNodes(body.replace("n0: { kind: agent, prompt: p }", "n0: { kind: agent, prompt: p, needs: [n1999] }"));
    expect(lines(cyclic)).toHaveLength(1);
  });
});

describe("ADR 0002 rules", () => {
  test("a fallback target may not have needs; a node may not have fallback and exhausted", () => {
    const text = withNodes(
      agent("a") +
        agent("b", "    needs: [a]\n    fallback: f\n    exhausted: { output: x }\n") +
        agent("f", "    needs: [a]\n") +
        agent("s", "    fallback: s\n"),
    );
    expect(lines(text)).toEqual([
      '12:5 node "b" has both fallback and exhausted; a node may have only one',
      '16:5 "f" is the fallback of "b" and may not have needs',
      "20:15 a node cannot be its own fallback",
    ]);
  });

  test("no node may need an end node", () => {
    const text = withNodes("  e:\n    kind: end\n" + agent("a", "    needs: [e]\n"));
    expect(lines(text)).toEqual(['9:13 "e" is an end node; no node may need an end node']);
  });

  test("feedback.to must be an ancestor, and not the node itself", () => {
    const text = withNodes(
      agent("a") +
        agent("b") +
        agent("c", "    needs: [a]\n    feedback: { to: b, max: 1 }\n") +
        agent("d", "    needs: [c]\n    feedback: { to: d, max: 1 }\n"),
    );
    expect(lines(text)).toEqual([
      '14:21 feedback.to "b" is not upstream of "c"; a feedback loop re-runs an ancestor',
      '19:21 feedback.to names the node itself; it must name an earlier node that "d" depends on',
    ]);
  });

  test("feedback.to an indirect ancestor is fine", () => {
    const text = withNodes(agent("a") + agent("b", "    needs: [a]\n") + agent("c", "    needs: [b]\n    feedback: { to: a, max: 2 }\n"));
    expect(lines(text)).toEqual([]);
  });

  test("node ids are unique across the outer graph and every branch", () => {
    const branch = (m: string, id: string) =>
      `  ${m}:\n    kind: map\n    over: inputs.xs\n    branch:\n      ${id}: { kind: agent, prompt: hi }\n`;
    const text = withNodes(agent("a") + branch("m1", "a") + branch("m2", "b") + branch("m3", "b"), "inputs:\n  xs: { default: [1] }\n");
    expect(lines(text)).toEqual([
      '13:7 node id "a" is already used by an outer node; node ids are unique in a file',
      '23:7 node id "b" is already used by a node in the branch of map "m2"; node ids are unique in a file',
    ]);
  });

  test("a map's branch may not be empty", () => {
    const text = withNodes("  m:\n    kind: map\n    over: inputs.xs\n    branch: {}\n", "inputs:\n  xs: { default: [1] }\n");
    expect(lines(text)).toEqual(['9:13 the branch of map "m" has no nodes']);
  });

  test("two inputs that reach commands as the same VOUCH_INPUT_ name are refused", () => {
    const text = withNodes(agent("a"), "inputs:\n  path: {}\n  PATH: {}\n");
    expect(lines(text)).toEqual(['5:3 inputs "path" and "PATH" would both reach commands as VOUCH_INPUT_PATH']);
  });

  test("an input named like another input's file variable (x and x_file) is refused", () => {
    const text = withNodes(agent("a"), "inputs:\n  review_File: {}\n  review: {}\n");
    expect(lines(text)).toEqual([
      '4:3 input "review_File" would reach commands as VOUCH_INPUT_REVIEW_FILE, the name of input "review"\'s file',
    ]);
  });
});
