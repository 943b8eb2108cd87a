// The trees sealed checks run on (ADR 0043): a commit's tree with some paths
// taken from another commit, composed in git's object store through a private
// index, then written into a folder of its own with checkout-index. The folder
// gets a git dir of its own (HEAD detached at the commit, the repository's
// objects borrowed through objects/info/alternates), so `git` in a check sees
// that tree and never finds the user's repository above it; the dependency
// folders of the user's checkout (git-ignored: node_modules, a virtualenv) are
// symbolic links into it. Nothing of the worktree a sitting wrote is read.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, rmSync, statfsSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TreeLink } from "../engine/ports.ts";
import { GitError } from "./git-error.ts";
import { runGit } from "./run-git.ts";

const HEX = /^[0-9a-f]{40,64}$/;
/** Only folders under one of these are ever written or removed: a bug cannot rm -rf elsewhere. */
const DISK_MARK = "/.vouch/trees/";
const TMPFS_MARK = "/vouch-trees-";
const TMPFS = "/dev/shm";
/** The largest tree (by what tmpfs pages it takes) written to a tmpfs, and the room left there it needs. */
const TMPFS_MAX_BYTES = 512 * 1024 * 1024;
const TMPFS_HEADROOM = 4;
/** tmpfs' magic number (statfs f_type). */
const TMPFS_MAGIC = 0x01021994;
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_@-]*(\/[A-Za-z0-9_][A-Za-z0-9_@-]*)*$/;

const isTreeDir = (dir: string) => dir.includes(DISK_MARK) || dir.includes(TMPFS_MARK);

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

/** What the tree takes on a tmpfs: each file at least a page. */
async function treeBytes(root: string, commit: string): Promise<number> {
  const out = await runGit(root, ["ls-tree", "-r", "-l", "-z", "--full-tree", commit]);
  let bytes = 0;
  for (const e of out.split("\0")) {
    const size = Number(e.split(/\s+/)[3]);
    if (Number.isFinite(size)) bytes += Math.max(4096, Math.ceil(size / 4096) * 4096);
  }
  return bytes;
}

/** Where each repository's trees go, decided once per process (a repository's size changes little
 *  in a run; the size takes a read of every object's header). */
const homes = new Map<string, Promise<string>>();

/** Where a tree goes: a tmpfs when there is one with room (writing 10,000 files there took a tenth
 *  of the time it took on the disk of a busy machine: bench/sealed-checks.ts), else vouch's own folder
 *  in the repository. A folder per user and repository, private (0700). */
function treesHome(root: string, commit: string): Promise<string> {
  let home = homes.get(root);
  if (home === undefined) homes.set(root, (home = chooseHome(root, commit)));
  return home;
}

/** The tmpfs folder of a repository's trees (it may not exist). */
function tmpfsHome(root: string): string {
  const uid = process.getuid?.() ?? 0;
  return join(TMPFS, `vouch-trees-${uid}`, createHash("sha256").update(root).digest("hex").slice(0, 16));
}

/** The folders a run's check trees may be in (what a killed session left there is vouch clean's). */
export function runTreeFolders(root: string, runId: string): string[] {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(runId)) return [];
  return [join(root, ".vouch", "trees", runId), join(tmpfsHome(root), runId)].filter(exists);
}

async function chooseHome(root: string, commit: string): Promise<string> {
  try {
    const fs = statfsSync(TMPFS);
    const bytes = await treeBytes(root, commit);
    if (fs.type === TMPFS_MAGIC && bytes <= TMPFS_MAX_BYTES && fs.bavail * fs.bsize > bytes * TMPFS_HEADROOM) {
      const home = tmpfsHome(root);
      mkdirSync(home, { recursive: true, mode: 0o700 });
      return home;
    }
  } catch {
    // no tmpfs at /dev/shm (another platform), or no room: the disk
  }
  return join(root, ".vouch", "trees");
}

export async function checkoutTree(root: string, commit: string, name: string, links: readonly TreeLink[]): Promise<string> {
  commitId("commit", commit);
  if (!PLAIN_NAME.test(name) || name.split("/").some((p) => p === "." || p === ".."))
    throw new GitError(["checkout-index"], `"${name}" cannot name a check tree`);
  const dir = join(await treesHome(root, commit), name);
  await checkoutTreeAt(root, commit, dir, links);
  return dir;
}

/** checkoutTree into a given folder (one under .vouch/trees or a vouch-trees- folder). */
export async function checkoutTreeAt(root: string, commit: string, dir: string, links: readonly TreeLink[]): Promise<void> {
  commitId("commit", commit);
  if (!isTreeDir(dir)) throw new GitError(["checkout-index"], `${dir} is not a check tree folder`);
  const common = await commonOf(root);
  await rm(dir, { recursive: true, force: true }); // what a killed session left
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
  if (!isTreeDir(dir)) throw new GitError(["rm"], `${dir} is not a check tree folder`);
  // Off the event loop: 10,000 files take a while to unlink, and other sittings stream meanwhile.
  await rm(dir, { recursive: true, force: true });
}

const commons = new Map<string, Promise<string>>();

/** The repository's common git dir (where its objects are), once per repository. */
function commonOf(root: string): Promise<string> {
  let c = commons.get(root);
  if (c === undefined) {
    c = runGit(root, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).then((out) => out.replace(/\n$/, ""));
    commons.set(root, c);
    c.catch(() => commons.delete(root));
  }
  return c;
}

/** Folders git ignores in the checkout at root (not descended into), without vouch's own. */
export async function ignoredFolders(root: string): Promise<string[]> {
  const out = await runGit(root, ["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", "."]);
  return out
    .split("\0")
    .filter((p) => p.endsWith("/") && p !== ".vouch/")
    .map((p) => p.slice(0, -1));
}
