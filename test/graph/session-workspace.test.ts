// Sessions (ADR 0023) meeting worktrees (ADR 0020): the CLIs keep a session
// under the folder it ran in (claude: ~/.claude/projects/<cwd>/), and every
// worktree node works in a folder of its own (.vouch/worktrees/<run>/<node>), so
// a session can be continued or forked only between two nodes of the shared
// folder. The same `cwd` text is not the same folder once either has a worktree.
import { expect, test } from "vitest";
import { lines, withNodes } from "./helpers.ts";

const pair = (x: string, y: string, head = "") =>
  withNodes(`  x: { kind: agent, prompt: p${x} }\n  y: { kind: agent, prompt: q, needs: [x], session: { continue: x }${y} }\n`, head);

test("continue or fork from a worktree node, into one, or between two worktrees: refused at the session field", () => {
  const WT = ", workspace: { mode: worktree }";
  for (const [x, y] of [
    [WT, ""],
    ["", WT],
    [WT, WT],
    [WT, ", workspace: { from: x }"],
  ]) {
    const got = lines(pair(x!, y!)).filter((l) => l.includes("session."));
    expect(got.length, `${x} | ${y}`).toBe(1);
    expect(got[0]).toMatch(/^5:\d+ session\.continue: .*worktree.*the CLIs keep sessions per folder/);
  }
  const fork = lines(pair(WT, "").replace("continue: x", "fork: x")).filter((l) => l.includes("session."));
  expect(fork).toEqual([expect.stringMatching(/session\.fork: .*worktree/)]);
});

test("defaults.workspace puts every agent in a worktree: refused too; a node opting back to shared with its upstream is fine", () => {
  expect(lines(pair("", "", "defaults:\n  workspace: { mode: worktree }\n")).filter((l) => l.includes("session."))).toHaveLength(1);
  const shared = ", workspace: { mode: shared }";
  expect(lines(pair(shared, shared, "defaults:\n  workspace: { mode: worktree }\n"))).toEqual([]);
  expect(lines(pair("", ""))).toEqual([]);
});
