// Load-time rules of sealed checks and witnesses (ADR 0043, 0044): their globs
// mean one thing or are refused, and a witnessed check on a node with no base
// (the shared folder) is refused with what to do.
import { expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";

const problems = (yaml: string) => {
  const r = loadGraph("g.yaml", yaml);
  return r.graph ? [] : r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
};

test("a witnessed check on a node in the shared folder is refused, named where the node lists it; in a worktree it is fine", () => {
  const yaml = `version: 1
name: w
checks:
  t: { run: "true", witness: fails_on_base }
nodes:
  a: { kind: script, run: "true", success: { checks: [t] } }
  b: { kind: agent, prompt: b, workspace: { mode: worktree }, success: { checks: [t, { name: u, run: "true", witness: fails_on_base }] } }
`;
  expect(problems(yaml)).toEqual([
    '6:55: check "t" is witnessed (witness: fails_on_base), which runs it on the base first, and node "a" has no base: it works in the shared folder',
  ]);
  expect(
    problems(yaml.replace("success: { checks: [t] } }\n  b", "workspace: { mode: worktree }, success: { checks: [t] } }\n  b")),
  ).toEqual([]);
});

test("from_base, from_result and deps globs are held to protect's rules, each named by its field", () => {
  const yaml = `version: 1
name: g
checks:
  t: { run: "true", from_base: ["/abs"], from_result: ["a/**b"] }
nodes:
  a: { kind: agent, prompt: a, workspace: { mode: worktree, deps: ["!x"] }, success: { checks: [t] } }
`;
  expect(problems(yaml)).toEqual([
    '4:33: from_base glob "/abs" is not valid: a glob is relative to the repository root: drop the leading /',
    '4:56: from_result glob "a/**b" is not valid: ** must be a whole folder name (dir/**/x), not part of one',
    '6:68: deps glob "!x" is not valid: a glob cannot negate (!): list the paths it should match instead',
  ]);
});
