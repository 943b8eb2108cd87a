// graphs/parallel-implement.yaml and `kind: merge` end to end through the real
// binary on real git repositories (ADR 0021): four recorded tasks whose edits
// are replayed into their own worktrees; the tampering one fails; the merge
// combines the passed branches in task order, leaves out and names the one that
// conflicts, runs the tests on the merged tree; the user's checkout is
// byte-for-byte unchanged (status, index, HEAD); a failed merge runs again on
// resume and keeps the earlier branch.
import { chmodSync, cpSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { commitFolder, fingerprint, git } from "../workspace/git-repo.ts";
import { PARALLEL_TASKS } from "./ndjson-golden.ts";
import { finished, GRAPHS, ofType, SAMPLE_REPO, vouch } from "./run-shipped.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

/** A git repository holding a copy of the sample project, one commit on main. */
function sampleRepo(): string {
  const repo = realpathSync(mkdtempSync(join(tmpdir(), "vouch-merge-e2e-")));
  cpSync(SAMPLE_REPO, repo, { recursive: true });
  commitFolder(repo);
  return repo;
}

const GRAPH = join(GRAPHS, "parallel-implement.yaml");
const runIt = (repo: string, extra: string[] = [], home?: string) =>
  vouch(
    ["run", GRAPH, "--harness", "replay", "-i", `tasks=${PARALLEL_TASKS.join("\n")}`, "-i", `project_dir=${repo}`, "--json", ...extra],
    { cwd: repo, ...(home ? { home } : {}) },
  );

describe("parallel-implement", () => {
  test("the passed branches merge in task order, the conflicting one is left out and named, the tampering one never reaches the merge; the checkout is unchanged", () => {
    const repo = sampleRepo();
    const before = fingerprint(repo);
    const r = runIt(repo);
    expect(r.exitCode, r.stderr).toBe(0);
    const run = r.events[0]!.run;
    const branch = (i: number) => `vouch/${run}/implement_each/${i}/implement`;

    // Each branch worked alone: its own commit has its own edit and none of the others'.
    expect(git(repo, "show", `${branch(0)}:src/cache.js`)).toContain("this.now() - entry.at > this.ttlMs) return undefined;");
    expect(git(repo, "show", `${branch(0)}:src/slug.js`)).toContain("[^a-z]+");
    expect(git(repo, "show", `${branch(1)}:src/slug.js`)).toContain("[^a-z0-9]+");
    expect(git(repo, "show", `${branch(1)}:src/cache.js`)).not.toContain("ttlMs) return undefined");

    const tampered = ofType(r.events, "node.finished").find((e) => e.branch?.index === 2)!;
    expect(tampered).toMatchObject({ status: "failed", cause: "tampered" });

    const merge = ofType(r.events, "node.finished").find((e) => e.node === "integrate")!;
    expect(merge).toMatchObject({ status: "passed", qualifier: "verified" });
    const out = merge.output as {
      branch: string;
      merged: { branch: string }[];
      left_out: { branch: string; reason: string; paths: string[] }[];
      not_passed: string[];
    };
    expect(out.branch).toBe(`vouch/${run}/merged`);
    expect(out.merged.map((m) => m.branch)).toEqual([branch(0), branch(1)]);
    expect(out.left_out).toEqual([{ branch: branch(3), from: "implement_each#3", reason: "merge_conflict", paths: ["src/cache.js"] }]);
    expect(out.not_passed).toEqual(["implement_each#2"]);
    expect(ofType(r.events, "merge.conflict")).toMatchObject([{ node: "integrate", git_branch: branch(3), paths: ["src/cache.js"] }]);

    // The merged branch holds both passed edits, the tests ran on it, and its worktree is gone.
    expect(git(repo, "show", `${out.branch}:src/cache.js`)).toContain("ttlMs) return undefined;");
    expect(git(repo, "show", `${out.branch}:src/slug.js`)).toContain("[^a-z0-9]+");
    expect(git(repo, "show", `${out.branch}:scripts/test`)).toBe(git(repo, "show", "main:scripts/test"));
    expect(
      ofType(r.events, "check.finished")
        .filter((c) => c.node === "integrate")
        .map((c) => `${c.name}:${c.passed}`),
    ).toEqual(["tests:true"]);
    expect(git(repo, "worktree", "list", "--porcelain")).not.toContain(`${run}/integrate`);
    expect(finished(r.events).output).toMatchObject({ handoff: "PARALLEL_IMPLEMENT", branch: out.branch });

    // vouch show lists the merge's branch and diff stat beside the branches', and --diff prints its patch.
    expect(vouch(["show", "last"], { home: r.home }).stdout).toMatch(new RegExp(`integrate +vouch/${run}/merged +2 files, \\+2 -1`));
    expect(vouch(["show", "last", "--diff", "integrate"], { home: r.home }).stdout).toContain('+    .replace(/[^a-z0-9]+/g, "-")');

    expect(fingerprint(repo)).toEqual(before);
    expect(git(repo, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
  });

  test("the plain output names the branch left out and why", () => {
    const repo = sampleRepo();
    const r = vouch(
      ["run", GRAPH, "--harness", "replay", "-i", `tasks=${PARALLEL_TASKS.join("\n")}`, "-i", `project_dir=${repo}`, "--plain"],
      { cwd: repo },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /⚠ integrate left out vouch\/\S+\/implement_each\/3\/implement \(implement_each#3\): merge_conflict in src\/cache\.js/,
    );
  });
});

describe("kind: merge on resume", () => {
  test("a merge whose checks failed runs again on resume; the earlier merged branch is kept as <into>@1", () => {
    const repo = sampleRepo();
    // The merged tree's check reads a flag outside the repository: off in the first session.
    const flag = join(mkdtempSync(join(tmpdir(), "vouch-merge-flag-")), "ok");
    const graph = join(mkdtempSync(join(tmpdir(), "vouch-merge-graph-")), "g.yaml");
    writeFileSync(
      graph,
      `version: 1
name: merge-resume
defaults: { harness: command, cwd: ${JSON.stringify(repo)}, workspace: { mode: worktree } }
nodes:
  a: { kind: agent, prompt: a }
  b: { kind: agent, prompt: b }
  join:
    kind: merge
    needs: [a, b]
    from: [a, b]
    success: { checks: [{ name: flag, run: ${JSON.stringify(`test -f ${flag} && test -f a.txt && test -f b.txt`)} }] }
`,
    );
    const writer = join(repo, "..", `writer-${Date.now()}.sh`);
    // The command harness hands the prompt on stdin: node a writes a.txt, b writes b.txt.
    writeFileSync(writer, '#!/bin/sh\nread -r name\necho "$name" > "$name.txt"\necho done\n');
    chmodSync(writer, 0o755);
    const env = { VOUCH_COMMAND: JSON.stringify([writer]) };
    const before = fingerprint(repo);
    const first = vouch(["run", graph, "--json"], { cwd: repo, env });
    expect(first.exitCode, first.stderr).toBe(1);
    const run = first.events[0]!.run;
    expect(ofType(first.events, "node.finished").find((e) => e.node === "join")).toMatchObject({ status: "failed", cause: "check_failed" });
    writeFileSync(flag, "");
    const second = vouch(["resume", run, "--json"], { cwd: repo, env, home: first.home });
    expect(second.exitCode, second.stderr).toBe(0);
    // a and b passed in the first session: they are kept, only the merge runs again.
    expect(ofType(second.events, "node.started").map((e) => e.node)).toEqual(["join"]);
    const branches = git(repo, "branch", "--list", `vouch/${run}/join*`, "--format=%(refname:short)").trim().split("\n");
    expect(branches.sort()).toEqual([`vouch/${run}/join`, `vouch/${run}/join@1`]);
    expect(git(repo, "ls-tree", "--name-only", `vouch/${run}/join`)).toMatch(/a\.txt\nb\.txt/);
    expect(fingerprint(repo)).toEqual(before);
  });
});
