// An in-memory GitPort for engine tests: commits are snapshots of path → text,
// a worktree is a working copy of one; the scripted "agent" edits it with
// edit(). Enough git to judge what the engine asks of it, and a log of calls.
import { GitPortError } from "../../../src/engine/errors.ts";
import type {
  ChangedPath,
  DiffStat,
  GitPort,
  MergePort,
  MergeStep,
  RecordedWorktree,
  RepoFingerprint,
  TreeLink,
  WorktreeState,
} from "../../../src/engine/ports.ts";

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
  /** Commit messages by commit id (the base's is the user's). */
  readonly messages = new Map<string, string>([[FAKE_BASE, "initial"]]);
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
  async branchSubject(_root: string, branch: string) {
    const tip = this.branches.get(branch);
    return tip === undefined ? null : (this.messages.get(tip) ?? "");
  }
  async addWorktree(_root: string, path: string, branch: string, commit: string) {
    this.calls.push(`add ${path} ${branch} ${commit}`);
    if (this.failAdd) throw this.failAdd;
    if (this.branches.has(branch)) throw new Error(`branch ${branch} exists`);
    this.branches.set(branch, commit);
    this.worktrees.set(path, { branch, files: new Map(this.commits.get(commit)!) });
  }
  async commonDir() {
    return `${FAKE_ROOT}/.git`;
  }
  /** What a test made a sitting do to a worktree's git records (ADR 0044). */
  readonly moved = new Map<string, Partial<WorktreeState>>();
  /** Each commit's parent: "does it descend" is answered from these. */
  readonly parents = new Map<string, string>();
  async worktreeState(_root: string, path: string, branch: string, parent: string): Promise<WorktreeState> {
    const tip = this.branches.get(branch) ?? null;
    let descends = false;
    for (let c: string | undefined = tip ?? undefined; c !== undefined; c = this.parents.get(c)) if (c === parent) descends = true;
    const wt = this.worktrees.get(path);
    return {
      link: `${FAKE_ROOT}/.git/worktrees/${path.split("/").pop()}`,
      backLink: `${path}/.git`,
      common: `${FAKE_ROOT}/.git`,
      head: { ref: `refs/heads/${wt?.branch ?? branch}` },
      tip,
      descends,
      ...this.moved.get(path),
    };
  }
  async recordAttempt(w: RecordedWorktree, message: string) {
    const wt = this.worktrees.get(w.path)!;
    const tip = this.branches.get(w.branch)!;
    if (tip !== w.parent) throw new Error(`branch ${w.branch} is at ${tip}, not ${w.parent}`);
    if (same(this.commits.get(tip)!, wt.files)) return tip;
    const id = `c${++this.n}`;
    this.commits.set(id, new Map(wt.files));
    this.parents.set(id, tip);
    this.branches.set(w.branch, id);
    this.messages.set(id, message);
    this.calls.push(`commit ${id} ${message}`);
    return id;
  }
  /** A content digest of the commit's files: two commits with the same files share a tree, as in git. */
  async treeId(_root: string, commit: string) {
    const files = [...(this.commits.get(commit) ?? new Map()).entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    return `tree:${JSON.stringify(files)}`;
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
  async listFiles(_root: string, commit: string) {
    return [...this.commits.get(commit)!.keys()];
  }
  async composeTree(_root: string, commit: string, from: string, paths: readonly string[], message: string) {
    const tree = new Map(this.commits.get(commit)!);
    const source = this.commits.get(from)!;
    for (const p of paths) {
      if (source.has(p)) tree.set(p, source.get(p)!);
      else tree.delete(p);
    }
    if (same(tree, this.commits.get(commit)!)) return commit;
    const id = `t${++this.n}`;
    this.commits.set(id, tree);
    this.parents.set(id, commit);
    this.calls.push(`compose ${id} ${message}`);
    return id;
  }
  /** The check trees written and not yet removed: folder → its files and links. */
  readonly trees = new Map<string, { commit: string; files: Tree; links: readonly TreeLink[] }>();
  /** Every check tree ever written, in order. */
  readonly treesMade: { dir: string; commit: string }[] = [];
  ignored: string[] = [];
  async checkoutTree(_root: string, commit: string, name: string, links: readonly TreeLink[]) {
    const dir = `${FAKE_ROOT}/.vouch/trees/${name}`;
    this.trees.set(dir, { commit, files: new Map(this.commits.get(commit)!), links });
    this.treesMade.push({ dir, commit });
    return dir;
  }
  async removeTree(dir: string) {
    this.trees.delete(dir);
  }
  async ignoredFolders() {
    return this.ignored;
  }
  /** The user's repository records a sitting must leave alone; a test changes one to play a hostile sitting. */
  readonly repoFiles: Record<string, string> = {
    config: "c0",
    hooks: "h0",
    "info/exclude": "e0",
    HEAD: "ref: refs/heads/main",
    index: "i0",
  };
  async repoFingerprint(): Promise<RepoFingerprint> {
    const refs = Object.fromEntries([...this.branches].filter(([b]) => !b.startsWith("vouch/")).map(([b, c]) => [`refs/heads/${b}`, c]));
    return { files: { ...this.repoFiles }, refs };
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

/** A MergePort over a FakeGit's commits: a three-way merge of path → text against the commit
 *  both sides started from (FAKE_BASE); a path both sides changed differently conflicts. */
export class FakeMerge implements MergePort {
  readonly calls: string[] = [];
  private n = 0;
  constructor(private readonly git: FakeGit) {}
  async mergeCommit(_root: string, onto: string, source: string, message: string): Promise<MergeStep> {
    this.calls.push(`merge ${source} onto ${onto}`);
    const base = this.git.commits.get(FAKE_BASE)!;
    const ours = this.git.commits.get(onto);
    const theirs = this.git.commits.get(source);
    if (ours === undefined || theirs === undefined)
      throw new GitPortError(["merge-tree"], `the judged commit ${source} is not in the repository`);
    const out = new Map(ours);
    const paths: string[] = [];
    for (const p of new Set([...ours.keys(), ...theirs.keys()])) {
      const [b, o, t] = [base.get(p), ours.get(p), theirs.get(p)];
      if (t === b || t === o) continue;
      if (o !== b) paths.push(p);
      else if (t === undefined) out.delete(p);
      else out.set(p, t);
    }
    if (paths.length > 0) return { merged: false, paths, source };
    const id = `m${++this.n}`;
    this.git.commits.set(id, out);
    this.calls.push(`commit ${id} ${message}`);
    return { merged: true, commit: id, source };
  }
}
