// --executor (ADR 0026) meeting worktrees (ADR 0020, 0029): a branch node with a worktree
// makes the run need the repository's remote (its base refs are collected); one continuing
// a worktree outside its branch is refused at load. `defaults.workspace` gives every agent
// node one (branch agents too), not only a node's own `workspace:`.
import { expect, test } from "vitest";
import { refuseForWorkers } from "../../src/cli/executor-option.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";
import { branchBases } from "../../src/workspace/remote-workspace.ts";

const mapOf = (branch: Record<string, unknown>, defaults?: Record<string, unknown>) =>
  graphSchema.parse({
    version: 1,
    name: "g",
    ...(defaults ? { defaults } : {}),
    nodes: { each: { kind: "map", over: "inputs.x", branch } },
  });

test("a branch agent inheriting defaults.workspace: { mode: worktree } needs the repository on workers, as one with its own workspace does (ADR 0029)", () => {
  const inherited = mapOf({ work: { kind: "agent", prompt: "p" } }, { workspace: { mode: "worktree", base: "main" } });
  expect(() => refuseForWorkers(inherited, "redis://h:1")).not.toThrow();
  expect(branchBases(inherited, "redis://h:1")).toEqual(["main"]);
  expect(branchBases(mapOf({ work: { kind: "agent", prompt: "p", workspace: { mode: "worktree" } } }), "redis://h:1")).toEqual(["HEAD"]);
});

test("a branch node continuing a worktree outside its branch is refused: that worktree is on the coordinator's machine", () => {
  const g = graphSchema.parse({
    version: 1,
    name: "g",
    nodes: {
      impl: { kind: "agent", prompt: "p", workspace: { mode: "worktree" } },
      each: {
        kind: "map",
        needs: ["impl"],
        over: "inputs.x",
        branch: {
          a: { kind: "agent", prompt: "p", workspace: { mode: "worktree" } },
          review: { kind: "script", run: "true", needs: ["a"], workspace: { from: "impl" } },
        },
      },
    },
  });
  expect(() => branchBases(g, "redis://h:1")).toThrow(/each\.branch\.review continues the worktree of "impl", outside the branch/);
  // Continuing a worktree of the same branch is fine: it is on the same worker.
  const inside = graphSchema.parse({
    version: 1,
    name: "g",
    nodes: {
      each: {
        kind: "map",
        over: "inputs.x",
        branch: {
          a: { kind: "agent", prompt: "p", workspace: { mode: "worktree" } },
          review: { kind: "script", run: "true", needs: ["a"], workspace: { from: "a" } },
        },
      },
    },
  });
  expect(branchBases(inside, "redis://h:1")).toEqual(["HEAD"]);
});

test("a node that works in the shared folder is not refused: scripts do not inherit defaults.workspace, and mode: shared opts out", () => {
  expect(branchBases(mapOf({ s: { kind: "script", run: "true" } }, { workspace: { mode: "worktree" } }), "redis://h:1")).toEqual([]);
  expect(
    branchBases(
      mapOf({ w: { kind: "agent", prompt: "p", workspace: { mode: "shared" } } }, { workspace: { mode: "worktree" } }),
      "redis://h:1",
    ),
  ).toEqual([]);
  expect(branchBases(mapOf({ w: { kind: "agent", prompt: "p", workspace: { mode: "shared" } } }), "redis://h:1")).toEqual([]);
});

test("a branch agent that continues or forks an outer node's session is refused: that session is on the coordinator's machine", () => {
  const g = (session: Record<string, string>) =>
    graphSchema.parse({
      version: 1,
      name: "g",
      nodes: {
        plan: { kind: "agent", prompt: "p" },
        each: {
          kind: "map",
          needs: ["plan"],
          over: "inputs.x",
          branch: { a: { kind: "agent", prompt: "p" }, work: { kind: "agent", prompt: "p", needs: ["a"], session } },
        },
      },
    });
  expect(() => refuseForWorkers(g({ fork: "plan" }), "redis://h:1")).toThrow(
    /each\.branch\.work forks the session of "plan", outside the branch/,
  );
  // A session of the same branch runs on the same worker.
  expect(() => refuseForWorkers(g({ continue: "a" }), "redis://h:1")).not.toThrow();
});
