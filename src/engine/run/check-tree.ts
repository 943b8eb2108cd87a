// The trees one attempt's sealed checks run on (ADR 0043): never the live
// worktree (what a sitting, or something it left running, wrote there after
// vouch recorded the commit is not read), but a tree vouch builds from the
// commit it recorded, with the paths a check must not take from the work
// (fromBasePaths) as the base has them, and for a witness (ADR 0044) the base
// with the check's from_result paths from the commit. Each check gets a fresh
// copy in a folder of its own, removed after it; the composed trees are made
// once per attempt and reused. The next check's copy is written while the
// current check runs (prepare, ADR 0073).
import { isAbsolute, join, relative } from "node:path";
import { checksPath } from "../graph/checks-library.ts";
import type { CheckSpec, TreeLink } from "../ports.ts";
import { fromBasePaths, witnessFromResult, type CheckTreeInput } from "../workspace/check-reads.ts";
import { compileGlob, matching } from "../workspace/glob.ts";
import { checkTreeName } from "../workspace/names.ts";
import { DEFAULT_DEPS } from "../workspace/spec.ts";
import type { NodeEnv } from "./contract.ts";

/** What an attempt's checks are built from: the repository, the commit judged and its base. */
export interface CheckSource {
  root: string;
  /** Where the node's cwd is in the repository: "" at its root, else "dir/". */
  prefix: string;
  base: string;
  commit: string;
  protect: readonly string[];
  /** Globs of the checkout's git-ignored folders the checks see (installed dependencies). */
  deps?: readonly string[];
  /** The checks run sealed (ADR 0040): confined to their tree, no network unless they say so. */
  sealed?: boolean;
}

/** A check's tree on disk: where it runs, and the dependency folders it links read-only. */
export interface OpenTree {
  dir: string;
  links: readonly TreeLink[];
  /** The git tree object id of what the folder holds (the composed tree, not the commit's), to
   *  record and verify (`git rev-parse COMMIT^{tree}` names it too when nothing came from the base);
   *  null when it could not be read. */
  treeId: string | null;
  close(): Promise<void>;
}

export class AttemptTrees {
  private lists: Promise<{ base: string[]; commit: string[] }> | undefined;
  private linked: Promise<TreeLink[]> | undefined;
  private readonly composed = new Map<string, Promise<string>>();
  private readonly treeIds = new Map<string, Promise<string | null>>();
  /** Trees prepared ahead (prepare), by check and side, until a check opens them. */
  private readonly spares = new Map<string, Promise<OpenTree>>();
  private readonly ids = new Map<CheckSpec, number>();
  private n = 0;

  constructor(
    private readonly env: NodeEnv,
    readonly source: CheckSource,
    private readonly attempt: number,
  ) {}

  /** A fresh folder holding the tree `spec` sees: the result's, or (a witness) the base's. The one
   *  prepare made for it when there is one (each is opened once: a rerun gets another). */
  open(spec: CheckSpec, onBase: boolean): Promise<OpenTree> {
    const key = this.key(spec, onBase);
    const spare = this.spares.get(key);
    if (spare === undefined) return this.build(spec, onBase);
    this.spares.delete(key);
    return spare;
  }

  /** Starts building the tree the next check will open, while the current one runs (ADR 0073):
   *  the next check then waits for what is left of it, not for all of it. A failure is the
   *  opening check's (open returns it). */
  prepare(spec: CheckSpec, onBase: boolean): void {
    const key = this.key(spec, onBase);
    if (this.spares.has(key)) return;
    const p = this.build(spec, onBase);
    p.catch(() => undefined);
    this.spares.set(key, p);
  }

  /** Removes the prepared trees no check opened (a witness that passed on the base, a stop). */
  async dispose(): Promise<void> {
    const left = [...this.spares.values()];
    this.spares.clear();
    await Promise.all(
      left.map((p) =>
        p.then(
          (t) => t.close(),
          () => undefined,
        ),
      ),
    );
  }

  private key(spec: CheckSpec, onBase: boolean): string {
    let id = this.ids.get(spec);
    if (id === undefined) this.ids.set(spec, (id = this.ids.size));
    return `${id}${onBase ? "b" : "r"}`;
  }

  private async build(spec: CheckSpec, onBase: boolean): Promise<OpenTree> {
    const { root, base, commit } = this.source;
    const git = this.env.run.ports.git;
    // Numbered as asked for, before anything is awaited: each folder's name is unique (with reruns
    // the numbers follow the order trees were asked for, not the order the checks ran).
    const n = ++this.n;
    const name = checkTreeName(this.env.run.options.runId, this.env.id, this.env.branch, this.attempt, n, onBase);
    // The dependency folders are listed while the tree is composed.
    const linking = this.links();
    const input = await this.input(spec);
    const tree = onBase
      ? await this.compose(base, commit, witnessFromResult(input), `vouch: the base with ${spec.name}'s from_result paths`)
      : await this.compose(commit, base, fromBasePaths(input), `vouch: the tree ${spec.name} checks`);
    const links = await linking;
    const [dir, treeId] = await Promise.all([git.checkoutTree(root, tree, name, links), this.treeIdOf(tree)]);
    return { dir, links, treeId, close: () => git.removeTree(dir) };
  }

  /** Once per composed commit of the attempt. */
  private treeIdOf(commit: string): Promise<string | null> {
    let p = this.treeIds.get(commit);
    if (p === undefined) {
      p = this.env.run.ports.git.treeId(this.source.root, commit).catch(() => null);
      this.treeIds.set(commit, p);
    }
    return p;
  }

  private async input(spec: CheckSpec): Promise<CheckTreeInput> {
    const lists = await (this.lists ??= this.list());
    return {
      run: spec.run,
      prefix: this.source.prefix,
      protect: this.source.protect,
      ...(spec.fromBase !== undefined ? { fromBase: spec.fromBase } : {}),
      ...(spec.fromResult !== undefined ? { fromResult: spec.fromResult } : {}),
      graphFiles: this.graphFiles(),
      baseFiles: lists.base,
      commitFiles: lists.commit,
    };
  }

  private async list(): Promise<{ base: string[]; commit: string[] }> {
    const [base, commit] = await Promise.all([
      this.env.run.workspaces.baseFiles(this.source.root, this.source.base),
      this.env.run.ports.git.listFiles(this.source.root, this.source.commit),
    ]);
    return { base, commit };
  }

  /** The same paths from the same commits give the same tree: composed once per attempt. */
  private compose(onto: string, from: string, paths: string[], message: string): Promise<string> {
    const key = `${onto}\0${from}\0${paths.join("\0")}`;
    let p = this.composed.get(key);
    if (p === undefined) {
      p = this.env.run.ports.git.composeTree(this.source.root, onto, from, paths, message);
      this.composed.set(key, p);
    }
    return p;
  }

  /** The graph file and its checks files, where they are inside the repository. */
  private graphFiles(): string[] {
    const graph = this.env.frame.graphPath;
    const files = [graph, ...(this.env.frame.graph.checks_from ?? []).map((e) => checksPath(graph, e))];
    return files.map((f) => relative(this.source.root, f)).filter((r) => r !== "" && !r.startsWith("..") && !isAbsolute(r));
  }

  private links(): Promise<TreeLink[]> {
    this.linked ??= (async () => {
      const globs = (this.source.deps ?? DEFAULT_DEPS).map(compileGlob);
      const ignored = await this.env.run.workspaces.ignoredFolders(this.source.root);
      return matching(ignored, globs).map((path) => ({ path, target: join(this.source.root, path) }));
    })();
    return this.linked;
  }
}
