// The trees sealed checks run on (ADR 0043): a commit's tree with some paths
// taken from another commit, composed in git's object store through a private
// index, then written into a folder of its own with checkout-index. The folder
// gets a git dir of its own (HEAD detached at the commit, the repository's
// objects borrowed through objects/info/alternates), so `git` in a check sees
// that tree and never finds the user's repository above it; the dependency
// folders of the user's checkout (git-ignored: node_modules, a virtualenv) are
// symbolic links into it. Nothing of the worktree a sitting wrote is read.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statfsSync, symlinkSync, writeFileSync } from "node:fs";
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

/** Memos of what a commit holds (a commit never changes): its tree id, and its tree listed with
 *  modes and object ids (a base is listed once for every check of every node on it). */
const MEMO_CAP = 8;
const treeIds = new Map<string, Promise<string>>();
const listings = new Map<string, Promise<Map<string, string>>>();

function memo<T>(m: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = m.get(key);
  if (p === undefined) {
    if (m.size >= MEMO_CAP) m.delete(m.keys().next().value!);
    p = make();
    m.set(key, p);
    p.catch(() => m.delete(key));
  }
  return p;
}

const treeIdOf = (root: string, commit: string) =>
  memo(treeIds, `${root}\0${commit}`, async () => (await runGit(root, ["rev-parse", "--verify", `${commit}^{tree}`])).trim());

/** path → its `ls-tree` entry ("mode type id\tpath") in the commit. */
const listingOf = (root: string, commit: string) =>
  memo(listings, `${root}\0${commit}`, async () => {
    const byPath = new Map<string, string>();
    for (const e of (await runGit(root, ["ls-tree", "-r", "-z", "--full-tree", commit])).split("\0"))
      if (e !== "") byPath.set(e.slice(e.indexOf("\t") + 1), e);
    return byPath;
  });

/** No git process when the paths are the same in both, else four (read-tree, update-index,
 *  write-tree, commit-tree); both listings and `commit`'s tree id are read once per process
 *  (bench/check-tree-pieces.ts, ADR 0073). */
export async function composeTree(root: string, commit: string, from: string, paths: readonly string[], message: string): Promise<string> {
  commitId("commit", commit);
  commitId("commit", from);
  if (paths.length === 0) return commit;
  const [listed, mine] = await Promise.all([listingOf(root, from), listingOf(root, commit)]);
  // The paths as `from` has them are as the commit has them (the agent touched none): the commit
  // itself, without a git process (the usual case: compared by mode and object id).
  if (paths.every((p) => listed.get(p) === mine.get(p))) return commit;
  const own = await treeIdOf(root, commit);
  const dir = mkdtempSync(join(tmpdir(), "vouch-tree-index-"));
  try {
    const env = { GIT_INDEX_FILE: join(dir, "index") };
    await runGit(root, ["read-tree", commit], undefined, { env });
    // Out first, then back in as `from` has them (one update-index reads the lines in order): a
    // path `from` lacks stays out.
    const lines = [...new Set(paths)].map((p) => `0 ${"0".repeat(40)}\t${p}\0`);
    for (const p of new Set(paths)) {
      const e = listed.get(p);
      if (e !== undefined) lines.push(`${e}\0`);
    }
    await runGit(root, ["update-index", "-z", "--index-info"], undefined, { env, stdin: lines.join("") });
    const tree = (await runGit(root, ["write-tree"], undefined, { env })).trim();
    if (tree === own) return commit;
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

/** A real folder (not a link) this user owns that no one else may enter. */
function ownPrivateFolder(dir: string): boolean {
  const st = lstatSync(dir);
  return st.isDirectory() && st.uid === (process.getuid?.() ?? st.uid) && (st.mode & 0o077) === 0;
}

async function chooseHome(root: string, commit: string): Promise<string> {
  try {
    const fs = statfsSync(TMPFS);
    const bytes = await treeBytes(root, commit);
    if (fs.type === TMPFS_MAGIC && bytes <= TMPFS_MAX_BYTES && fs.bavail * fs.bsize > bytes * TMPFS_HEADROOM) {
      const home = tmpfsHome(root);
      mkdirSync(home, { recursive: true, mode: 0o700 });
      // /dev/shm is shared by every user and the folder's name is predictable: one another user
      // made first (or a link) would let them read or change the trees. Only our own, private folders.
      if (ownPrivateFolder(dirname(home)) && ownPrivateFolder(home)) return home;
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
  // One process reads the tree into the index and writes every file (with its stat data, so
  // `git status` is clean). Sequential: parallel checkout (checkout.workers=0, one per core) was
  // slower on a shared 2-core machine (ADR 0073).
  await runGit(dir, [...at, "-c", "checkout.workers=1", "read-tree", "--reset", "-u", commit]);
  for (const l of links) {
    const at = join(dir, l.path);
    // A path the tree has (a vendored folder) stays the tree's; a link needs its folder there.
    if (exists(at) || !exists(dirname(at))) continue;
    symlinkSync(l.target, at);
  }
}

/** Removals under way (removeTree returns before the files are unlinked). */
const removing = new Set<Promise<void>>();
let removals = 0;

/** The folder leaves its path at once (a rename beside it, inside the same run's folder, so `vouch
 *  clean RUN` finds what a killed session left) and its files are unlinked in the background, off
 *  the event loop: 10,000 files took 45-80 ms to unlink, which no verdict and no next check waits
 *  for (ADR 0073). A pending removal keeps the process alive until it is done. */
export async function removeTree(dir: string): Promise<void> {
  if (!isTreeDir(dir)) throw new GitError(["rm"], `${dir} is not a check tree folder`);
  const gone = `${dir.replace(/\/+$/, "")}.removing-${process.pid}-${++removals}`;
  let target = dir;
  try {
    renameSync(dir, gone);
    target = gone;
  } catch {
    // not there (removed already), or it cannot move: removed where it is
  }
  const p = rm(target, { recursive: true, force: true }).catch(() => undefined);
  removing.add(p);
  void p.finally(() => removing.delete(p));
}

/** Resolves when every removal removeTree started has finished. */
export async function treesRemoved(): Promise<void> {
  while (removing.size > 0) await Promise.all([...removing]);
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
