// Load-time rules of `kind: merge` (ADR 0021): `from` names upstream work that
// has worktrees; base and a literal into are names git takes; the node kind is
// top level only.
import { describe, expect, test } from "vitest";
import { lines, withNodes } from "./helpers.ts";

const WORK = `  each:
    kind: map
    over: inputs.tasks
    branch:
      impl: { kind: agent, prompt: p, workspace: { mode: worktree } }
      review: { kind: agent, prompt: r, needs: [impl], workspace: { from: impl } }
  solo: { kind: agent, prompt: s, workspace: { mode: worktree } }
  shared: { kind: agent, prompt: s }
`;
const HEAD = "inputs: { tasks: { default: [a] } }\n";
const merge = (fields: string) => withNodes(`${WORK}  integrate:\n    kind: merge\n${fields}`, HEAD);

describe("kind: merge validation", () => {
  test("a map with worktree branches, or worktree nodes, upstream: valid", () => {
    expect(lines(merge("    needs: [each, solo]\n    from: each\n"))).toEqual([]);
    expect(lines(merge("    needs: [each, solo]\n    from: [solo]\n    into: feature/merged\n    base: main\n"))).toEqual([]);
  });

  test("from naming an unknown node, one not upstream, one without a worktree, or one twice", () => {
    expect(lines(merge("    needs: [each]\n    from: eahc\n"))).toEqual([
      expect.stringMatching(/from names "eahc", which is not a node of the graph \(did you mean each\?\)/),
    ]);
    expect(lines(merge("    needs: [each]\n    from: [each, solo]\n"))).toEqual([
      expect.stringMatching(/from names "solo", which is not upstream of "integrate"/),
    ]);
    expect(lines(merge("    needs: [shared]\n    from: [shared]\n"))).toEqual([
      expect.stringMatching(/from names "shared", which has no worktree/),
    ]);
    expect(lines(merge("    needs: [solo]\n    from: [solo, solo]\n"))).toEqual([expect.stringMatching(/from names "solo" twice/)]);
  });

  test("a map whose branch has no worktree node has nothing to merge", () => {
    const g = withNodes(
      "  m:\n    kind: map\n    over: inputs.tasks\n    branch:\n      x: { kind: agent, prompt: p }\n  integrate: { kind: merge, needs: [m], from: m }\n",
      HEAD,
    );
    expect(lines(g)).toEqual([expect.stringMatching(/from names map "m", whose branch has no node with a worktree/)]);
  });

  test("base or a literal into that git would read as an option or refuse; a templated into is checked at run time", () => {
    expect(lines(merge("    needs: [solo]\n    from: [solo]\n    base: --all\n"))).toEqual([
      expect.stringMatching(/base "--all" starts with "-"/),
    ]);
    expect(lines(merge("    needs: [solo]\n    from: [solo]\n    into: -D\n"))).toEqual([
      expect.stringMatching(/into "-D" starts with "-"/),
    ]);
    expect(lines(merge('    needs: [solo]\n    from: [solo]\n    into: "a..b"\n'))).toEqual([
      expect.stringMatching(/into "a..b" is not a name git accepts/),
    ]);
    expect(lines(merge('    needs: [solo]\n    from: [solo]\n    into: "vouch/{{ run.id }}/x"\n'))).toEqual([]);
  });

  test("from is required and a merge node may not sit in a map branch", () => {
    expect(lines(merge("    needs: [solo]\n")).join("\n")).toMatch(/from/);
    const inBranch = withNodes("  m:\n    kind: map\n    over: inputs.tasks\n    branch:\n      j: { kind: merge, from: [x] }\n", HEAD);
    expect(lines(inBranch).join("\n")).toMatch(/merge/);
  });

  test("a check a merge node names must be in the library", () => {
    expect(lines(merge("    needs: [solo]\n    from: [solo]\n    success: { checks: [nope] }\n"))).toEqual([
      expect.stringMatching(/unknown check "nope"/),
    ]);
  });
});
