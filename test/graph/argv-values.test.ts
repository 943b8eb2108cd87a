// A value vouch puts on a harness's command line never starts with "-"
// (issue 12 item 2): refused at load with file:line:col, whatever the origin.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { loadGraph } from "../../src/engine/graph/loader.ts";

function graph(origin: string, field: string, value: string, where: "node" | "defaults" | "branch"): { text: string; line: number } {
  const v = JSON.stringify(value);
  const setting = field === "tools" ? `tools: [Read, ${v}]` : `${field}: ${v}`;
  const head = `version: 1\nname: t\norigin: ${origin}\n`;
  if (where === "defaults") return { text: `${head}defaults:\n  ${setting}\nnodes:\n  a:\n    kind: agent\n    prompt: p\n`, line: 5 };
  if (where === "branch") {
    return {
      text: `${head}inputs:\n  xs: { default: [1] }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      b:\n        kind: agent\n        prompt: p\n        ${setting}\n`,
      line: 14,
    };
  }
  return {
    text: `${head}nodes:\n  a:\n    kind: agent\n    harness: gemini\n    prompt: p\n    ${setting}\n    workspace: { mode: worktree }\n`,
    line: 9,
  };
}

describe("argv values that look like flags", () => {
  test("property: model, tools and permission_mode starting with - are refused at their line, in planned and user graphs", () => {
    const flagLike = fc.tuple(fc.constantFrom("-", "--"), fc.stringMatching(/^[a-z][a-z-]{0,20}$/)).map(([d, s]) => d + s);
    fc.assert(
      fc.property(
        fc.constantFrom("planned", "user"),
        fc.constantFrom("model", "tools", "permission_mode"),
        flagLike,
        fc.constantFrom("node", "defaults", "branch"),
        (origin, field, value, where) => {
          const g = graph(origin, field, value, where as "node");
          const r = loadGraph("g.yaml", g.text);
          expect(r.graph).toBeNull();
          const label = field === "tools" ? "tool" : field;
          const mine = r.problems.filter((p) => p.message.startsWith(`${label} "${value}" starts with "-"`));
          expect(mine.map((p) => p.line)).toEqual([g.line]);
        },
      ),
      { numRuns: 80 },
    );
  });

  test("the named cases of the issue: gemini --yolo and claude --dangerously-skip-permissions", () => {
    for (const value of ["--yolo", "--dangerously-skip-permissions", "-y"]) {
      const r = loadGraph("g.yaml", graph("planned", "model", value, "node").text);
      expect(r.problems.map((p) => `${p.line}:${p.col} ${p.message.split(":")[0]}`)).toEqual([`9:12 model "${value}" starts with "-"`]);
    }
  });

  test("ordinary values, and a dash inside a value, still load", () => {
    for (const [field, value] of [
      ["model", "gemini-2.5-pro"],
      ["tools", "Bash(git diff --stat:*)"],
      ["permission_mode", "auto_edit"],
    ] as const) {
      expect(loadGraph("g.yaml", graph("user", field, value, "node").text).problems).toEqual([]);
    }
  });
});
