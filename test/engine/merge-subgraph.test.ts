// A merge node inside a sub-graph (ADRs 0021, 0024): `from` names nodes of the
// sub-graph's own file, whose worktree branches carry the sub-graph's prefix.
import { expect, test } from "vitest";
import type { GitPort, MergePort, MergeStep } from "../../src/engine/ports.ts";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { finishedOf, graphOf, run } from "./helpers/run-helper.ts";

const hex = (n: number) => n.toString(16).padStart(40, "0");

function fakeGit(branches: string[]) {
  const merged: string[] = [];
  const have = new Set(branches);
  let next = 100;
  const git = {
    repoRoot: async () => "/repo",
    cwdPrefix: async () => "",
    resolveCommit: async () => hex(1),
    branchExists: async (_r: string, b: string) => have.has(b),
    branchSubject: async (_r: string, b: string) => (have.has(b) ? "the user's work" : null),
    renameBranch: async () => {},
    removeWorktree: async () => {},
    hideVouchDir: async () => {},
    addWorktree: async (_r: string, _p: string, branch: string) => void have.add(branch),
    diffStat: async () => ({ filesChanged: 1, insertions: 1, deletions: 0 }),
  } as unknown as GitPort;
  const merge: MergePort = {
    mergeBranch: async (_r, _onto, branch): Promise<MergeStep> => {
      merged.push(branch);
      return { merged: true, commit: hex(next++), source: hex(next++) };
    },
  };
  return { git, merge, merged };
}

test("a merge inside a sub-graph merges the sub-graph's own nodes (branches vouch/<run>/s/a, s/b)", async () => {
  const inner = `version: 1\nname: inner\nnodes:\n  a: { kind: script, run: "true" }\n  b: { kind: script, run: "true" }\n  integrate: { kind: merge, needs: [a, b], from: [a, b] }\n`;
  const g = fakeGit(["vouch/run-test/s/a", "vouch/run-test/s/b"]);
  const r = await run(`version: 1\nname: t\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
    ports: { git: g.git, merge: g.merge },
    options: { subgraphs: new Map([["/work/inner.yaml", graphOf(inner)]]) },
  });
  const f = finishedOf(r.events, "s/integrate");
  expect(g.merged).toEqual(["vouch/run-test/s/a", "vouch/run-test/s/b"]);
  expect(f.status).toBe("passed");
  expect((f.output as { merged: { from: string }[] }).merged.map((m) => m.from)).toEqual(["a", "b"]);
});

test("the merged tree is checked by the sub-graph's own named check, not one of the top graph's name", async () => {
  const inner = `version: 1\nname: inner\nchecks:\n  tests: { run: ./inner-tests }\nnodes:\n  a: { kind: script, run: "true" }\n  integrate: { kind: merge, needs: [a], from: [a], success: { checks: [tests] } }\n`;
  const g = fakeGit(["vouch/run-test/s/a"]);
  const commands = new FakeCommandRunner((spec) => (spec.run === "./inner-tests" ? { passed: false, exit: 1 } : {}));
  const r = await run(`version: 1\nname: t\nchecks:\n  tests: { run: ./top-tests }\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
    commands,
    ports: { git: g.git, merge: g.merge },
    options: { subgraphs: new Map([["/work/inner.yaml", graphOf(inner)]]) },
  });
  expect(commands.checks.map((c) => c.spec.run)).toEqual(["./inner-tests"]);
  expect(finishedOf(r.events, "s/integrate")).toMatchObject({ status: "failed", cause: "check_failed" });
});
