// What moved under a node's worktree (ADR 0044), as a pure function of what
// vouch recorded when it made the worktree (or last committed in it) and what
// the worktree's git records say now. A sitting that broke or rewrote its
// `.git` link, switched or detached HEAD, or moved, deleted or rewrote its
// branch leaves work vouch cannot place: the attempt is an error
// (workspace_error) naming each thing that moved, and vouch commits nothing.
// A sitting that committed on top of vouch's last commit moved nothing: its
// commits are part of its work.
import type { WorktreeState } from "../ports.ts";

/** What vouch knows of a worktree it made. */
export interface KnownWorktree {
  path: string;
  /** The git dir its .git link named when vouch made it. */
  gitDir: string;
  /** The repository that git dir belonged to. */
  common: string;
  branch: string;
  /** The last commit vouch recorded on the branch (the start, before the first attempt). */
  parent: string;
}

function short(id: string): string {
  return id.slice(0, 12);
}

/** Each thing that moved, in words; empty when the worktree is as vouch left it. */
export function worktreeMoved(k: KnownWorktree, s: WorktreeState): string[] {
  const out: string[] = [];
  if (s.link === null) out.push(`the git dir vouch records it with (${k.gitDir}) is gone, or its .git no longer names it`);
  else if (s.link !== k.gitDir) out.push(`its .git link was changed: it names ${s.link}, not ${k.gitDir}`);
  else {
    if (s.backLink !== `${k.path}/.git`)
      out.push(`git's record of the worktree (${k.gitDir}/gitdir) was changed to name ${s.backLink ?? "nothing"}`);
    if (s.common !== k.common) out.push(`its git dir was re-pointed at another repository (${s.common ?? "none"}, not ${k.common})`);
    const ref = `refs/heads/${k.branch}`;
    if (s.head === null) out.push("its HEAD is unreadable");
    else if ("detached" in s.head) out.push(`HEAD was detached at ${short(s.head.detached)}`);
    else if (s.head.ref !== ref) out.push(`HEAD was switched to ${s.head.ref}, not the node's branch ${k.branch}`);
  }
  if (s.tip === null) out.push(`the branch ${k.branch} was deleted`);
  else if (!s.descends)
    out.push(`the branch ${k.branch} was moved from ${short(k.parent)} to ${short(s.tip)}, which does not descend from it`);
  return out;
}

/** The one line a node's error carries. */
export function movedMessage(moved: readonly string[]): string {
  return `the worktree was changed under vouch: ${moved.join("; ")} (vouch committed nothing; it records work only on the branch it made)`;
}
