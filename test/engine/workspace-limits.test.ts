// Worktrees (ADR 0020) meeting usage limits (ADR 0022), with a fake GitPort: a
// limited sitting's edits are committed on the node's branch before the attempt
// is held; waiting (--wait-limits) goes on in the same worktree, so the next
// attempt sees them; a pause keeps them on the branch, and resume sets that
// branch aside (<branch>@1) and starts afresh from base like any node that runs again.
import { expect, test } from "vitest";
import type { Sitting } from "../../src/engine/ports.ts";
import { priorFromEvents } from "../../src/engine/run/resume.ts";
import { FAKE_BASE, FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";
import { finishedOf, ofType, run } from "./helpers/run-helper.ts";

const WT = `${FAKE_ROOT}/.vouch/worktrees/run-test/impl`;
const G = `version: 1\nname: ws\nnodes:\n  impl: { kind: agent, prompt: implement, workspace: { mode: worktree } }\n`;
const limited: Partial<Sitting> = {
  stopReason: "rate_limited",
  resultText: "",
  turns: 1,
  costUsd: 0,
  exitCode: 1,
  error: "claude hit a usage or rate limit",
};

function agentsOn(git: FakeGit, seen: (string | undefined)[]) {
  let n = 0;
  return (a: { workspace?: string }) => {
    seen.push(git.worktrees.get(a.workspace!)!.files.get("src/a.ts"));
    git.edit(a.workspace!, "src/a.ts", `sitting ${++n}`);
    return n === 1 ? limited : {};
  };
}

test("--wait-limits: the attempt after the limit works on in the same worktree and sees the limited sitting's edits", async () => {
  const git = new FakeGit();
  const seen: (string | undefined)[] = [];
  const r = await run(G, { git, agents: agentsOn(git, seen), options: { waitLimits: true } });
  expect(finishedOf(r.events, "impl").status).toBe("passed");
  expect(git.calls.filter((c) => c.startsWith(`add ${WT} `))).toHaveLength(1);
  expect(seen).toEqual(["a", "sitting 1"]); // "a" is the base commit's file
  expect(ofType(r.events, "node.limited")).toHaveLength(1);
});

test("a pause keeps the limited sitting's edits committed on the branch; resume sets it aside and starts from base", async () => {
  const git = new FakeGit();
  const seen: (string | undefined)[] = [];
  const agents = agentsOn(git, seen);
  const first = await run(G, { git, agents });
  expect(first.outcome).toMatchObject({ status: "paused", exitCode: 4 });
  expect(git.commits.get(git.branches.get("vouch/run-test/impl")!)!.get("src/a.ts")).toBe("sitting 1");
  expect(git.worktrees.has(WT)).toBe(true); // keep: on_failure keeps a held node's worktree
  const second = await run(G, { git, agents, options: { resume: priorFromEvents(first.events) } });
  expect(finishedOf(second.events, "impl").status).toBe("passed");
  expect(seen).toEqual(["a", "a"]);
  expect(git.commits.get(git.branches.get("vouch/run-test/impl@1")!)!.get("src/a.ts")).toBe("sitting 1");
  expect(finishedOf(second.events, "impl").workspace!.base).toBe(FAKE_BASE);
});
