// Whose branches a merge node touches, through the binary (issue 27 items 1 and 3):
// an `into` that names a branch this run did not make is refused before any git
// write (a literal one before the run starts, exit 2; a templated one when the
// node runs, an error) and the user's branches and HEAD stay as they were; passed
// work whose branch is gone is an error, never "no upstream work passed".
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBinary } from "../graph/binary.ts";
import { fingerprint, git, makeRepo } from "../workspace/git-repo.ts";
import { finished, ofType, vouch } from "../shipped/run-shipped.ts";

beforeAll(() => {
  ensureBinary();
}, 60_000);

const AGENT = { VOUCH_COMMAND: '["sh", "-c", "echo work > a.txt"]' };

function graphIn(repo: string, text: string): string {
  const file = join(repo, "g.yaml");
  writeFileSync(file, text);
  git(repo, "add", "g.yaml");
  git(repo, "commit", "--quiet", "-m", "graph");
  return file;
}

const MERGE = (into: string, head = "") => `version: 1
name: into
${head}nodes:
  a: { kind: agent, prompt: a, harness: command, workspace: { mode: worktree } }
  j: { kind: merge, needs: [a], from: [a], ${into} }
`;

const branches = (repo: string) => git(repo, "for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads/").trim();

describe("into names a branch this run did not make (item 1)", () => {
  test("a literal into: main is refused before the run starts, at the field; main and HEAD untouched", () => {
    const repo = makeRepo({ "README.md": "mine\n" });
    const file = graphIn(repo, MERGE("into: main"));
    const before = { refs: branches(repo), print: fingerprint(repo) };
    const r = vouch(["run", file, "--json"], { cwd: repo, env: AGENT });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /g\.yaml:5:\d+: into "main" names a branch this run did not make: vouch never renames or moves a branch it did not make/,
    );
    expect(r.stdout).toBe("");
    expect(branches(repo)).toBe(before.refs);
    expect(fingerprint(repo)).toEqual(before.print);
    expect(git(repo, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
  });

  test("a templated into that renders to the user's checked-out branch is the merge's error, before any git write", () => {
    const repo = makeRepo({ "README.md": "mine\n" });
    const file = graphIn(repo, MERGE('into: "{{ inputs.target }}"', "inputs:\n  target: { default: main }\n"));
    const before = fingerprint(repo);
    const r = vouch(["run", file, "--json"], { cwd: repo, env: AGENT });
    expect(r.exitCode, r.stderr).toBe(3);
    const j = ofType(r.events, "node.finished").find((e) => e.node === "j")!;
    expect(j.status).toBe("error");
    expect(j.error).toBe('into "main" names a branch this run did not make: vouch never renames or moves a branch it did not make');
    // Nothing was renamed: no main@1, main where it was, HEAD still names main.
    const refs = branches(repo);
    expect(refs).not.toContain("main@1");
    expect(refs).toMatch(new RegExp(`^main ${before.ref.trim()}$`, "m"));
    expect(git(repo, "symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");
    expect(fingerprint(repo)).toEqual(before);
  });

  test("the user's into of a new name is made; a resumed run may rename its own merge's earlier branch", () => {
    const repo = makeRepo({ "README.md": "mine\n" });
    const file = graphIn(
      repo,
      MERGE("into: integration, success: { checks: [never] }").replace("nodes:", "checks:\n  never: { run: 'false' }\nnodes:"),
    );
    const r = vouch(["run", file, "--json"], { cwd: repo, env: AGENT });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(branches(repo)).toMatch(/^integration /m);
    const again = vouch(["resume", finished(r.events).run, "--json"], { cwd: repo, env: AGENT, home: r.home });
    expect(again.exitCode, again.stderr).toBe(1);
    expect(branches(repo)).toMatch(/^integration@1 /m);
    expect(branches(repo)).toMatch(/^integration /m);
  });
});

// Items 2 and 3: a branch deleted after its node passed loses nothing. The merge takes the commit
// vouch recorded and judged (node.finished.workspace.commit), never what a branch names now, so the
// deleted branch's work is merged all the same (before item 2 this was failed/nothing_to_merge,
// then error/workspace_error "the branch of passed work is gone").
test("passed work whose branch was deleted before the merge: the judged commit is merged (items 2, 3)", () => {
  const repo = makeRepo({ "README.md": "mine\n" });
  // The node's tree is a tree of its own (ADR 0041), not registered in .git/worktrees: its branch
  // is checked out nowhere git knows of, so a plain branch -D deletes it.
  const lose = `git branch -D "vouch/$VOUCH_RUN_ID/a" >/dev/null`;
  const file = graphIn(
    repo,
    `version: 1\nname: lost\nnodes:\n  a: { kind: agent, prompt: a, harness: command, workspace: { mode: worktree } }\n  lose: { kind: script, needs: [a], run: '${lose}' }\n  j: { kind: merge, needs: [lose], from: [a] }\n`,
  );
  const r = vouch(["run", file, "--json"], { cwd: repo, env: AGENT });
  expect(r.exitCode, r.stderr).toBe(0);
  const done = ofType(r.events, "node.finished");
  const judged = (done.find((e) => e.node === "a")!.workspace as { commit: string }).commit;
  const j = done.find((e) => e.node === "j")!;
  expect(j).toMatchObject({ status: "passed" });
  expect((j.output as { merged: { commit: string }[] }).merged.map((m) => m.commit)).toEqual([judged]);
});

// Issue 27, done-when: the user's branches are untouched unless the run made them. Generated:
// which user branches exist, which is checked out (or a detached HEAD), and what `into` names
// (one of the user's branches, a new name, the run's namespace, a template rendering to either).
test("property: whatever into names, every branch the run did not make keeps its commit, and HEAD stays", async () => {
  const fc = (await import("fast-check")).default;
  const USER = ["main", "feature", "release/1"];
  await fc.assert(
    fc.asyncProperty(
      fc.subarray(USER.slice(1)),
      fc.constantFrom(...USER, "detached"),
      fc.constantFrom("main", "feature", "release/1", "integration", "vouch/{{ run.id }}/merged", "{{ inputs.target }}"),
      fc.constantFrom("main", "feature", "fresh-one"),
      async (extra, checkedOut, into, target) => {
        const repo = makeRepo({ "README.md": "mine\n" });
        for (const b of extra) git(repo, "branch", b);
        const file = graphIn(repo, MERGE(`into: ${JSON.stringify(into)}`, `inputs:\n  target: { default: ${target} }\n`));
        const head = checkedOut === "detached" ? "detached" : extra.includes(checkedOut) || checkedOut === "main" ? checkedOut : "main";
        if (head === "detached") git(repo, "checkout", "--quiet", "--detach", "HEAD");
        else git(repo, "checkout", "--quiet", head);
        const before = branches(repo);
        const headBefore = git(repo, "rev-parse", "HEAD").trim();
        const symBefore = head === "detached" ? null : git(repo, "symbolic-ref", "HEAD").trim();
        const r = await vouch(["run", file, "--json"], { cwd: repo, env: AGENT });
        // Every branch there before is there, at the same commit; new ones are the run's.
        const after = branches(repo).split("\n");
        for (const line of before.split("\n")) expect(after, `${into} / ${target}`).toContain(line);
        for (const line of after.filter((l) => !before.split("\n").includes(l))) {
          const name = line.split(" ")[0]!;
          const rendered = into.replace("{{ inputs.target }}", target);
          expect(name.startsWith("vouch/") || name === rendered, name).toBe(true);
        }
        expect(git(repo, "rev-parse", "HEAD").trim()).toBe(headBefore);
        if (symBefore !== null) expect(git(repo, "symbolic-ref", "HEAD").trim()).toBe(symBefore);
        expect([0, 2, 3]).toContain(r.exitCode);
      },
    ),
    { numRuns: 12 },
  );
}, 180_000);
