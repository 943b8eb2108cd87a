// Worktrees through the real binary on real git repositories (issue 15, ADR 0020):
// parallel branches each in their own worktree, a protected test edited and
// failed as tampered, the user's checkout byte-for-byte unchanged, and the
// refusals before start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EventOf } from "../../src/engine/events.ts";
import { fingerprint, git } from "../workspace/git-repo.ts";
import { ensureBinary, parseNdjson, STACK_LINE, tempDir, vouch, type TempDir } from "./helpers.ts";
import { fixture, MAP_GRAPH, type Fixture } from "./workspace-fixture.ts";

let dir: TempDir;
beforeAll(() => {
  ensureBinary();
  dir = tempDir("worktrees");
}, 180_000);
afterAll(() => dir?.cleanup());

function finished(events: ReturnType<typeof parseNdjson>): EventOf<"node.finished">[] {
  return events.filter((e): e is EventOf<"node.finished"> => e.type === "node.finished");
}

describe("three parallel branches, one tampering", () => {
  let fx: Fixture;
  let events: ReturnType<typeof parseNdjson>;
  let code: number;
  let stderr: string;
  let before: ReturnType<typeof fingerprint>;
  let untouched: string;

  beforeAll(async () => {
    fx = fixture(dir.path);
    // The user's own uncommitted edit: a worktree from HEAD does not have it, and it stays as it is.
    writeFileSync(join(fx.repo, "README.md"), "the user's project, edited and not committed\n");
    untouched = readFileSync(join(fx.repo, "README.md"), "utf8");
    before = fingerprint(fx.repo);
    writeFileSync(join(dir.path, "map.yaml"), MAP_GRAPH);
    const r = await vouch(["run", join(dir.path, "map.yaml"), "--json"], { home: join(dir.path, "home1"), cwd: fx.repo, env: fx.env });
    ({ code, stderr } = r);
    events = parseNdjson(r.stdout);
  }, 120_000);

  test("the tampering branch is failed/tampered naming the path; the run fails (exit 1)", () => {
    const t = finished(events).find((e) => e.branch?.index === 2)!;
    expect({ status: t.status, cause: t.cause }).toEqual({ status: "failed", cause: "tampered" });
    expect(t.error).toContain("test/has.sh");
    expect(t.workspace?.tampered).toEqual(["test/has.sh"]);
    expect(code).toBe(1);
  });

  test("the other two pass verified: their checks ran the base's test in their own worktree", () => {
    const ok = finished(events).filter((e) => e.branch && e.branch.index < 2);
    expect(ok.map((e) => [e.status, e.qualifier])).toEqual([
      ["passed", "verified"],
      ["passed", "verified"],
    ]);
    const checks = events.filter((e) => e.type === "check.finished" && e.node === "work");
    expect(checks.map((c) => (c.type === "check.finished" ? [c.branch?.index, c.passed] : null)).sort()).toEqual([
      [0, true],
      [1, true],
    ]);
  });

  test("each branch saw only its own file although all three had written theirs, in its own worktree (VOUCH_WORKSPACE)", () => {
    for (const e of finished(events).filter((x) => x.branch)) {
      const name = ["alpha", "beta", "tamper"][e.branch!.index]!;
      expect(e.result_tail).toContain(`sees:${name}.txt `);
      expect(e.result_tail!.match(/\.txt/g)).toHaveLength(1);
      const ws = e.workspace!;
      expect(e.result_tail).toContain(`workspace:${ws.path} cwd:${ws.path}`);
      expect(ws.path).toBe(join(fx.repo, ".vouch", "worktrees", events[0]!.run, "each", String(e.branch!.index), "work"));
    }
  });

  test("node.finished carries branch, base, commit and diff stat; the commits are vouch's and hold the work", () => {
    const head = git(fx.repo, "rev-parse", "HEAD").trim();
    const run = events[0]!.run;
    for (const e of finished(events).filter((x) => x.branch)) {
      const ws = e.workspace!;
      expect(ws.branch).toBe(`vouch/${run}/each/${e.branch!.index}/work`);
      expect(ws.base).toBe(head);
      expect(git(fx.repo, "rev-parse", ws.branch).trim()).toBe(ws.commit);
      expect(git(fx.repo, "log", "-1", "--format=%an|%s", ws.commit).trim()).toBe(
        `vouch|vouch: run ${run}, node each[${e.branch!.index}].work, attempt 1`,
      );
    }
    const [a, , t] = [0, 1, 2].map((i) => finished(events).find((e) => e.branch?.index === i)!.workspace!);
    expect([a!.files_changed, a!.insertions, a!.deletions]).toEqual([1, 1, 0]);
    // The tampering is on the branch as evidence: the test edit and the file.
    expect([t!.files_changed, t!.insertions, t!.deletions]).toEqual([2, 2, 1]);
    expect(git(fx.repo, "show", `${t!.commit}:test/has.sh`)).toBe("exit 0\n");
  });

  test("the worktree of the tampering branch is kept with the test put back; the passed ones are removed (keep: on_failure)", () => {
    const [a, , t] = [0, 1, 2].map((i) => finished(events).find((e) => e.branch?.index === i)!.workspace!);
    expect(existsSync(a!.path)).toBe(false);
    expect(readFileSync(join(t!.path, "test/has.sh"), "utf8")).toBe('test -f "$1"\n');
  });

  test("the user's checkout is byte-for-byte unchanged: status, index, HEAD, and the uncommitted edit", () => {
    expect(fingerprint(fx.repo)).toEqual(before);
    expect(readFileSync(join(fx.repo, "README.md"), "utf8")).toBe(untouched);
    expect(git(fx.repo, "status", "--porcelain=v1", "--untracked-files=all")).toBe(" M README.md\n");
  });

  test("a warning said once that the uncommitted changes are not in the worktrees; no stack trace", () => {
    expect(stderr.match(/uncommitted changes/g)).toHaveLength(1);
    expect(stderr).not.toMatch(STACK_LINE);
  });

  test("vouch show prints each branch and its diff stat; --diff prints the patch", async () => {
    const home = join(dir.path, "home1");
    const run = events[0]!.run;
    const shown = await vouch(["show", run], { home, cwd: fx.repo });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`each\\[2\\]\\.work +vouch/${run}/each/2/work +2 files, \\+2 -1; tampered: test/has.sh`));
    expect(shown.stdout).toMatch(new RegExp(`each\\[0\\]\\.work +vouch/${run}/each/0/work +1 file, \\+1 -0`));
    const diff = await vouch(["show", run, "--diff", "each[2].work"], { home, cwd: fx.repo });
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('+++ b/test/has.sh\n@@ -1 +1 @@\n-test -f "$1"\n+exit 0\n');
    const json = JSON.parse((await vouch(["show", run, "--json"], { home, cwd: fx.repo })).stdout) as {
      branches: { nodes: { workspace?: { branch: string } }[] }[];
    };
    expect(json.branches.map((b) => b.nodes[0]!.workspace?.branch)).toEqual([0, 1, 2].map((i) => `vouch/${run}/each/${i}/work`));
    // Every spelling of the node vouch has printed names it (src/read/node-path.ts): the same patch.
    for (const spelling of ["each#2/work", "work [each #2]", "work (each #2)", "each #2 work"]) {
      const again = await vouch(["show", run, "--diff", spelling], { home, cwd: fx.repo });
      expect([spelling, again.code, again.stdout]).toEqual([spelling, 0, diff.stdout]);
    }
    // A bare branch node id is in three branches here: which one is asked, each named as printed.
    const bare = await vouch(["show", run, "--diff", "work"], { home, cwd: fx.repo });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('node "work" has a worktree in 3 map branches');
    expect(bare.stderr).toContain("each[0].work, each[1].work, each[2].work");
    const missing = await vouch(["show", run, "--diff", "nope"], { home, cwd: fx.repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no node "nope" with a worktree');
    expect(missing.stderr).toContain("each[0].work");
  });

  test("the plain output names each branch and its diff stat", async () => {
    const plain = await vouch(["run", join(dir.path, "map.yaml"), "--plain", "-i", 'items=["solo"]'], {
      home: join(dir.path, "home1"),
      cwd: fx.repo,
      env: { ...fx.env, RENDEZVOUS: fx.rendezvous },
    });
    expect(plain.stdout).toMatch(/⎇ each\[0\]\.work {2}vouch\/[0-9a-f-]+\/each\/0\/work · 1 file, \+1 -0/);
  });
});

describe("inside a sub-graph (ADR 0024)", () => {
  test("a sub-graph's nodes get worktrees under their prefixed ids; from names a node of the same file", async () => {
    mkdirSync(join(dir.path, "sub"));
    const fx = fixture(join(dir.path, "sub"));
    writeFileSync(
      join(dir.path, "sub", "inner.yaml"),
      `version: 1
name: inner
nodes:
  impl: { kind: agent, harness: command, env: [RENDEZVOUS], prompt: write inner, workspace: { mode: worktree } }
  review: { kind: agent, harness: command, env: [RENDEZVOUS], needs: [impl], prompt: write rev, workspace: { from: impl } }
`,
    );
    writeFileSync(join(dir.path, "sub", "top.yaml"), "version: 1\nname: top\nnodes:\n  outer: { kind: graph, use: ./inner.yaml }\n");
    const r = await vouch(["run", join(dir.path, "sub", "top.yaml"), "--json"], {
      home: join(dir.path, "home-sub"),
      cwd: fx.repo,
      env: fx.env,
    });
    expect(r.code).toBe(0);
    const events = parseNdjson(r.stdout);
    const ws = (node: string) => finished(events).find((e) => e.node === node)!.workspace!;
    expect(ws("outer/impl").branch).toBe(`vouch/${events[0]!.run}/outer/impl`);
    expect(ws("outer/review").base).toBe(ws("outer/impl").commit);
    expect(git(fx.repo, "show", `${ws("outer/review").commit}:inner.txt`)).toBe("inner\n");
  });
});
