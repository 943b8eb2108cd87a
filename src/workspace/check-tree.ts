// The trees sealed checks run on (ADR 0043): a commit's tree with some paths
// taken from another commit, composed in git's object store through a private
// index, then written into a folder of its own with checkout-index. The folder
// gets a git dir of its own (HEAD detached at the commit, the repository's
// objects borrowed through objects/info/alternates), so `git` in a check sees
// that tree and never finds the user's repository above it; the dependency
// folders of the user's checkout (git-ignored: node_modules, a virtualenv) are
// symbolic links into it. Nothing of the worktree a sitting wrote is read.
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TreeLink } from "../engine/ports.ts";
import { GitError } from "./git-error.ts";
import { runGit } from "./run-git.ts";

const HEX = /^[0-9a-f]{40,64}$/;
/** Only folders of this shape are ever removed by removeTree: a bug cannot rm -rf elsewhere. */
const TREES_MARK = "/.vouch/trees/";

function commitId(what: string, id: string): string {
  if (!HEX.test(id)) throw new GitError(["read-tree"], `${what} "${id}" is not a commit id`);
  return id;
}

/** Every path of the commit's tree (files, symbolic links, submodules). */
export async function listFiles(root: string, commit: string): Promise<string[]> {
  const out = await runGit(root, ["ls-tree", "-r", "-z", "--name-only", "--full-tree", commitId("commit", commit)]);
  return out.split("\0").filter((p) => p !== "");
}

export async function composeTree(root: string, commit: string, from: string, paths: readonly string[], message: string): Promise<string> {
  commitId("commit", commit);
  commitId("commit", from);
  if (paths.length === 0) return commit;
  const dir = mkdtempSync(join(tmpdir(), "vouch-tree-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    await runGit(root, ["read-tree", commit], undefined, { env });
    const take = new Set(paths);
    // Out first, then back in as `from` has them: a path `from` lacks stays out.
    const out = paths.map((p) => `0 ${"0".repeat(40)}\t${p}\0`).join("");
    await runGit(root, ["update-index", "-z", "--index-info"], undefined, { env, stdin: out });
    const listed = (await runGit(root, ["ls-tree", "-r", "-z", "--full-tree", from])).split("\0");
    const back = listed.filter((e) => e !== "" && take.has(e.slice(e.indexOf("\t") + 1))).map((e) => `${e}\0`);
    if (back.length > 0) await runGit(root, ["update-index", "-z", "--index-info"], undefined, { env, stdin: back.join("") });
    const tree = (await runGit(root, ["write-tree"], undefined, { env })).trim();
    if (tree === (await runGit(root, ["rev-parse", "--verify", `${commit}^{tree}`])).trim()) return commit;
    return (await runGit(root, ["commit-tree", tree, "-p", commit, "-m", message])).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export async function checkoutTree(root: string, commit: string, dir: string, links: readonly TreeLink[]): Promise<void> {
  commitId("commit", commit);
  if (!dir.includes(TREES_MARK)) throw new GitError(["checkout-index"], `${dir} is not a check tree folder`);
  const common = (await runGit(root, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).replace(/\n$/, "");
  rmSync(dir, { recursive: true, force: true }); // what a killed session left
  const gitDir = join(dir, ".git");
  for (const d of ["objects/info", "refs/heads", "refs/tags"]) mkdirSync(join(gitDir, d), { recursive: true, mode: 0o700 });
  writeFileSync(join(gitDir, "HEAD"), `${commit}\n`);
  writeFileSync(join(gitDir, "objects", "info", "alternates"), `${join(common, "objects")}\n`);
  writeFileSync(join(gitDir, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n");
  const at = [`--git-dir=${gitDir}`, `--work-tree=${dir}`];
  await runGit(dir, [...at, "read-tree", commit]);
  await runGit(dir, [...at, "-c", "checkout.workers=0", "checkout-index", "--all", "--force", "-u"]);
  for (const l of links) {
    const at = join(dir, l.path);
    // A path the tree has (a vendored folder) stays the tree's; a link needs its folder there.
    if (exists(at) || !exists(dirname(at))) continue;
    symlinkSync(l.target, at);
  }
}

export async function removeTree(dir: string): Promise<void> {
  if (!dir.includes(TREES_MARK)) throw new GitError(["rm"], `${dir} is not a check tree folder`);
  rmSync(dir, { recursive: true, force: true });
}

/** Folders git ignores in the checkout at root (not descended into), without vouch's own. */
export async function ignoredFolders(root: string): Promise<string[]> {
  const out = await runGit(root, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", "."]);
  return out
    .split("\0")
    .filter((p) => p.endsWith("/") && p !== ".vouch/")
    .map((p) => p.slice(0, -1));
}
