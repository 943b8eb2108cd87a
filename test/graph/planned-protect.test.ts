// ADR 0047 (issue 27 item 5): a planned graph's agents work in worktrees where the
// files the user's checks run are protected. At load: an agent outside a worktree,
// a base the plan chose, and a checks file that does not say what its checks run
// are refused; the library's protect globs join every agent node's own.
import { describe, expect, test } from "vitest";
import type { ChecksReader } from "../../src/engine/graph/checks-library.ts";
import { loadGraph } from "../../src/engine/graph/loader.ts";
import { loadChecksFile } from "../../src/engine/graph/checks-file.ts";
import { workspaceOf } from "../../src/engine/workspace/spec.ts";

const files =
  (map: Record<string, string>): ChecksReader =>
  (p) =>
    p in map ? { text: map[p]! } : { error: `no such file ${p}` };
const at = (ps: { line: number; col: number; message: string }[]) => ps.map((p) => `${p.line}:${p.col} ${p.message}`);

const LIB = 'protect: ["scripts/**", test/run.sh]\nchecks:\n  tests: { run: ./scripts/test }\n';
const PLANNED = (nodes: string, head = "") =>
  `version: 1\nname: p\norigin: planned\nchecks_from: [./lib.checks.yaml]\n${head}nodes:\n${nodes}`;
const load = (text: string, lib = LIB) => loadGraph("g.yaml", text, { readChecks: files({ "lib.checks.yaml": lib }) });

describe("refused in a planned graph", () => {
  test("an agent node outside a worktree, at the node; in a map branch too", () => {
    const r = load(
      PLANNED(
        "  fix: { kind: agent, prompt: x, success: { checks: [tests] } }\n  each:\n    kind: map\n    over: inputs.xs\n    branch:\n      b: { kind: agent, prompt: y }\n",
        "inputs:\n  xs: { default: [1] }\n",
      ),
    );
    expect(at(r.problems)).toEqual([
      "8:3 agent node fix of a planned graph (origin: planned) must work in a worktree: only there are the files your checks run protected",
      "13:7 agent node b of a planned graph (origin: planned) must work in a worktree: only there are the files your checks run protected",
    ]);
  });

  test("a base chosen by the plan: a node's, the defaults', a merge node's", () => {
    const r = load(
      PLANNED(
        "  fix: { kind: agent, prompt: x, workspace: { base: vouch/old/fix } }\n  j: { kind: merge, needs: [fix], from: [fix], base: main }\n",
        "defaults:\n  workspace: { mode: worktree, base: HEAD~1 }\n",
      ),
    );
    expect(at(r.problems)).toEqual([
      '6:38 base "HEAD~1" is refused in a planned graph (origin: planned): its worktrees and merges start from your HEAD',
      '8:53 base "vouch/old/fix" is refused in a planned graph (origin: planned): its worktrees and merges start from your HEAD',
      '9:54 base "main" is refused in a planned graph (origin: planned): its worktrees and merges start from your HEAD',
    ]);
  });

  test("a checks file that says nothing of what its checks run, at its checks_from entry", () => {
    const r = load(
      PLANNED("  fix: { kind: agent, prompt: x, workspace: { mode: worktree } }\n"),
      "checks:\n  tests: { run: ./scripts/test }\n",
    );
    expect(at(r.problems)).toEqual([
      '4:15 checks file "./lib.checks.yaml" does not say which files its checks run (protect:): in a planned graph (origin: planned) an agent could rewrite them, and the check would run its words',
    ]);
  });

  test("the same graph written by the user is the user's business", () => {
    const text = PLANNED("  fix: { kind: agent, prompt: x, workspace: { base: main } }\n").replace("origin: planned", "origin: user");
    expect(load(text, "checks:\n  tests: { run: ./t }\n").problems).toEqual([]);
  });
});

describe("the library's protect joins every agent's", () => {
  test("added to the node's own globs or to those it inherits; on branch nodes and from-nodes too", () => {
    const r = load(
      PLANNED(
        [
          "  fix: { kind: agent, prompt: x, workspace: { mode: worktree, protect: [README.md] } }",
          "  review: { kind: agent, needs: [fix], prompt: y, workspace: { from: fix } }",
          "  each:",
          "    kind: map",
          "    over: inputs.xs",
          "    branch:",
          "      b: { kind: agent, prompt: z }",
          "",
        ].join("\n"),
        "inputs:\n  xs: { default: [1] }\ndefaults:\n  workspace: { mode: worktree, protect: [docs/**] }\n",
      ),
    );
    expect(r.problems).toEqual([]);
    const g = r.graph!;
    const protect = (n: Parameters<typeof workspaceOf>[1]) => workspaceOf(g, n)!.protect;
    expect(protect(g.nodes.fix!)).toEqual(["README.md", "scripts/**", "test/run.sh"]);
    expect(protect(g.nodes.review!)).toEqual(["docs/**", "scripts/**", "test/run.sh"]);
    const each = g.nodes.each!;
    if (each.kind !== "map") throw new Error("map");
    expect(protect(each.branch.b!)).toEqual(["docs/**", "scripts/**", "test/run.sh"]);
  });

  test("protect: [] says the checks run nothing from the tree: accepted, nothing added", () => {
    const r = load(
      PLANNED("  fix: { kind: agent, prompt: x, workspace: { mode: worktree } }\n"),
      'protect: []\nchecks:\n  t: { run: "true" }\n',
    );
    expect(r.problems).toEqual([]);
    expect(workspaceOf(r.graph!, r.graph!.nodes.fix!)!.protect).toEqual([]);
  });
});

test("a checks file's protect globs are checked as a worktree's are", () => {
  const r = loadChecksFile("lib.checks.yaml", 'protect: ["/abs", "a/../b", ok/**]\nchecks:\n  t: { run: "true" }\n');
  expect(at(r.problems)).toEqual([
    '1:11 protect glob "/abs" is not valid: a glob is relative to the repository root: drop the leading /',
    '1:19 protect glob "a/../b" is not valid: a glob may not contain . or .. folders',
  ]);
  expect(loadChecksFile("l.checks.yaml", "protect: [x]\nchecks: {}\n")).toMatchObject({ problems: [], protect: ["x"] });
});
