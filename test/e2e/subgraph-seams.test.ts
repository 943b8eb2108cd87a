// Sub-graphs (ADR 0024) meeting merge nodes (ADR 0021), through the real binary:
// a merge node runs at the top level only, so a sub-graph holding one may not sit
// in a map branch (there its branch names, worktree and `into` would be shared by
// every branch of the map).
import { afterAll, beforeAll, expect, test } from "vitest";
import { ensureBinary, tempDir, vouch } from "./helpers.ts";
import { folderIn } from "./subgraph-helpers.ts";

const dir = tempDir("subgraph-seams");
const folder = folderIn(dir.path);
beforeAll(() => ensureBinary());
afterAll(() => dir.cleanup());

const inner = `version: 1\nname: inner\nnodes:\n  a: { kind: agent, prompt: x, workspace: { mode: worktree } }\n  integrate: { kind: merge, needs: [a], from: [a] }\n`;

test("a sub-graph with a merge node inside a map branch is refused at load (exit 2), at the use, nested too", async () => {
  const c = folder({
    "top.yaml": `version: 1\nname: top\ninputs:\n  xs: { default: [1, 2] }\nnodes:\n  m:\n    kind: map\n    over: inputs.xs\n    branch:\n      s: { kind: graph, use: ./mid.yaml }\n`,
    "mid.yaml": `version: 1\nname: mid\nnodes:\n  deeper: { kind: graph, use: ./inner.yaml }\n`,
    "inner.yaml": inner,
    "flat.yaml": `version: 1\nname: flat\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`,
  });
  const v = await vouch(["validate", "top.yaml"], { home: c.home, cwd: c.path });
  expect(v.code).toBe(2);
  expect(v.stdout).toContain(
    'mid.yaml:4:31: node "deeper": sub-graph inner.yaml holds a merge node, and this node is inside a map branch: merge nodes run at the top level only',
  );
  // Outside a branch the same sub-graph is fine.
  const flat = await vouch(["validate", "flat.yaml"], { home: c.home, cwd: c.path });
  expect(flat.stdout + flat.stderr).not.toContain("merge nodes run at the top level only");
});
