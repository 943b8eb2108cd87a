// A `kind: merge` over a map whose branches ran on workers (ADR 0029): the branches
// are on the remote, so the merge fetches vouch/<run>/* into the coordinator's
// repository first — and only then; a failed fetch is an error, never a verdict.
import { expect, test } from "vitest";
import type { GitPort, MergePort, RemoteWorkspace } from "../../src/engine/ports.ts";
import { finishedOf, run } from "./helpers/run-helper.ts";

const hex = (n: number) => n.toString(16).padStart(40, "0");
const REMOTE: RemoteWorkspace = { url: "/srv/app.git", remote: "upstream", bases: [{ ref: "HEAD", commit: hex(1) }], prefix: "" };

function fakes(fetchFails = false) {
  const calls: string[] = [];
  const git = {
    repoRoot: async () => "/repo",
    cwdPrefix: async () => "",
    resolveCommit: async () => hex(1),
    branchExists: async (_r: string, b: string) => (calls.push(`exists ${b}`), false),
    branchSubject: async () => null,
    diffStat: async () => ({ filesChanged: 0, insertions: 0, deletions: 0 }),
  } as unknown as GitPort;
  const merge: MergePort = {
    mergeCommit: async () => ({ merged: false, paths: [], source: hex(2) }),
    fetchRunBranches: async (root, remote, runId) => {
      calls.push(`fetch ${root} ${remote} ${runId}`);
      if (fetchFails)
        throw Object.assign(new Error("git fetch failed (exit 128): fatal: could not read from remote"), { name: "GitError" });
    },
  };
  return { ports: { git, merge }, calls };
}

const GRAPH = (from: string) => `
version: 1
name: m
inputs: { xs: { default: [1, 2] } }
nodes:
  a: { kind: script, run: "true" }
  each:
    kind: map
    over: inputs.xs
    branch:
      w: { kind: script, run: "true" }
  integrate:
    kind: merge
    needs: [a, each]
    from: ${from}
`;

test("over a map, with branches on workers: the run's branches are fetched from the remote before any is looked at", async () => {
  const f = fakes();
  await run(GRAPH("each"), { ports: f.ports, options: { remoteWorkspace: REMOTE } });
  expect(f.calls[0]).toBe("fetch /repo upstream run-test");
  expect(f.calls.filter((c) => c.startsWith("fetch"))).toHaveLength(1);
});

test("no fetch when no branch ran on a worker, or when the merge reads only top-level nodes", async () => {
  const local = fakes();
  await run(GRAPH("each"), { ports: local.ports });
  const topLevel = fakes();
  const r = await run(GRAPH("[a]"), { ports: topLevel.ports, options: { remoteWorkspace: REMOTE } });
  expect([...local.calls, ...topLevel.calls].filter((c) => c.startsWith("fetch"))).toEqual([]);
  // a was looked at: it recorded no commit (no worktree), so it is left out.
  expect((finishedOf(r.events, "integrate").output as { left_out: unknown[] }).left_out).toEqual([
    { branch: "vouch/run-test/a", from: "a", reason: "no_branch", paths: [] },
  ]);
});

test("a fetch that fails ends the merge as an error naming it", async () => {
  const f = fakes(true);
  const r = await run(GRAPH("each"), { ports: f.ports, options: { remoteWorkspace: REMOTE } });
  const m = finishedOf(r.events, "integrate");
  expect(m.status).toBe("error");
  expect(m.cause).toBe("harness_error");
  expect(m.error).toContain("could not read from remote");
});
