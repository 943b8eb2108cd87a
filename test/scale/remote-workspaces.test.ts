// Map branches with worktrees on workers (issue 19, ADR 0029) through the real binary:
// a bare repository as the remote, the coordinator's clone of it, two `vouch worker`s
// with their own --workdir, a real redis-server. Each branch's worktree node commits a
// file on its worker, the worker pushes vouch/<run>/..., and a `kind: merge` node on the
// coordinator merges every branch.
import { afterEach, describe, expect, test } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "bun";
import { parseNdjson, tempDir, vouch, type TempDir } from "../e2e/helpers.ts";
import { HAVE_REDIS } from "./redis-server.ts";
import { FLEET_ENV, git, of, stopAll, useRedis, WorkerProc } from "./fleet.ts";

const N = 4;

/** N branches; each one's worktree script writes out-<i>.txt; then a merge of them all. */
function graph(extraBranch = ""): string {
  return `version: 1
name: rws
nodes:
  items: { kind: script, run: "seq 0 ${N - 1} | paste -sd, | sed 's/.*/[&]/'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work:
        kind: script
        workspace: { mode: worktree }
        run: 'i=$(cat "$VOUCH_ITEM_FILE"); echo "branch $i by $VOUCH_WORKER" > "out-$i.txt"'
${extraBranch}
  merged:
    kind: merge
    needs: [each]
    from: each
`;
}

describe.skipIf(!HAVE_REDIS)("worktrees of map branches on workers", { timeout: 180_000 }, () => {
  const redis = useRedis();
  let dir: TempDir;
  const workers: WorkerProc[] = [];
  let remote: string;
  let repo: string;
  const home = () => join(dir.path, ".vouch");

  afterEach(async () => {
    await stopAll(workers);
    dir.cleanup();
  });

  /** A bare remote, the coordinator's clone with one pushed commit, and the graph file beside them. */
  function setUp(text = graph()): string {
    dir = tempDir("remote-ws");
    remote = join(dir.path, "remote.git");
    repo = join(dir.path, "repo");
    mkdirSync(repo);
    git(dir.path, "init", "--quiet", "--bare", remote);
    git(repo, "init", "--quiet");
    writeFileSync(join(repo, "README"), "base\n");
    git(repo, "add", "README");
    git(repo, "commit", "--quiet", "-m", "base");
    git(repo, "remote", "add", "origin", remote);
    git(repo, "push", "--quiet", "origin", "HEAD:main");
    const file = join(dir.path, "g.yaml");
    writeFileSync(file, text);
    return file;
  }

  async function twoWorkers(): Promise<string[]> {
    const dirs = ["w0", "w1"].map((n) => join(dir.path, `workdir-${n}`));
    for (const [i, d] of dirs.entries()) {
      mkdirSync(d);
      workers.push(await WorkerProc.start(redis().url, `w${i}`, home(), 2, {}, ["--workdir", d]));
    }
    return dirs;
  }

  /** The queue's jobs (one key each, named by the job id, which starts with the run id): a refused run adds none. */
  function queueKeys(): string[] {
    const r = spawnSync(["redis-cli", "-p", String(redis().port), "--scan", "--pattern", "bull:vouch-branches:*"]);
    return r.stdout
      .toString()
      .split("\n")
      .filter((k) => /^bull:vouch-branches:\d{8}-/.test(k))
      .sort();
  }

  test("every branch's worktree runs on a worker, is pushed to the remote, and the coordinator's merge has every file", async () => {
    const file = setUp();
    const workdirs = await twoWorkers();
    const r = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    const events = parseNdjson(r.stdout);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const runId = of(events, "run.started")[0]!.run;
    // The remote holds each branch's vouch/<run>/each/<i>/work, as a local run names it.
    const pushed = git(remote, "for-each-ref", "--format=%(refname:short)", `refs/heads/vouch/${runId}/`).split("\n").sort();
    expect(pushed).toEqual(Array.from({ length: N }, (_, i) => `vouch/${runId}/each/${i}/work`).sort());
    // The merge node merged them all; its branch in the coordinator's repository has every file.
    const merge = of(events, "node.finished").find((e) => e.node === "merged")!;
    expect(merge.status).toBe("passed");
    const out = merge.output as { merged: { branch: string }[]; left_out: unknown[]; branch: string };
    expect(out.merged).toHaveLength(N);
    expect(out.left_out).toEqual([]);
    for (let i = 0; i < N; i++) expect(git(repo, "show", `${out.branch}:out-${i}.txt`)).toMatch(new RegExp(`^branch ${i} by w[01]$`));
    // Each worktree node's record came back in the streamed events: its worker's clone, its commit.
    const works = of(events, "node.finished").filter((e) => e.node === "work");
    expect(works).toHaveLength(N);
    for (const w of works) {
      expect(w.status).toBe("passed");
      expect(w.workspace!.branch).toBe(`vouch/${runId}/each/${w.branch!.index}/work`);
      expect(workdirs.some((d) => w.workspace!.path.startsWith(`${d}/repos/`))).toBe(true);
      expect(git(remote, "rev-parse", w.workspace!.branch)).toBe(w.workspace!.commit);
      expect(w.workspace!.files_changed).toBe(1);
    }
    // keep: on_failure and every node passed: the workers removed their worktrees (the clones stay).
    for (const d of workdirs) {
      if (!existsSync(join(d, "repos"))) continue;
      for (const clone of readdirSync(join(d, "repos"))) {
        const runDir = join(d, "repos", clone, ".vouch", "worktrees", runId, "each");
        const left = existsSync(runDir) ? readdirSync(runDir).flatMap((i) => readdirSync(join(runDir, i))) : [];
        expect(left).toEqual([]);
      }
    }
    // `vouch show --diff` of a worker's branch, the workers and their clones gone: the merge fetched
    // the branches into the coordinator's repository, and the diff is read there.
    await Promise.all(workers.map((w) => w.term()));
    for (const d of workdirs) rmSync(d, { recursive: true, force: true });
    const diff = await vouch(["show", runId, "--diff", "each[2].work"], { home: home(), cwd: repo });
    expect(diff.stderr).toBe("");
    expect(diff.stdout).toContain("+branch 2 by w");
  });

  test("protect and keep behave as locally: a tampered README is named and put back, keep: on_failure leaves the worktree in the worker's clone", async () => {
    const text = `version: 1
name: rws-protect
nodes:
  items: { kind: script, run: "echo '[0, 1]'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
      work:
        kind: script
        workspace: { mode: worktree, protect: [README], keep: on_failure }
        run: 'i=$(cat "$VOUCH_ITEM_FILE"); echo "out $i" > "out-$i.txt"; if [ "$i" = 1 ]; then echo tampered > README; fi'
`;
    const file = setUp(text);
    const workdirs = await twoWorkers();
    const r = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const works = of(parseNdjson(r.stdout), "node.finished").filter((e) => e.node === "work");
    const [ok, bad] = [0, 1].map((i) => works.find((e) => e.branch!.index === i)!);
    expect(ok!.status).toBe("passed");
    expect(bad!.status).toBe("failed");
    expect(bad!.cause).toBe("tampered");
    expect(bad!.workspace!.tampered).toEqual(["README"]);
    // The failed node's worktree stays on its worker, README as in the base; the passed one's is gone.
    expect(workdirs.some((d) => bad!.workspace!.path.startsWith(`${d}/repos/`))).toBe(true);
    expect(readFileSync(join(bad!.workspace!.path, "README"), "utf8")).toBe("base\n");
    expect(existsSync(ok!.workspace!.path)).toBe(false);
    // Both branches are on the remote, at the commits their records name.
    for (const w of [ok!, bad!]) expect(git(remote, "rev-parse", w.workspace!.branch)).toBe(w.workspace!.commit);
  });

  test("a base commit the remote does not have is refused before any job: exit 2, the commit, the remote, the push to make", async () => {
    const file = setUp();
    await twoWorkers();
    writeFileSync(join(repo, "local.txt"), "not pushed\n");
    git(repo, "add", "local.txt");
    git(repo, "commit", "--quiet", "-m", "local only");
    const head = git(repo, "rev-parse", "HEAD");
    const before = queueKeys();
    const r = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`the base commit ${head.slice(0, 12)} (workspace base "HEAD") is not on remote "origin" (${remote})`);
    expect(r.stderr).toContain("git push origin HEAD");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(queueKeys()).toEqual(before);
    const runs = await vouch(["runs", "--json"], { home: home(), cwd: repo });
    expect(JSON.parse(runs.stdout)).toEqual([]); // no run recorded
    // Pushed, the same run goes through.
    git(repo, "push", "--quiet", "origin", "HEAD:main");
    const again = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    expect(again.code).toBe(0);
  });

  test("a repository without the remote is refused before any job, naming what to add", async () => {
    const file = setUp();
    git(repo, "remote", "remove", "origin");
    const before = queueKeys();
    const r = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the repository ${repo} has no remote "origin"`);
    expect(r.stderr).toContain("git remote add origin URL");
    expect(queueKeys()).toEqual(before);
  });

  test("a hostile item in a worktree node's cwd cannot take the worktree out of the worker's clone or reach git as an option", async () => {
    const hostile = `
      escape:
        kind: script
        cwd: "{{ item }}"
        workspace: { mode: worktree }
        run: 'touch pwned'`;
    const file = setUp();
    // Items: a path climbing from the worker's --workdir into another repository (the coordinator's,
    // a git repository on this machine), the same as an absolute path, and two option-like names.
    const items = ["../repo", join(dir.path, "repo"), "--upload-pack=touch PWNED", "-c"];
    writeFileSync(file, graph(hostile).replace(`run: "seq 0 ${N - 1} | paste -sd, | sed 's/.*/[&]/'"`, `run: cat items.json`));
    writeFileSync(join(repo, "items.json"), JSON.stringify(items));
    const workdirs = await twoWorkers();
    const r = await vouch(["run", file, "--json", "--executor", redis().url], { home: home(), cwd: repo, env: FLEET_ENV });
    const events = parseNdjson(r.stdout);
    const runId = of(events, "run.started")[0]!.run;
    const escapes = of(events, "node.finished").filter((e) => e.node === "escape");
    expect(escapes).toHaveLength(items.length);
    // Outside the worker's clone is "not in a repository": no worktree, an error of the node's own.
    for (const i of [0, 1]) {
      const e = escapes.find((x) => x.branch!.index === i)!;
      expect(e.status).toBe("error");
      expect(e.cause).toBe("workspace_error");
      expect(e.workspace).toBeUndefined();
    }
    expect(existsSync(join(repo, ".vouch", "worktrees", runId, "each"))).toBe(false);
    expect(git(repo, "for-each-ref", `refs/heads/vouch/${runId}/each/0/escape`, `refs/heads/vouch/${runId}/each/1/escape`)).toBe("");
    // The ones starting with "-" are folders inside the worktree, never git options: git ran no upload-pack.
    for (const e of escapes.filter((x) => x.branch!.index > 1)) {
      if (e.workspace) expect(workdirs.some((d) => e.workspace!.path.startsWith(`${d}/repos/`))).toBe(true);
    }
    for (const d of [...workdirs, repo, dir.path]) expect(existsSync(join(d, "PWNED"))).toBe(false);
  });
});
