// The validator never suggests a need that would make a cycle (issue 27 item 18):
// "add X to the needs of Y" only when X does not already run after Y. Test first:
// each case below was told to add the need that makes the cycle.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { problems } from "./helpers.ts";

const hints = (text: string) => problems(text).map((p) => p.hint ?? "");
const CYCLE = /would make a cycle: move this to a node that runs after "b"$/;

describe("a read of a node that runs after the reader", () => {
  test("a template: the hint says it would make a cycle", () => {
    const g =
      'version: 1\nname: c\nnodes:\n  a: { kind: agent, prompt: "use {{ nodes.b.output }}" }\n  b: { kind: agent, needs: [a], prompt: b }\n';
    expect(hints(g)).toEqual([expect.stringMatching(CYCLE)]);
  });
  test("through another node, in a condition", () => {
    const g =
      "version: 1\nname: c\nnodes:\n  a: { kind: agent, prompt: a, when: { nodes.b.status: passed } }\n  m: { kind: agent, needs: [a], prompt: m }\n  b: { kind: agent, needs: [m], prompt: b }\n";
    expect(hints(g)).toEqual([expect.stringMatching(CYCLE)]);
  });
  test("a session to continue", () => {
    const g =
      "version: 1\nname: c\nnodes:\n  a: { kind: agent, prompt: a, session: { continue: b } }\n  b: { kind: agent, needs: [a], prompt: b }\n";
    expect(hints(g)).toEqual([expect.stringMatching(CYCLE)]);
  });
  test("where adding the need is right, the hint still says to add it", () => {
    const g = 'version: 1\nname: c\nnodes:\n  a: { kind: agent, prompt: "use {{ nodes.b.output }}" }\n  b: { kind: agent, prompt: b }\n';
    expect(hints(g)).toEqual(['add b to the needs of "a"']);
  });
});

test("property: following an 'add X to the needs of Y' hint never makes a cycle", () => {
  const ids = ["a", "b", "c", "d", "e"];
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), { maxLength: 6 }),
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 4 }),
      (edges, reader, read) => {
        // Only edges from a later id to an earlier one: the graph itself has no cycle.
        const needs = new Map(ids.map((id) => [id, new Set<string>()]));
        for (const [x, y] of edges) if (x > y) needs.get(ids[x]!)!.add(ids[y]!);
        const line = (id: string, prompt: string, extra?: { id: string; need: string }) => {
          const n = [...needs.get(id)!, ...(extra && extra.id === id ? [extra.need] : [])];
          return `  ${id}: { kind: agent, prompt: "${prompt}"${n.length ? `, needs: [${n.join(", ")}]` : ""} }\n`;
        };
        const text = (extra?: { id: string; need: string }) =>
          `version: 1\nname: p\nnodes:\n${ids
            .map((id) => line(id, id === ids[reader] && reader !== read ? `{{ nodes.${ids[read]}.output }}` : id, extra))
            .join("")}`;
        const got = loadGraph("g.yaml", text()).problems;
        for (const p of got) {
          const m = /^add (\w+) to the needs of "(\w+)"$/.exec(p.hint ?? "");
          if (!m) continue;
          const after = loadGraph("g.yaml", text({ id: m[2]!, need: m[1]! })).problems;
          expect(
            after.some((q) => q.message.includes("cycle")),
            `${p.hint}\n${text()}`,
          ).toBe(false);
        }
      },
    ),
    { numRuns: 300 },
  );
});
