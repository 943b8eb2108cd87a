// A merge node inside a sub-graph (ADRs 0021, 0024): `from` names nodes of the
// sub-graph's own file, whose worktree branches carry the sub-graph's prefix.
import { expect, test } from "vitest";
import { FakeCommandRunner } from "./helpers/fakes.ts";
import { FakeGit, FakeMerge } from "./helpers/fake-git.ts";
import { finishedOf, graphOf, run } from "./helpers/run-helper.ts";

function fakeGit() {
  const git = new FakeGit();
  const merge = new FakeMerge(git);
  return { git, merge };
}

/** Each script writes its own file in its worktree. */
function writers(g: ReturnType<typeof fakeGit>, onCheck?: ConstructorParameters<typeof FakeCommandRunner>[0]) {
  return new FakeCommandRunner(onCheck, (_s, ctx) => {
    g.git.edit(ctx.vars.VOUCH_WORKSPACE!, `${ctx.node}.txt`, ctx.node);
    return {};
  });
}

const WS = "workspace: { mode: worktree }";

test("a merge inside a sub-graph merges the sub-graph's own nodes (branches vouch/<run>/s/a, s/b)", async () => {
  const inner = `version: 1\nname: inner\nnodes:\n  a: { kind: script, run: "true", ${WS} }\n  b: { kind: script, run: "true", ${WS} }\n  integrate: { kind: merge, needs: [a, b], from: [a, b] }\n`;
  const g = fakeGit();
  const r = await run(`version: 1\nname: t\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
    commands: writers(g),
    ports: { git: g.git, merge: g.merge },
    options: { subgraphs: new Map([["/work/inner.yaml", graphOf(inner)]]) },
  });
  const f = finishedOf(r.events, "s/integrate");
  expect((f.output as { merged: { branch: string; commit: string }[] }).merged).toEqual([
    { branch: "vouch/run-test/s/a", from: "a", commit: finishedOf(r.events, "s/a").workspace!.commit },
    { branch: "vouch/run-test/s/b", from: "b", commit: finishedOf(r.events, "s/b").workspace!.commit },
  ]);
  expect(f.status).toBe("passed");
  expect((f.output as { merged: { from: string }[] }).merged.map((m) => m.from)).toEqual(["a", "b"]);
});

test("the merged tree is checked by the sub-graph's own named check, not one of the top graph's name", async () => {
  const inner = `version: 1\nname: inner\nchecks:\n  tests: { run: ./inner-tests }\nnodes:\n  a: { kind: script, run: "true", ${WS} }\n  integrate: { kind: merge, needs: [a], from: [a], success: { checks: [tests] } }\n`;
  const g = fakeGit();
  const commands = writers(g, (spec) => (spec.run === "./inner-tests" ? { passed: false, exit: 1 } : {}));
  const r = await run(`version: 1\nname: t\nchecks:\n  tests: { run: ./top-tests }\nnodes:\n  s: { kind: graph, use: ./inner.yaml }\n`, {
    commands,
    ports: { git: g.git, merge: g.merge },
    options: { subgraphs: new Map([["/work/inner.yaml", graphOf(inner)]]) },
  });
  expect(commands.checks.map((c) => c.spec.run)).toEqual(["./inner-tests"]);
  expect(finishedOf(r.events, "s/integrate")).toMatchObject({ status: "failed", cause: "check_failed" });
});
