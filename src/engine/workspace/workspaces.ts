// The worktrees of one run (ADR 0020), through the GitPort: created before a
// node's first attempt, committed after each attempt, protected paths checked
// and restored, and removed at the run's end as each node's `keep` says.
// Operations that change the repository's shared records (worktree add and
// remove, branch renames) are queued per repository; commits run in parallel
// (each worktree has its own index).
import type { BranchRef, NodeStatus, WorkspaceRecord } from "../events.ts";
import { nodeKey } from "../events.ts";
import type { GitPort } from "../ports.ts";
import { compileGlob, matching, type CompiledGlob } from "./glob.ts";
import { attemptMessage, branchName, keptBranchName, worktreePath, WORKTREES_DIR } from "./names.ts";
import type { KeepPolicy, ResolvedWorkspace } from "./spec.ts";

/** A worktree could not be set up or recorded: the node ends as error (cause workspace_error). */
export class WorkspaceError extends Error {
  override readonly name = "WorkspaceError";
}

export interface NodeWorkspace {
  key: string;
  /** The node's id (prefixed in a sub-graph, "review/fix"), as its commits name it. */
  id: string;
  root: string;
  path: string;
  branch: string;
  /** The commit the worktree started from. */
  base: string;
  /** Where the node's cwd is inside the worktree. */
  cwd: string;
  protect: CompiledGlob[];
  keep: KeepPolicy;
  record: WorkspaceRecord;
}

export interface AttemptWork {
  record: WorkspaceRecord;
  /** Protected paths the attempt changed (restored from base already). */
  tampered: string[];
}

/** A passed node of an earlier session: its recorded worktree and the keep it has now. */
export interface PriorWorkspace {
  record: WorkspaceRecord;
  keep: KeepPolicy;
}

export class Workspaces {
  private readonly opened = new Map<string, NodeWorkspace>();
  private readonly statuses = new Map<string, NodeStatus>();
  private readonly roots = new Map<string, Promise<{ root: string; prefix: string } | null>>();
  private readonly commits = new Map<string, Promise<string | null>>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly git: GitPort,
    private readonly runId: string,
    private readonly prior: ReadonlyMap<string, PriorWorkspace> = new Map(),
  ) {}

  /** The node's worktree: reused on a later feedback round, else created (an earlier try's branch kept under a new name). */
  async open(id: string, branch: BranchRef | undefined, spec: ResolvedWorkspace, cwd: string): Promise<NodeWorkspace> {
    const key = nodeKey(id, branch);
    const again = this.opened.get(key);
    if (again && spec.from === undefined) return again;
    const found = await this.repo(cwd);
    if (found === null) throw new WorkspaceError(`workspace mode worktree: ${cwd} is not in a git repository (or does not exist)`);
    const start =
      spec.from !== undefined ? this.upstream(nodeKey(spec.from, branch), found.root) : await this.baseCommit(found.root, spec.base);
    const ws: NodeWorkspace = {
      key,
      id,
      root: found.root,
      path: worktreePath(found.root, this.runId, id, branch),
      branch: branchName(this.runId, id, branch),
      base: start,
      cwd: join(worktreePath(found.root, this.runId, id, branch), found.prefix),
      protect: spec.protect.map(compileGlob),
      keep: spec.keep,
      record: { branch: "", base: start, commit: start, files_changed: 0, insertions: 0, deletions: 0, path: "" },
    };
    ws.record.branch = ws.branch;
    ws.record.path = ws.path;
    await this.queued(found.root, async () => {
      await this.git.hideVouchDir(found.root);
      await this.setAside(ws);
      await this.git.addWorktree(found.root, ws.path, ws.branch, start);
    });
    this.opened.set(key, ws);
    return ws;
  }

  /** After an attempt: commit what changed, name protected paths it touched and put them back. */
  async settle(ws: NodeWorkspace, attempt: number, branch?: BranchRef, round?: number): Promise<AttemptWork> {
    const commit = await this.git.commitAll(ws.path, attemptMessage(this.runId, ws.id, attempt, branch, round));
    const changed = await this.git.changedPaths(ws.root, ws.base, commit);
    const touched = [...new Set(changed.flatMap((c) => (c.from !== undefined ? [c.from, c.path] : [c.path])))];
    const tampered = matching(touched, ws.protect);
    if (tampered.length > 0) await this.git.restorePaths(ws.path, ws.base, tampered);
    const stat = await this.git.diffStat(ws.root, ws.base, commit);
    ws.record = {
      branch: ws.branch,
      base: ws.base,
      commit,
      files_changed: stat.filesChanged,
      insertions: stat.insertions,
      deletions: stat.deletions,
      path: ws.path,
    };
    if (tampered.length > 0) ws.record.tampered = tampered;
    return { record: ws.record, tampered };
  }

  /** The node's final status decides, at the run's end, whether its worktree stays. */
  finished(key: string, status: NodeStatus): void {
    this.statuses.set(key, status);
  }

  /** Whether the run has any worktree to consider at its end. */
  anything(): boolean {
    return this.opened.size > 0 || this.prior.size > 0;
  }

  /** The run ended: remove the worktrees `keep` does not keep (branches always stay). Best effort:
   *  a worktree that cannot be removed stays for `vouch clean`. */
  async close(): Promise<void> {
    const drop: { root: string; path: string }[] = [];
    for (const ws of this.opened.values()) {
      if (removes(ws.keep, this.statuses.get(ws.key) ?? "cancelled")) drop.push({ root: ws.root, path: ws.path });
    }
    for (const p of this.prior.values()) {
      const root = rootOf(p.record.path, this.runId);
      if (root !== null && removes(p.keep, "passed")) drop.push({ root, path: p.record.path });
    }
    for (const d of drop) {
      await this.queued(d.root, async () => {
        if (await this.git.hasWorktree(d.root, d.path)) await this.git.removeWorktree(d.root, d.path);
      }).catch(() => undefined);
    }
  }

  /** A worktree and branch an earlier try of this node left (a session that died, a feedback round):
   *  what it left uncommitted is committed, the folder removed, the branch renamed <branch>@<n>. */
  private async setAside(ws: NodeWorkspace): Promise<void> {
    const live = await this.git.hasWorktree(ws.root, ws.path);
    if (live) {
      await this.git.commitAll(ws.path, `vouch: run ${this.runId}: what an earlier try left uncommitted`).catch(() => undefined);
      await this.git.removeWorktree(ws.root, ws.path);
    }
    await keepAside(this.git, ws.root, ws.branch);
  }

  private upstream(key: string, root: string): string {
    const rec = this.opened.get(key)?.record ?? this.prior.get(key)?.record;
    if (rec === undefined) throw new WorkspaceError(`workspace.from: the upstream node ${key} has no worktree in this run`);
    const upstreamRoot = rootOf(rec.path, this.runId);
    if (upstreamRoot !== null && upstreamRoot !== root)
      throw new WorkspaceError(`workspace.from: the upstream node ${key} works in ${upstreamRoot}, this node's cwd is in ${root}`);
    return rec.commit;
  }

  private repo(cwd: string): Promise<{ root: string; prefix: string } | null> {
    let p = this.roots.get(cwd);
    if (!p) {
      p = (async () => {
        const root = await this.git.repoRoot(cwd);
        return root === null ? null : { root, prefix: await this.git.cwdPrefix(cwd) };
      })();
      this.roots.set(cwd, p);
    }
    return p;
  }

  /** Resolved once per repository and ref, so every node of the run starts from the same commit. */
  private async baseCommit(root: string, ref: string): Promise<string> {
    const k = `${root}\0${ref}`;
    let p = this.commits.get(k);
    if (!p) this.commits.set(k, (p = this.git.resolveCommit(root, ref)));
    const commit = await p;
    if (commit === null) throw new WorkspaceError(`workspace base "${ref}" names no commit in ${root}`);
    return commit;
  }

  private queued<T>(root: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(root) ?? Promise.resolve();
    const next = before.then(work, work);
    this.queues.set(
      root,
      next.catch(() => undefined),
    );
    return next;
  }
}

/** An earlier session's `branch`, if there is one, is kept as <branch>@<n>, the first n free. */
export async function keepAside(git: GitPort, root: string, branch: string): Promise<void> {
  if (!(await git.branchExists(root, branch))) return;
  let n = 1;
  while (await git.branchExists(root, keptBranchName(branch, n))) n++;
  await git.renameBranch(root, branch, keptBranchName(branch, n));
}

function removes(keep: KeepPolicy, status: NodeStatus): boolean {
  return keep === "never" || (keep === "on_failure" && status === "passed");
}

function join(dir: string, prefix: string): string {
  const rel = prefix.replace(/\/+$/, "");
  return rel === "" ? dir : `${dir}/${rel}`;
}

/** The repository of a recorded worktree path, <root>/.vouch/worktrees/<run>/...; null when it is not one. */
export function rootOf(path: string, runId: string): string | null {
  const marker = `/${WORKTREES_DIR}/${runId}/`;
  const at = path.lastIndexOf(marker);
  return at <= 0 ? null : path.slice(0, at);
}
