// Where a repository keeps its git records (ADR 0041), read from the file
// system alone — no git process, and nothing the user's environment says
// (GIT_DIR): the `.git` at or above a folder, the git dir it names (a linked
// worktree's or a submodule's `.git` is a file, "gitdir: PATH"), and the common
// dir holding objects, refs and config (a linked worktree's git dir names it in
// its `commondir` file). Paths come back as the file system has them.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

export interface GitRecords {
  /** The work tree's top folder (holding `.git`). */
  top: string;
  /** `<top>/.git`: a folder, or a file naming the git dir. */
  dotGit: string;
  /** The git dir: HEAD, index, and for a linked worktree its own records. */
  gitDir: string;
  /** Objects, refs, config, hooks, info/exclude (the git dir itself for a main checkout). */
  commonDir: string;
}

/** The records of the repository whose work tree holds `dir`; null when none does. */
export function gitRecordsOf(dir: string): GitRecords | null {
  return gitRecordsAround(dir, 1)[0] ?? null;
}

/** The records of every repository whose work tree holds `dir`, nearest first. A sitting in a
 *  shared folder can plant a `.git` in a subfolder: the nearest repository is then its own, and
 *  only the whole chain still names the user's (whose `.vouch` must stay hidden). */
export function gitRecordsAround(dir: string, most = Number.POSITIVE_INFINITY): GitRecords[] {
  const found: GitRecords[] = [];
  for (let d = resolve(dir); found.length < most; d = dirname(d)) {
    const dotGit = join(d, ".git");
    const records = existsSync(dotGit) ? recordsAt(d, dotGit) : null;
    if (records !== null) found.push(records);
    if (dirname(d) === d) break;
  }
  return found;
}

function recordsAt(top: string, dotGit: string): GitRecords | null {
  let gitDir: string;
  try {
    if (statSync(dotGit).isDirectory()) gitDir = dotGit;
    else {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (m === null) return null;
      gitDir = isAbsolute(m[1]!) ? m[1]! : resolve(top, m[1]!);
    }
    gitDir = realpathSync(gitDir);
    // Whatever a `gitdir:` line names, only a folder is a git dir (not a ledger file, not a socket).
    if (!statSync(gitDir).isDirectory()) return null;
  } catch {
    return null;
  }
  let commonDir = gitDir;
  try {
    const named = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    const common = named === "" ? gitDir : realpathSync(isAbsolute(named) ? named : resolve(gitDir, named));
    if (statSync(common).isDirectory()) commonDir = common;
  } catch {
    // a main checkout's git dir has no commondir: it is its own
  }
  return { top: realpathSync(top), dotGit: join(realpathSync(top), ".git"), gitDir, commonDir };
}
