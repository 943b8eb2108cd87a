// --executor (ADR 0026) meeting worktrees (ADR 0020): workers cannot run a node in
// a worktree, so a branch node that gets one is refused at load. `defaults.workspace`
// gives every agent node one (branch agents too), not only a node's own `workspace:`.
import { expect, test } from "vitest";
import { refuseForWorkers } from "../../src/cli/executor-option.ts";
import { graphSchema } from "../../src/engine/graph/schema.ts";

const mapOf = (branch: Record<string, unknown>, defaults?: Record<string, unknown>) =>
  graphSchema.parse({ version: 1, name: "g", ...(defaults ? { defaults } : {}), nodes: { each: { kind: "map", over: "inputs.x", branch } } });

test("a branch agent inheriting defaults.workspace: { mode: worktree } is refused, as one with its own workspace is", () => {
  const inherited = mapOf({ work: { kind: "agent", prompt: "p" } }, { workspace: { mode: "worktree" } });
  expect(() => refuseForWorkers(inherited, "redis://h:1")).toThrow(/each\.branch\.work has a workspace/);
  expect(() => refuseForWorkers(mapOf({ work: { kind: "agent", prompt: "p", workspace: { mode: "worktree" } } }), "redis://h:1")).toThrow(/has a workspace/);
});

test("a node that works in the shared folder is not refused: scripts do not inherit defaults.workspace, and mode: shared opts out", () => {
  expect(() => refuseForWorkers(mapOf({ s: { kind: "script", run: "true" } }, { workspace: { mode: "worktree" } }), "redis://h:1")).not.toThrow();
  expect(() => refuseForWorkers(mapOf({ w: { kind: "agent", prompt: "p", workspace: { mode: "shared" } } }, { workspace: { mode: "worktree" } }), "redis://h:1")).not.toThrow();
  expect(() => refuseForWorkers(mapOf({ w: { kind: "agent", prompt: "p", workspace: { mode: "shared" } } }), "redis://h:1")).not.toThrow();
});

test("a branch agent that continues or forks an outer node's session is refused: that session is on the coordinator's machine", () => {
  const g = (session: Record<string, string>) =>
    graphSchema.parse({ version: 1, name: "g", nodes: { plan: { kind: "agent", prompt: "p" }, each: { kind: "map", needs: ["plan"], over: "inputs.x", branch: { a: { kind: "agent", prompt: "p" }, work: { kind: "agent", prompt: "p", needs: ["a"], session } } } } });
  expect(() => refuseForWorkers(g({ fork: "plan" }), "redis://h:1")).toThrow(/each\.branch\.work forks the session of "plan", outside the branch/);
  // A session of the same branch runs on the same worker.
  expect(() => refuseForWorkers(g({ continue: "a" }), "redis://h:1")).not.toThrow();
});
