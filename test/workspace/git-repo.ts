// Real git repositories in temp folders for the workspace tests, and the
// fingerprint of a user's checkout (status, index bytes, HEAD) that vouch must
// leave exactly as it found it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
  GIT_OPTIONAL_LOCKS: "0",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** A new repository with `files` committed on branch main. */
export function makeRepo(files: Record<string, string>, prefix = "vouch-git-"): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  git(root, "init", "--quiet", "--initial-branch=main");
  writeFiles(root, files);
  git(root, "add", "--all");
  git(root, "commit", "--quiet", "-m", "initial");
  return root;
}

/** Makes `dir` a repository with everything in it committed on main (a copy of the sample repository, say). */
export function commitFolder(dir: string): string {
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "add", "--all");
  git(dir, "commit", "--quiet", "-m", "initial");
  return dir;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** What "the user's checkout is unchanged" means: same status, same index bytes, same HEAD. */
export function fingerprint(root: string): { status: string; index: string; head: string; ref: string } {
  const gitDir = join(root, ".git");
  return {
    status: git(root, "status", "--porcelain=v1", "--untracked-files=all", "--ignored=no"),
    index: createHash("sha256")
      .update(readFileSync(join(gitDir, "index")))
      .digest("hex"),
    head: readFileSync(join(gitDir, "HEAD"), "utf8"),
    ref: git(root, "rev-parse", "HEAD"),
  };
}

/** Every record of the user's repository a sitting must not change, as digests: its config,
 *  hooks, refs (vouch's own `vouch/…` branches left out: vouch writes those), HEAD, index,
 *  info/exclude, registered worktrees, and the checkout's files. Equal before and after
 *  means byte-identical. */
export function records(root: string): Record<string, string> {
  const gitDir = join(root, ".git");
  const digest = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");
  const file = (p: string) => {
    try {
      return digest(readFileSync(p));
    } catch {
      return "(none)";
    }
  };
  const tree = (dir: string): string => {
    try {
      return digest(
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .map((e) => `${join(e.parentPath, e.name)}:${e.isFile() ? file(join(e.parentPath, e.name)) : e.isDirectory() ? "dir" : "other"}`)
          .sort()
          .join("\n"),
      );
    } catch {
      return "(none)";
    }
  };
  // A hostile sitting may have set config that runs programs or replace refs that loop: read past them.
  const safe = (...args: string[]) =>
    git(root, "--no-replace-objects", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", ...args);
  const refs = safe("for-each-ref", "--format=%(refname) %(objectname)")
    .split("\n")
    .filter((l) => !l.startsWith("refs/heads/vouch/"))
    .join("\n");
  return {
    config: file(join(gitDir, "config")),
    hooks: tree(join(gitDir, "hooks")),
    refs: digest(refs),
    head: file(join(gitDir, "HEAD")),
    index: file(join(gitDir, "index")),
    exclude: file(join(gitDir, "info", "exclude")),
    worktrees: tree(join(gitDir, "worktrees")),
    files: digest(
      safe("ls-files", "-z", "--cached", "--others", "--exclude-standard")
        .split("\0")
        .filter((p) => p !== "")
        .map((p) => `${p}:${file(join(root, p))}`)
        .join("\n"),
    ),
    status: safe("status", "--porcelain=v1", "--untracked-files=all"),
  };
}
