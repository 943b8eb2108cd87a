// A worker's repositories (ADR 0029): one clone per remote under --workdir, reused
// across jobs. A job's worktree nodes get worktrees of that clone through a GitPort
// confined to it: a node's cwd maps into the clone as it sat in the coordinator's
// repository, anything outside is "not in a repository", and a base ref resolves
// only to the commit the coordinator resolved. What changes the clone's shared
// records (fetch, worktree add/remove, branch renames, push) is queued per clone,
// so jobs running at once on one worker never race on git's locks.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { isAbsolute, join, posix, relative, resolve } from "node:path";
import type { BranchJob, GitPort, RemoteWorkspace } from "../engine/ports.ts";
import { realGit } from "../workspace/git.ts";
import { GitError } from "../workspace/git-error.ts";
import { runGit, runGitRaw } from "../workspace/run-git.ts";
import { lockWorkdir } from "./workdir-lock.ts";
import type { ProcessSupervisor } from "../spawn/process-registry.ts";

/** Where a cwd on the worker sits in the repository ("" at its top), or null when outside it.
 *  `prefix` is the run's folder in the repository; `workerBase` stands for that folder here. */
export function repoPrefix(prefix: string, workerBase: string, cwd: string): string | null {
  // Not resolve(): it stops climbing at "/", so "../.." from a shallow folder would land inside.
  const rel = isAbsolute(cwd) ? relative(workerBase, cwd) : cwd;
  if (isAbsolute(rel)) return null;
  const inRepo = posix.normalize(posix.join(prefix === "" ? "." : prefix, rel.split("\\").join("/")));
  if (inRepo === ".." || inRepo.startsWith("../") || posix.isAbsolute(inRepo)) return null;
  return inRepo === "." ? "" : inRepo;
}

/** The clone of one remote: a folder named by the URL's hash (no part of the URL is a path). */
export function clonePath(workdir: string, url: string): string {
  return join(workdir, "repos", createHash("sha256").update(url).digest("hex").slice(0, 16));
}

export class WorkerRepos {
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Set once this process holds the workdir (the queue below guards one process only). */
  private unlock: (() => void) | null = null;

  /** `supervisor`: the worker's, so a SIGTERM stops a fetch hanging on the network (the job is handed back). */
  constructor(
    private readonly workdir: string,
    private readonly supervisor?: ProcessSupervisor,
  ) {}

  /** The worker stops: another worker may use the folder. */
  release(): void {
    this.unlock?.();
    this.unlock = null;
  }

  queued<T>(clone: string, work: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(clone) ?? Promise.resolve()).then(work, work);
    this.queues.set(
      clone,
      next.catch(() => undefined),
    );
    return next;
  }

  /** The clone, holding every base commit the job names (fetched once, then reused). */
  async prepare(ws: RemoteWorkspace, workerBase: string): Promise<JobRepo> {
    this.unlock ??= lockWorkdir(resolve(this.workdir));
    const clone = clonePath(resolve(this.workdir), ws.url);
    await this.queued(clone, async () => {
      if (!existsSync(join(clone, ".git"))) {
        mkdirSync(clone, { recursive: true, mode: 0o700 });
        await runGit(clone, ["init", "--quiet"]);
      }
      for (const { commit } of ws.bases) await fetchCommit(clone, ws.url, commit, this.supervisor);
    });
    return new JobRepo(this, clone, ws, resolve(workerBase));
  }
}

async function hasCommit(clone: string, commit: string): Promise<boolean> {
  return (await runGitRaw(clone, ["cat-file", "-e", "--end-of-options", `${commit}^{commit}`])).exit === 0;
}

/** By id into a ref of its own (kept from gc); a server refusing ids gets a fetch of its branches. */
async function fetchCommit(clone: string, url: string, commit: string, sup?: ProcessSupervisor): Promise<void> {
  if (await hasCommit(clone, commit)) return;
  const byId = await runGitRaw(
    clone,
    ["fetch", "--quiet", "--no-tags", "--end-of-options", url, `${commit}:refs/vouch-base/${commit}`],
    undefined,
    sup,
  );
  if (byId.exit !== 0)
    await runGitRaw(
      clone,
      ["fetch", "--quiet", "--no-tags", "--end-of-options", url, "+refs/heads/*:refs/remotes/source/*"],
      undefined,
      sup,
    );
  if (!(await hasCommit(clone, commit))) {
    throw new GitError(
      ["fetch"],
      `could not fetch the base commit ${commit.slice(0, 12)} from ${url}: ${byId.stderr.trim().split("\n")[0] || "the remote does not have it"}`,
    );
  }
}

/** One job's view of the clone: the GitPort its branch runs with, and the push at its end. */
export class JobRepo {
  /** Every branch the job's worktrees made or renamed: what is pushed. */
  private readonly branches = new Set<string>();
  readonly git: GitPort;

  constructor(
    private readonly repos: WorkerRepos,
    readonly clone: string,
    private readonly ws: RemoteWorkspace,
    workerBase: string,
  ) {
    const q = <T>(work: () => Promise<T>) => repos.queued(clone, work);
    const own = (root: string) => {
      if (root !== clone) throw new GitError(["worktree"], `${root} is not this worker's clone of ${ws.url}`);
    };
    this.git = {
      ...realGit,
      repoRoot: async (cwd) => (repoPrefix(ws.prefix, workerBase, cwd) === null ? null : clone),
      cwdPrefix: async (cwd) => {
        const p = repoPrefix(ws.prefix, workerBase, cwd);
        return p === null || p === "" ? "" : `${p}/`;
      },
      resolveCommit: async (root, ref) => (root === clone ? (ws.bases.find((b) => b.ref === ref)?.commit ?? null) : null),
      hideVouchDir: (root) => q(() => (own(root), realGit.hideVouchDir(root))),
      addWorktree: (root, path, branch, commit) =>
        q(async () => {
          own(root);
          if (!resolve(path).startsWith(`${clone}/`)) throw new GitError(["worktree", "add"], `${path} is outside this worker's clone`);
          await realGit.addWorktree(root, path, branch, commit);
          this.branches.add(branch);
        }),
      removeWorktree: (root, path) => q(() => (own(root), realGit.removeWorktree(root, path))),
      renameBranch: (root, from, to) =>
        q(async () => {
          own(root);
          await realGit.renameBranch(root, from, to);
          this.branches.add(to);
        }),
      deleteBranch: (root, branch) => q(() => (own(root), realGit.deleteBranch(root, branch))),
    };
  }

  /** Pushes the job's branches to the remote, replacing what an earlier dispatch pushed there. */
  async push(): Promise<void> {
    await this.repos.queued(this.clone, async () => {
      const refs: string[] = [];
      for (const b of this.branches) if (await realGit.branchExists(this.clone, b)) refs.push(`+refs/heads/${b}:refs/heads/${b}`);
      if (refs.length === 0) return;
      const r = await runGitRaw(this.clone, ["push", "--quiet", "--end-of-options", this.ws.url, ...refs]);
      if (r.exit !== 0)
        throw new GitError(
          ["push"],
          `could not push the branch's work to ${this.ws.url}: ${r.stderr.trim().split("\n").slice(0, 2).join(" / ") || `git push exit ${r.exit}`}`,
        );
    });
  }
}

/** The job's repository view, null when its branch has no worktree, or why it cannot have one. */
export async function jobRepo(
  repos: WorkerRepos | null,
  job: BranchJob,
  workerBase: string,
  worker: string,
): Promise<JobRepo | null | string> {
  if (job.workspace === undefined) return null;
  if (repos === null)
    return `worker ${worker} has no --workdir: a branch with worktrees needs one (the worker's clone of ${job.workspace.url} lives there)`;
  try {
    return await repos.prepare(job.workspace, workerBase);
  } catch (e) {
    return `worker ${worker} could not prepare its clone of ${job.workspace.url}: ${(e as Error).message}`;
  }
}

/** The branch ended: its branches go to the remote before the result does (a merge on the
 *  coordinator reads them). A push that fails makes the branch an error: its work is not there. */
export async function pushOutcome<T extends { status: string; error: string | null }>(repo: JobRepo | null, outcome: T): Promise<T> {
  if (repo === null) return outcome;
  try {
    await repo.push();
    return outcome;
  } catch (e) {
    return { ...outcome, status: "error", error: (e as Error).message };
  }
}
