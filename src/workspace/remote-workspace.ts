// Map branches with worktrees on workers (ADR 0029), the coordinator's side: before
// the ledger opens, find the repository's remote, resolve each `workspace.base` the
// branches use once, and refuse a commit the remote does not have — a worker could
// not fetch it, so no job is made and no run begins (exit 2).
import { isAbsolute, resolve } from "node:path";
import { UsageError } from "../engine/errors.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import type { RemoteWorkspace } from "../engine/ports.ts";
import { workspaceOf } from "../engine/workspace/spec.ts";
import { realGit } from "./git.ts";
import { runGitRaw } from "./run-git.ts";

/** The base refs the top graph's map branches start worktrees from (none: no repository needed).
 *  A branch node continuing a worktree outside its branch is refused: that worktree is here. */
export function branchBases(graph: GraphFile, url: string): string[] {
  const refs = new Set<string>();
  for (const [mapId, node] of Object.entries(graph.nodes)) {
    if (node.kind !== "map") continue;
    for (const [id, b] of Object.entries(node.branch)) {
      const spec = workspaceOf(graph, b);
      if (spec === null) continue;
      if (spec.from === undefined) refs.add(spec.base);
      else if (!Object.hasOwn(node.branch, spec.from)) {
        throw new UsageError(
          `--executor ${url}: node ${mapId}.branch.${id} continues the worktree of "${spec.from}", outside the branch; a worker cannot reach a worktree on this machine`,
          "run this graph without --executor, or start the branch's worktree from a base (drop workspace.from)",
        );
      }
    }
  }
  return [...refs];
}

/** `user:password@` in a URL, or any `name@` over http(s)/ftp(s): it would travel through Redis
 *  to every worker. A token alone in the user's place (`https://ghp_...@github.com/`) is a
 *  credential too, and an HTTP user name is never needed there: each worker's credential helper
 *  supplies its own. `ssh://git@host/` keeps its user (no secret; the key is the worker's). */
export function hasPassword(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(url) || /^(https?|ftps?):\/\/[^/@]*@/i.test(url);
}

/** A local path (not scheme://, not scp-like host:path) is made absolute, so a worker on this machine finds it. */
function absoluteUrl(url: string, root: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || isAbsolute(url)) return url;
  if (/^[^/]+:/.test(url)) return url; // host:path (ssh)
  return resolve(root, url);
}

/** The remote `git push` would use from the current branch (its upstream's), else `origin`. */
async function remoteName(root: string): Promise<string> {
  const head = await runGitRaw(root, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const branch = head.stdout.trim();
  if (head.exit === 0 && branch !== "" && !branch.startsWith("-")) {
    const r = await runGitRaw(root, ["config", "--get", `branch.${branch}.remote`]);
    const name = r.stdout.trim();
    if (r.exit === 0 && name !== "" && name !== "." && !name.startsWith("-")) return name;
  }
  return "origin";
}

async function remoteUrl(root: string, remote: string, url: string): Promise<string> {
  const r = await runGitRaw(root, ["remote", "get-url", "--", remote]);
  const got = r.stdout.trim();
  if (r.exit !== 0 || got === "") {
    throw new UsageError(
      `--executor ${url}: the repository ${root} has no remote "${remote}"; workers fetch the branches' base commit from it and push their branches to it`,
      `add one that the workers can reach: git remote add ${remote} URL && git push ${remote} HEAD`,
    );
  }
  if (hasPassword(got)) {
    throw new UsageError(
      `--executor ${url}: the URL of remote "${remote}" holds a password or token; it would go through Redis to every worker`,
      "give the remote a URL without credentials (no user:password@ or token@); each worker uses its own (an SSH key, a credential helper)",
    );
  }
  return absoluteUrl(got, root);
}

/** Fetches the branches of `remote`, so `remoteHas` sees what is there now. */
async function fetchRemote(root: string, remote: string, url: string): Promise<void> {
  const f = await runGitRaw(root, ["fetch", "--quiet", "--no-tags", "--", remote, `+refs/heads/*:refs/remotes/${remote}/*`]);
  if (f.exit !== 0) {
    throw new UsageError(
      `--executor ${url}: could not fetch remote "${remote}" to check the base commit is there: ${f.stderr.trim().split("\n")[0] ?? ""}`,
      "make the remote reachable from here (and from the workers), then run again",
    );
  }
}

/** True when a branch of `remote` (fetched by `fetchRemote`) holds `commit`. */
async function remoteHas(root: string, remote: string, commit: string): Promise<boolean> {
  const r = await runGitRaw(root, [
    "for-each-ref",
    "--count=1",
    "--format=%(refname)",
    "--contains",
    commit,
    "--",
    `refs/remotes/${remote}/`,
  ]);
  return r.exit === 0 && r.stdout.trim() !== "";
}

/** What the jobs carry for the branches' worktrees, or undefined when no branch node has one. */
export async function prepareRemoteWorkspace(graph: GraphFile, baseDir: string, url: string): Promise<RemoteWorkspace | undefined> {
  const refs = branchBases(graph, url);
  if (refs.length === 0) return undefined;
  const root = await realGit.repoRoot(baseDir);
  if (root === null)
    throw new UsageError(
      `--executor ${url}: map branches with worktrees need a git repository, and ${baseDir} is not in one`,
      "run from inside the repository the branches work on",
    );
  const prefix = (await realGit.cwdPrefix(baseDir)).replace(/\/+$/, "");
  const remote = await remoteName(root);
  const remoteAt = await remoteUrl(root, remote, url);
  const bases: RemoteWorkspace["bases"] = [];
  let fetched = false; // once for all the bases, after the first resolves
  for (const ref of refs) {
    const commit = await realGit.resolveCommit(root, ref);
    if (commit === null)
      throw new UsageError(
        `--executor ${url}: workspace base "${ref}" names no commit in ${root}`,
        "name a branch, tag or commit that exists",
      );
    if (!fetched) await fetchRemote(root, remote, url);
    fetched = true;
    if (!(await remoteHas(root, remote, commit))) {
      throw new UsageError(
        `--executor ${url}: the base commit ${commit.slice(0, 12)} (workspace base "${ref}") is not on remote "${remote}" (${remoteAt}); workers fetch it from there`,
        `push it first (git push ${remote} ${ref === "HEAD" ? "HEAD" : ref}), then run again`,
      );
    }
    bases.push({ ref, commit });
  }
  return { url: remoteAt, remote, bases, prefix };
}
