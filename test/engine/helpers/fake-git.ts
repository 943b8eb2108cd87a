// An in-memory GitPort for engine tests: commits are snapshots of path → text,
// a worktree is a working copy of one; the scripted "agent" edits it with
// edit(). Enough git to judge what the engine asks of it, and a log of calls.
import type { ChangedPath, DiffStat, GitPort } from "../../../src/engine/ports.ts";

type Tree = Map<string, string>;

export const FAKE_ROOT = "/work/project";
export const FAKE_BASE = "c0";

export class FakeGit implements GitPort {
  readonly commits = new Map<string, Tree>([
    [
      FAKE_BASE,
      new Map([
        ["test/t.sh", "exit 0"],
        ["src/a.ts", "a"],
      ]),
    ],
  ]);
  readonly branches = new Map<string, string>([["main", FAKE_BASE]]);
  readonly worktrees = new Map<string, { branch: string; files: Tree }>();
  readonly calls: string[] = [];
  failAdd: Error | null = null;
  private n = 0;

  edit(worktree: string, path: string, text: string | null): void {
    const wt = this.worktrees.get(worktree);
    if (!wt) throw new Error(`no worktree ${worktree}`);
    if (text === null) wt.files.delete(path);
    else wt.files.set(path, text);
  }

  async repoRoot(cwd: string) {
    return cwd === FAKE_ROOT || cwd.startsWith(`${FAKE_ROOT}/`) ? FAKE_ROOT : null;
  }
  async cwdPrefix(cwd: string) {
    return cwd === FAKE_ROOT ? "" : `${cwd.slice(FAKE_ROOT.length + 1)}/`;
  }
  async resolveCommit(_root: string, ref: string) {
    if (ref === "HEAD") return FAKE_BASE;
    return this.branches.get(ref) ?? (this.commits.has(ref) ? ref : null);
  }
  async hasUncommittedChanges() {
    return false;
  }
  async branchExists(_root: string, branch: string) {
    return this.branches.has(branch);
  }
  async addWorktree(_root: string, path: string, branch: string, commit: string) {
    this.calls.push(`add ${path} ${branch} ${commit}`);
    if (this.failAdd) throw this.failAdd;
    if (this.branches.has(branch)) throw new Error(`branch ${branch} exists`);
    this.branches.set(branch, commit);
    this.worktrees.set(path, { branch, files: new Map(this.commits.get(commit)!) });
  }
  async commitAll(worktree: string, message: string) {
    const wt = this.worktrees.get(worktree)!;
    const tip = this.branches.get(wt.branch)!;
    if (same(this.commits.get(tip)!, wt.files)) return tip;
    const id = `c${++this.n}`;
    this.commits.set(id, new Map(wt.files));
    this.branches.set(wt.branch, id);
    this.calls.push(`commit ${id} ${message}`);
    return id;
  }
  async diffStat(_root: string, from: string, to: string): Promise<DiffStat> {
    const changed = await this.changedPaths(_root, from, to);
    return { filesChanged: changed.length, insertions: changed.length, deletions: changed.filter((c) => c.status !== "added").length };
  }
  async diff(_root: string, from: string, to: string) {
    return { text: `diff ${from} ${to}\n`, truncated: false };
  }
  async changedPaths(_root: string, from: string, to: string): Promise<ChangedPath[]> {
    const a = this.commits.get(from)!;
    const b = this.commits.get(to)!;
    const out: ChangedPath[] = [];
    for (const [p, t] of b)
      if (!a.has(p)) out.push({ status: "added", path: p });
      else if (a.get(p) !== t) out.push({ status: "modified", path: p });
    for (const p of a.keys()) if (!b.has(p)) out.push({ status: "removed", path: p });
    return out;
  }
  async restorePaths(worktree: string, commit: string, paths: readonly string[]) {
    this.calls.push(`restore ${paths.join(",")}`);
    const wt = this.worktrees.get(worktree)!;
    const base = this.commits.get(commit)!;
    for (const p of paths) {
      if (base.has(p)) wt.files.set(p, base.get(p)!);
      else wt.files.delete(p);
    }
  }
  async listWorktrees() {
    return [FAKE_ROOT, ...this.worktrees.keys()];
  }
  async hasWorktree(_root: string, path: string) {
    return this.worktrees.has(path);
  }
  async hideVouchDir() {}
  async removeWorktree(_root: string, path: string) {
    this.calls.push(`remove ${path}`);
    this.worktrees.delete(path);
  }
  async renameBranch(_root: string, from: string, to: string) {
    this.calls.push(`rename ${from} ${to}`);
    this.branches.set(to, this.branches.get(from)!);
    this.branches.delete(from);
  }
  async deleteBranch(_root: string, branch: string) {
    this.branches.delete(branch);
  }
  async listBranches(_root: string, prefix: string) {
    return [...this.branches.keys()].filter((b) => b.startsWith(prefix));
  }
}

function same(a: Tree, b: Tree): boolean {
  return a.size === b.size && [...a].every(([p, t]) => b.get(p) === t);
}
