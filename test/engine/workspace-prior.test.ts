// The worktrees an earlier session recorded (workspace/prior.ts): each keeps its
// node's `keep`, found in the node's own graph file — a sub-graph's node too,
// in a map branch or not — so the run's end removes only what `keep` says.
import { expect, test } from "vitest";
import type { WorkspaceRecord } from "../../src/engine/events.ts";
import { walkNodes } from "../../src/engine/graph/graph-walk.ts";
import { priorWorkspaces } from "../../src/engine/workspace/prior.ts";
import { graphOf } from "./helpers/run-helper.ts";

const rec = (path: string): WorkspaceRecord => ({
  branch: "b",
  base: "c0",
  commit: "c1",
  files_changed: 0,
  insertions: 0,
  deletions: 0,
  path,
});

test("a node's keep comes from its own file: top graph, map branch, sub-graph, a sub-graph's map branch; unknown keys take the default", () => {
  const top = graphOf(`version: 1
name: t
inputs: { items: { default: [1] } }
nodes:
  impl: { kind: agent, prompt: i, workspace: { mode: worktree, keep: never } }
  each:
    kind: map
    over: inputs.items
    branch:
      b: { kind: agent, prompt: b, workspace: { mode: worktree, keep: always } }
  s: { kind: graph, use: ./inner.yaml }
`);
  const inner = graphOf(`version: 1
name: inner
inputs: { items: { default: [1] } }
defaults: { workspace: { mode: worktree, keep: always } }
nodes:
  impl: { kind: agent, prompt: i }
  each:
    kind: map
    over: inputs.items
    branch:
      b: { kind: agent, prompt: b, workspace: { mode: worktree, keep: never } }
`);
  const keys = ["impl", "each#0/b", "s/impl", "s/each#3/s/b", "gone"];
  const prior = priorWorkspaces(
    walkNodes(top, "/work/g.yaml", new Map([["/work/inner.yaml", inner]])),
    Object.fromEntries(keys.map((k) => [k, { qualifier: null, workspace: rec(`/r/${k}`) }])),
  );
  expect(Object.fromEntries([...prior].map(([k, p]) => [k, p.keep]))).toEqual({
    impl: "never",
    "each#0/b": "always",
    "s/impl": "always",
    "s/each#3/s/b": "never",
    gone: "on_failure",
  });
});
