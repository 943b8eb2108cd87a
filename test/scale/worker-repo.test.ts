// A worker's clone of a job's remote (ADR 0029), with real git and a bare repository
// as the remote: fetched once and reused, safe for jobs preparing at once, confined
// (a cwd outside the clone is in no repository), and untrusted job data refused.
import { afterEach, expect, test } from "vitest";
import fc from "fast-check";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { spawnSync } from "bun";
import { tempDir, type TempDir } from "../e2e/helpers.ts";
import { clonePath, jobRepo, pushOutcome, repoPrefix, WorkerRepos } from "../../src/executor/worker-repo.ts";
import { parseJob } from "../../src/executor/job-shape.ts";
import { Workspaces } from "../../src/engine/workspace/workspaces.ts";
import type { RemoteWorkspace } from "../../src/engine/ports.ts";
import { git } from "./fleet.ts";

let dir: TempDir;
afterEach(() => dir?.cleanup());

/** A bare remote holding one commit (a file in sub/); returns its URL and the commit. */
function remote(): { url: string; commit: string } {
  dir = tempDir("worker-repo");
  const url = join(dir.path, "remote.git");
  const src = join(dir.path, "src");
  git(dir.path, "init", "--quiet", "--bare", url);
  mkdirSync(join(src, "sub"), { recursive: true });
  git(src, "init", "--quiet");
  writeFileSync(join(src, "sub", "a.txt"), "a\n");
  git(src, "add", ".");
  git(src, "commit", "--quiet", "-m", "base");
  git(src, "push", "--quiet", url, "HEAD:main");
  return { url, commit: git(src, "rev-parse", "HEAD") };
}

const ws = (url: string, commit: string, prefix = ""): RemoteWorkspace => ({
  url,
  remote: "origin",
  bases: [{ ref: "HEAD", commit }],
  prefix,
});

test("repoPrefix: a cwd maps into the repository as it sat under the run's folder; climbing out of the repository is null", () => {
  expect(repoPrefix("", "/w", "/w")).toBe("");
  expect(repoPrefix("", "/w", "sub")).toBe("sub");
  expect(repoPrefix("app", "/w", "..")).toBe("");
  expect(repoPrefix("app", "/w", "../lib")).toBe("lib");
  expect(repoPrefix("", "/w", "..")).toBeNull();
  expect(repoPrefix("app", "/w", "../..")).toBeNull();
  expect(repoPrefix("", "/w", "/etc")).toBeNull();
  expect(repoPrefix("", "/w", "--upload-pack=x")).toBe("--upload-pack=x"); // a folder name, never an argument
  // Whatever the cwd, the answer is null or a relative path inside the repository.
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom("..", ".", "a", "-x", "__proto__", "/", "b/..", ""), { maxLength: 8 }),
      fc.constantFrom("", "app", "app/x"),
      (segs, prefix) => {
        const p = repoPrefix(prefix, "/w/base", segs.join("/"));
        if (p !== null) expect(p === "" || (!p.startsWith("/") && !p.split("/").includes(".."))).toBe(true);
      },
    ),
  );
});

test("the clone is made once per remote, fetches the base commit, and jobs preparing at once share it without a git lock error", async () => {
  const { url, commit } = remote();
  const workdir = join(dir.path, "workdir");
  mkdirSync(workdir);
  const repos = new WorkerRepos(workdir);
  const jobs = await Promise.all(Array.from({ length: 6 }, () => repos.prepare(ws(url, commit), workdir)));
  expect(new Set(jobs.map((j) => j.clone))).toEqual(new Set([clonePath(workdir, url)]));
  expect(git(jobs[0]!.clone, "cat-file", "-t", commit)).toBe("commit");
  // Worktrees of several jobs at once, through the engine's own Workspaces: all made, all on the base.
  const opened = await Promise.all(
    jobs.map((j, i) =>
      new Workspaces(j.git, "r1").open(
        "work",
        { map: "each", index: i },
        { base: "HEAD", protect: [], keep: "never" },
        join(workdir, "sub"),
      ),
    ),
  );
  for (const [i, w] of opened.entries()) {
    expect(w.path).toBe(`${jobs[0]!.clone}/.vouch/worktrees/r1/each/${i}/work`);
    expect(w.base).toBe(commit);
    expect(w.cwd).toBe(`${w.path}/sub`);
    expect(existsSync(join(w.cwd, "a.txt"))).toBe(true);
  }
});

test("the confined git: a cwd outside the clone is in no repository, a base ref resolves only to the coordinator's commit", async () => {
  const { url, commit } = remote();
  const workdir = join(dir.path, "workdir");
  mkdirSync(workdir);
  const job = await new WorkerRepos(workdir).prepare(ws(url, commit), workdir);
  // The coordinator's source repository is a real repository on this machine: still refused.
  expect(await job.git.repoRoot(join(dir.path, "src"))).toBeNull();
  expect(await job.git.repoRoot("../src")).toBeNull();
  expect(await job.git.resolveCommit(job.clone, "HEAD")).toBe(commit);
  expect(await job.git.resolveCommit(job.clone, "main")).toBeNull();
  await expect(job.git.addWorktree(job.clone, join(dir.path, "out"), "vouch/r/x", commit)).rejects.toThrow(/outside this worker's clone/);
  await expect(job.git.addWorktree(join(dir.path, "src"), join(dir.path, "src", "wt"), "vouch/r/x", commit)).rejects.toThrow(
    /is not this worker's clone/,
  );
  expect(existsSync(join(dir.path, "out"))).toBe(false);
});

test("push sends each branch the job's worktrees made, replacing what an earlier dispatch pushed", async () => {
  const { url, commit } = remote();
  const workdir = join(dir.path, "workdir");
  mkdirSync(workdir);
  const job = await new WorkerRepos(workdir).prepare(ws(url, commit), workdir);
  const w = await new Workspaces(job.git, "r1").open(
    "work",
    { map: "each", index: 0 },
    { base: "HEAD", protect: [], keep: "never" },
    workdir,
  );
  writeFileSync(join(w.path, "b.txt"), "b\n");
  const tip = (await new Workspaces(job.git, "r1").settle(w, 1, { map: "each", index: 0 })).record.commit;
  // An earlier dispatch's branch of the same name on the remote: not an ancestor, still replaced.
  git(url, "update-ref", "refs/heads/vouch/r1/each/0/work", commit);
  await job.push();
  expect(git(url, "rev-parse", "refs/heads/vouch/r1/each/0/work")).toBe(tip);
});

test("a job's workspace with a value git could read as an option, or a prefix climbing out, is not a job", () => {
  const base = {
    runId: "r",
    jobId: "r.m.0.1",
    dispatch: 1,
    map: "m",
    index: 0,
    item: 1,
    graph: {},
    graphDigest: "d",
    graphPath: "g",
    inputs: {},
    upstream: {},
    kept: {},
    passEnv: [],
    baseDir: "/b",
    concurrency: 1,
    version: "v",
  };
  const good = { url: "https://example.com/r.git", remote: "origin", bases: [{ ref: "HEAD", commit: "a".repeat(40) }], prefix: "app" };
  expect(parseJob({ ...base, workspace: good })).not.toBeNull();
  for (const bad of [
    { ...good, url: "--upload-pack=touch /tmp/x" },
    { ...good, remote: "-c" },
    { ...good, bases: [{ ref: "--output=/tmp/x", commit: "a".repeat(40) }] },
    { ...good, bases: [{ ref: "HEAD", commit: "--all" }] },
    { ...good, prefix: "../.." },
    { ...good, prefix: "/etc" },
    { ...good, url: "a\nb" },
    { ...good, extra: 1 },
  ]) {
    expect(parseJob({ ...base, workspace: bad })).toBeNull();
  }
});

test("a push the remote rejects makes the branch an error naming the remote: the merge would not find its work", async () => {
  const { url, commit } = remote();
  writeFileSync(join(url, "hooks", "pre-receive"), "#!/bin/sh\necho 'no pushes here' >&2\nexit 1\n", { mode: 0o755 });
  const workdir = join(dir.path, "workdir");
  mkdirSync(workdir);
  const job = await new WorkerRepos(workdir).prepare(ws(url, commit), workdir);
  await new Workspaces(job.git, "r1").open("work", { map: "each", index: 0 }, { base: "HEAD", protect: [], keep: "never" }, workdir);
  const out = await pushOutcome(job, { status: "passed", error: null, output: 1 });
  expect(out.status).toBe("error");
  expect(out.error).toContain(`could not push the branch's work to ${url}`);
  expect(out.error).toContain("no pushes here");
  // No worktree: nothing to push, the outcome is as it was.
  expect(await pushOutcome(null, { status: "passed", error: null })).toEqual({ status: "passed", error: null });
});

test("a server that refuses a fetch by id (protocol v0, an unadvertised commit) gets a fetch of its branches instead", async () => {
  const { url, commit } = remote();
  // A second commit on top: the base is no longer a branch tip, so v0 will not hand it out by id.
  const src = join(dir.path, "src");
  writeFileSync(join(src, "b.txt"), "b\n");
  git(src, "add", ".");
  git(src, "commit", "--quiet", "-m", "b");
  git(src, "push", "--quiet", url, "HEAD:main");
  const home = join(dir.path, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".gitconfig"), "[protocol]\n\tversion = 0\n");
  const saved = process.env.HOME;
  process.env.HOME = home; // git run by vouch reads the worker's HOME
  try {
    const workdir = join(dir.path, "workdir");
    mkdirSync(workdir);
    const job = await new WorkerRepos(workdir).prepare(ws(url, commit), workdir);
    expect(git(job.clone, "cat-file", "-t", commit)).toBe("commit");
    expect(git(job.clone, "for-each-ref", "--format=%(refname)", "refs/vouch-base/")).toBe(""); // the by-id fetch was refused
  } finally {
    process.env.HOME = saved;
  }
});

test("a worker without --workdir cannot give a branch worktrees: the branch's error says so; a branch without any needs none", async () => {
  const job = parseJob({
    runId: "r",
    jobId: "r.m.0.1",
    dispatch: 1,
    map: "m",
    index: 0,
    item: 1,
    graph: {},
    graphDigest: "d",
    graphPath: "g",
    inputs: {},
    upstream: {},
    kept: {},
    passEnv: [],
    baseDir: "/b",
    concurrency: 1,
    version: "v",
    workspace: ws("/srv/app.git", "a".repeat(40)),
  })!;
  expect(await jobRepo(null, job, "/b", "w1")).toBe(
    "worker w1 has no --workdir: a branch with worktrees needs one (the worker's clone of /srv/app.git lives there)",
  );
  const { workspace: _w, ...plain } = job;
  expect(await jobRepo(null, plain, "/b", "w1")).toBeNull();
});

// The per-clone queue lives in one process: a second worker process on the same --workdir would
// run fetch / worktree add on the same clone at once and fail on git's lock files. The first
// worktree job takes <workdir>/repos/.worker (host and pid); another live holder is refused,
// naming it; one that is gone is taken over; the worker's stop releases it.
test("a --workdir another live worker process holds is refused for worktree jobs; a lock left by a dead one is taken over", async () => {
  const { url, commit } = remote();
  const workdir = join(dir.path, "workdir");
  mkdirSync(join(workdir, "repos"), { recursive: true });
  const lock = join(workdir, "repos", ".worker");
  writeFileSync(lock, `${hostname()} 1\n`); // pid 1 is always alive: another worker
  const job = parseJob({
    runId: "r",
    jobId: "r.m.0.1",
    dispatch: 1,
    map: "m",
    index: 0,
    item: 1,
    graph: {},
    graphDigest: "d",
    graphPath: "g",
    inputs: {},
    upstream: {},
    kept: {},
    passEnv: [],
    baseDir: "/b",
    concurrency: 1,
    version: "v",
    workspace: ws(url, commit),
  })!;
  const refused = await jobRepo(new WorkerRepos(workdir), job, workdir, "w2");
  expect(refused).toContain(`${workdir} is in use by another worker (${hostname()} pid 1); each worker needs its own --workdir`);
  expect(existsSync(clonePath(workdir, url))).toBe(false);
  // A holder that is gone: a process that ran and exited.
  const gone = spawnSync(["true"]).pid;
  writeFileSync(lock, `${hostname()} ${gone}\n`);
  const repos = new WorkerRepos(workdir);
  expect(typeof (await jobRepo(repos, job, workdir, "w2"))).toBe("object");
  expect(readFileSync(lock, "utf8")).toBe(`${hostname()} ${process.pid}\n`);
  repos.release();
  expect(existsSync(lock)).toBe(false);
});
