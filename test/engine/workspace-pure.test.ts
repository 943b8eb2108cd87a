// The pure parts of workspaces (ADR 0020): protect globs, branch and folder
// names, and the load-time rules that need no git.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { compileGlob, matching } from "../../src/engine/workspace/glob.ts";
import { BadWorkspaceName, branchName, keptBranchName, worktreePath } from "../../src/engine/workspace/names.ts";
import { workspaceOf } from "../../src/engine/workspace/spec.ts";
import { graphOf } from "./helpers/run-helper.ts";

const test1 = (glob: string, path: string) => {
  const g = compileGlob(glob);
  if (!g.ok) throw new Error(g.reason);
  return g.test(path);
};

describe("protect globs", () => {
  test.each([
    ["test/**", "test/a.sh", true],
    ["test/**", "test/deep/er/a.sh", true],
    ["test/**", "tests/a.sh", false],
    ["test/**", "src/test/a.sh", false],
    ["**/test/**", "test/a.sh", true],
    ["**/test/**", "pkg/x/test/a.sh", true],
    ["*.sh", "a.sh", true],
    ["*.sh", "dir/a.sh", false],
    ["scripts/*", "scripts/a/b", false],
    ["a?.txt", "ab.txt", true],
    ["a?.txt", "a/.txt", false],
    ["[ab].txt", "a.txt", true],
    ["[!ab].txt", "a.txt", false],
    ["[!ab].txt", "c.txt", true],
    ["a.b", "axb", false],
    ["(x)+", "(x)+", true],
    [".github/**", ".github/workflows/ci.yml", true],
  ])("%s against %s: %s", (glob, path, expected) => {
    expect(test1(glob, path)).toBe(expected);
  });

  test("refused: empty, absolute, negated, backslash, dot folders, partial **, unclosed class", () => {
    for (const bad of ["", " ", "/x", "!x", "a\\b", "a/./b", "../x", "a**", "x/**y/z", "test/[ab", "a//b", "a/"]) {
      expect(compileGlob(bad).ok, bad).toBe(false);
    }
  });

  test("property: a literal path (no glob characters) matches itself and nothing else of the same set", () => {
    const seg = fc.stringMatching(/^[a-z0-9_.-]{1,8}$/).filter((s) => s !== "." && s !== "..");
    const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((p) => p.join("/"));
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(test1(a, a)).toBe(true);
        expect(test1(a, b)).toBe(a === b);
      }),
    );
  });

  test("property: dir/** matches exactly the paths under dir", () => {
    const seg = fc.stringMatching(/^[a-z]{1,4}$/);
    fc.assert(
      fc.property(seg, fc.array(seg, { minLength: 1, maxLength: 4 }), (dir, rest) => {
        const p = rest.join("/");
        expect(test1(`${dir}/**`, p)).toBe(rest.length > 1 && rest[0] === dir);
      }),
    );
  });

  test("hostile globs cannot make matching slow: many ** and * against long paths (a backtracking matcher never returns)", () => {
    const deep = Array.from({ length: 300 }, () => "a").join("/");
    expect(test1(Array.from({ length: 30 }, () => "**").join("/") + "/x", deep)).toBe(false);
    expect(test1("**/a/**/a/**/a/**/a/**/b", deep)).toBe(false);
    expect(test1("a*a*a*a*a*a*a*a*a*a*b", "a".repeat(5000))).toBe(false);
  });

  test("a trailing ** is what is inside the folder, not the folder's own name", () => {
    expect(test1("test/**", "test")).toBe(false);
    expect(test1("**", "x")).toBe(true);
    expect(test1("a/**/b", "a/b")).toBe(true);
  });

  test("matching keeps only what some glob matches", () => {
    expect(matching(["test/a", "src/b", "scripts/c"], ["test/**", "scripts/*"].map(compileGlob))).toEqual(["test/a", "scripts/c"]);
  });
});

describe("names", () => {
  test("branches and folders of top-level and map-branch nodes", () => {
    expect(branchName("r1", "impl")).toBe("vouch/r1/impl");
    expect(branchName("r1", "work", { map: "each", index: 3 })).toBe("vouch/r1/each/3/work");
    expect(worktreePath("/repo/", "r1", "work", { map: "each", index: 3 })).toBe("/repo/.vouch/worktrees/r1/each/3/work");
    expect(keptBranchName("vouch/r1/impl", 2)).toBe("vouch/r1/impl@2");
    // A node inside a sub-graph (a prefixed id): one folder per part.
    expect(branchName("r1", "review/fix")).toBe("vouch/r1/review/fix");
  });
  test("hostile parts are refused, never turned into a path or an option", () => {
    for (const bad of ["..", "../x", "-rf", ".git", "", "a b", "x\n", "__proto__/..", "a//b", "/a", "a/-b"]) {
      expect(() => branchName(bad, "n"), bad).toThrow(BadWorkspaceName);
      expect(() => worktreePath("/r", "run", bad), bad).toThrow(BadWorkspaceName);
    }
    expect(() => branchName("a/b", "n")).toThrow(BadWorkspaceName);
    expect(() => branchName("r", "n", { map: "-m", index: 0 })).toThrow(BadWorkspaceName);
  });
});

describe("settings and load-time rules", () => {
  test("agent nodes inherit defaults.workspace key by key; scripts never do; from ignores the default mode and base", () => {
    const g = graphOf(`
version: 1
name: w
defaults:
  workspace: { mode: worktree, base: main, protect: ["test/**"] }
nodes:
  a: { kind: agent, prompt: a, workspace: { keep: always } }
  s: { kind: script, run: "true", needs: [a] }
  b: { kind: agent, prompt: b, needs: [a], workspace: { from: a } }
  c: { kind: agent, prompt: c, workspace: { mode: shared } }
`);
    expect(workspaceOf(g, g.nodes.a!)).toEqual({ base: "main", protect: ["test/**"], keep: "always" });
    expect(workspaceOf(g, g.nodes.s!)).toBeNull();
    expect(workspaceOf(g, g.nodes.b!)).toEqual({ base: "HEAD", protect: ["test/**"], keep: "on_failure", from: "a" });
    expect(workspaceOf(g, g.nodes.c!)).toBeNull();
  });

  const problems = (yaml: string) => {
    const r = loadGraph("g.yaml", yaml);
    return r.graph ? [] : r.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
  };

  test("from inside a map branch names a node of the same branch; an outer node is not in scope", () => {
    const ok = `version: 1
name: w
inputs: { items: { default: [1] } }
nodes:
  outer: { kind: agent, prompt: o, workspace: { mode: worktree } }
  each:
    kind: map
    needs: [outer]
    over: inputs.items
    branch:
      impl: { kind: agent, prompt: i, workspace: { mode: worktree } }
      review: { kind: agent, prompt: r, needs: [impl], workspace: { from: impl } }
      bad: { kind: agent, prompt: r, workspace: { from: outer } }
`;
    expect(problems(ok)).toEqual([`13:57: workspace.from names "outer", which is not a node of map "each"'s branch`]);
  });

  test("from with a mode or base of its own, from naming itself, and a script continuing from an agent", () => {
    expect(
      problems(`version: 1
name: w
nodes:
  a: { kind: agent, prompt: a, workspace: { mode: worktree } }
  b: { kind: agent, prompt: b, needs: [a], workspace: { from: a, base: main } }
  c: { kind: agent, prompt: c, workspace: { mode: worktree, from: c } }
  s: { kind: script, run: "true", needs: [a], workspace: { from: a } }
`),
    ).toEqual([
      "5:63: workspace.from continues another node's worktree: it takes no mode or base of its own",
      "6:67: workspace.from continues another node's worktree: it takes no mode or base of its own",
      '6:67: workspace.from names "c", which is not upstream of "c"',
    ]);
  });
  test("a base git would read as an option is refused, on the node and in defaults", () => {
    expect(
      problems(`version: 1
name: w
defaults: { workspace: { base: --all } }
nodes:
  a: { kind: agent, prompt: a, workspace: { mode: worktree, base: -x } }
`).map((l) => l.replace(/^\d+:\d+: /, "")),
    ).toEqual([
      'base "--all" starts with "-": git would read it as an option',
      'base "-x" starts with "-": git would read it as an option',
    ]);
  });
});
