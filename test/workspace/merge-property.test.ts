// A property over generated branch manipulations (issue 27, ADR 0044), on real
// repositories through the engine with the real git ports: three agent nodes in
// trees of their own, one after another, then a merge of all three. Each
// sitting writes its own file and then does some of: move, delete, switch,
// detach or re-point — its own branch and git dir, or an earlier node's (already
// judged). A node that does not pass is recovered (`exhausted:`), so the merge
// always runs. Whatever it did: a node that moved its own records is an error
// (workspace_error); the merge merges exactly the commits the passed nodes
// recorded, in order, and the merged tree is exactly their merge; the user's
// branches are untouched.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, expect, test } from "vitest";
import { systemClock } from "../../src/engine/clock.ts";
import type { EventOf } from "../../src/engine/events.ts";
import { runGraph } from "../../src/engine/run.ts";
import { realGit } from "../../src/workspace/git.ts";
import { realMerge } from "../../src/workspace/merge-git.ts";
import { vouchGitDir } from "../../src/workspace/tree.ts";
import { CheckingLedger, FakeAgentRunner, FakeApprovals, FakeCommandRunner } from "../engine/helpers/fakes.ts";
import { graphOf } from "../engine/helpers/run-helper.ts";
import { git, makeRepo } from "./git-repo.ts";

const NODES = ["a", "b", "c"] as const;
type Node = (typeof NODES)[number];
const KINDS = ["move", "delete", "switch", "detach", "repoint"] as const;
type Kind = (typeof KINDS)[number];
interface Manipulation {
  /** Whose records: the sitting's own node, or an earlier one (by how far back). */
  back: number;
  kind: Kind;
}

const GRAPH = graphOf(`
version: 1
name: merge-property
concurrency: 1
defaults: { workspace: { mode: worktree, protect: ["test/**"], keep: always } }
nodes:
  a: { kind: agent, prompt: a, exhausted: { output: lost } }
  b: { kind: agent, prompt: b, needs: [a], exhausted: { output: lost } }
  c: { kind: agent, prompt: c, needs: [b], exhausted: { output: lost } }
  join: { kind: merge, needs: [a, b, c], from: [a, b, c] }
`);

const made: string[] = [];
afterAll(() => {
  for (const r of made) rmSync(r, { recursive: true, force: true });
});

function manipulate(repo: string, run: string, node: Node, kind: Kind): void {
  const tree = `${repo}/.vouch/worktrees/${run}/${node}`;
  const ref = `refs/heads/vouch/${run}/${node}`;
  const own = vouchGitDir(tree);
  const gitIn = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  try {
    if (kind === "move") {
      // An unjudged commit: the protected test replaced, unrelated to the node's work.
      const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], { cwd: repo, input: "exit 0\n", encoding: "utf8" }).trim();
      const t = execFileSync("git", ["mktree"], { cwd: repo, input: `100644 blob ${blob}\thas.sh\n`, encoding: "utf8" }).trim();
      const top = execFileSync("git", ["mktree"], { cwd: repo, input: `040000 tree ${t}\ttest\n`, encoding: "utf8" }).trim();
      const c = execFileSync("git", ["commit-tree", top, "-m", "unjudged"], { cwd: repo, encoding: "utf8", env: ENV }).trim();
      gitIn("update-ref", ref, c);
    } else if (kind === "delete") gitIn("update-ref", "-d", ref);
    else if (kind === "switch") writeFileSync(`${own}/HEAD`, "ref: refs/heads/main\n");
    else if (kind === "detach") writeFileSync(`${own}/HEAD`, `${gitIn("rev-parse", "main").trim()}\n`);
    else writeFileSync(`${own}/commondir`, "/tmp\n");
  } catch {
    // An earlier manipulation took what this one needs (a deleted branch moves no more): nothing happens.
  }
}

const ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

const plan = fc.record({
  a: fc.array(fc.record({ back: fc.constant(0), kind: fc.constantFrom(...KINDS) }), { maxLength: 2 }),
  b: fc.array(fc.record({ back: fc.integer({ min: 0, max: 1 }), kind: fc.constantFrom(...KINDS) }), { maxLength: 2 }),
  c: fc.array(fc.record({ back: fc.integer({ min: 0, max: 2 }), kind: fc.constantFrom(...KINDS) }), { maxLength: 2 }),
});

test("the merged tree is exactly the judged commits' merge, or the node is an error; the user's branches are untouched", async () => {
  await fc.assert(
    fc.asyncProperty(plan, async (p: Record<Node, Manipulation[]>) => {
      const repo = makeRepo({ "test/has.sh": "test -f a.txt\n", "README.md": "the user's\n" }, "vouch-mprop-");
      made.push(repo);
      const userRefs = git(repo, "for-each-ref", "--format=%(refname) %(objectname)");
      const base = git(repo, "rev-parse", "HEAD").trim();
      const run = `r${made.length}`;
      const agents = new FakeAgentRunner((a) => {
        const me = a.node as Node;
        writeFileSync(`${a.workspace}/${me}.txt`, `${me}'s work\n`);
        for (const m of p[me]) manipulate(repo, run, NODES[NODES.indexOf(me) - m.back]!, m.kind);
        return {};
      });
      const ledger = new CheckingLedger();
      await runGraph({
        runId: run,
        graph: GRAPH,
        graphPath: `${repo}/graph.yaml`,
        graphDigest: "sha256:test",
        inputs: {},
        baseDir: repo,
        version: "0.0.0-test",
        ports: {
          agents,
          commands: new FakeCommandRunner(),
          approvals: new FakeApprovals(),
          ledger,
          clock: systemClock,
          git: realGit,
          merge: realMerge,
        },
      });
      const done = (id: string) =>
        ledger.events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished" && e.node === id).at(-1)!;
      // A node that moved its own records while it sat is an error; one that did not passed.
      for (const id of NODES) {
        const self = p[id].some((m) => m.back === 0);
        expect(done(id).status, `${id}: ${JSON.stringify(p)}`).toBe(self ? "error" : "passed");
        if (self) expect(done(id).cause).toBe("workspace_error");
      }
      const join = done("join");
      const passed = NODES.filter((id) => done(id).status === "passed");
      if (join.status !== "error") {
        const out = join.output as { merged: { from: string; commit: string }[]; commit: string };
        expect(out.merged.map((m) => [m.from, m.commit])).toEqual(passed.map((id) => [id, done(id).workspace!.commit]));
        if (passed.length === 0) expect(join).toMatchObject({ status: "failed", cause: "nothing_to_merge" });
        else {
          const files = git(repo, "ls-tree", "-r", "--name-only", out.commit).trim().split("\n").sort();
          expect(files).toEqual(["README.md", "test/has.sh", ...passed.map((id) => `${id}.txt`)].sort());
          for (const id of passed) expect(git(repo, "show", `${out.commit}:${id}.txt`)).toBe(`${id}'s work\n`);
          expect(git(repo, "show", `${out.commit}:test/has.sh`)).toBe("test -f a.txt\n");
          expect(git(repo, "merge-base", "--is-ancestor", base, out.commit)).toBe("");
        }
      }
      // Nothing but vouch's own branches changed in the user's repository.
      const notVouch = (refs: string) =>
        refs.split("\n").filter((l) => !l.startsWith("refs/heads/vouch/") && !l.startsWith("refs/replace/"));
      expect(notVouch(git(repo, "for-each-ref", "--format=%(refname) %(objectname)"))).toEqual(notVouch(userRefs));
      expect(git(repo, "rev-parse", "HEAD").trim()).toBe(base);
    }),
    { numRuns: 12 },
  );
}, 240_000);
