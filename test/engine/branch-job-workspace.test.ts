// What a branch's job carries of the repository (ADR 0029): the remote and base commits
// only when one of its nodes works in a worktree (a worker without --workdir runs the others).
import { expect, test } from "vitest";
import { graphSchema, type MapNode } from "../../src/engine/graph/schema.ts";
import { branchJob } from "../../src/engine/run/branch-job.ts";
import type { RunContext } from "../../src/engine/run/context.ts";
import type { RemoteWorkspace } from "../../src/engine/ports.ts";

const REMOTE: RemoteWorkspace = { url: "/srv/app.git", remote: "origin", bases: [{ ref: "HEAD", commit: "a".repeat(40) }], prefix: "" };

test("a job gets the repository only when its branch has a worktree node (own workspace, or an agent's defaults.workspace)", () => {
  const graph = graphSchema.parse({
    version: 1,
    name: "g",
    defaults: { workspace: { mode: "worktree" } },
    inputs: { xs: { default: [1] } },
    nodes: {
      scripts: { kind: "map", over: "inputs.xs", branch: { s: { kind: "script", run: "true" } } },
      agents: { kind: "map", over: "inputs.xs", branch: { a: { kind: "agent", prompt: "p" } } },
      own: { kind: "map", over: "inputs.xs", branch: { s: { kind: "script", run: "true", workspace: { mode: "worktree" } } } },
    },
  });
  const ctx = {
    options: { runId: "r", graph, graphDigest: "d", graphPath: "g", baseDir: "/b", version: "v", remoteWorkspace: REMOTE },
    inputs: {},
    limits: { concurrency: 1 },
  } as unknown as RunContext;
  const job = (map: string) => branchJob(ctx, map, graph.nodes[map] as MapNode, 0, 1, {}, "redis");
  expect(job("scripts").workspace).toBeUndefined();
  expect(job("agents").workspace).toEqual(REMOTE);
  expect(job("own").workspace).toEqual(REMOTE);
  // A run with no branch on workers needing one carries none at all.
  const local = { ...ctx, options: { ...ctx.options, remoteWorkspace: undefined } } as unknown as RunContext;
  expect(branchJob(local, "own", graph.nodes.own as MapNode, 0, 1, {}, "redis").workspace).toBeUndefined();
});
