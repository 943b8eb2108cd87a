// What of the user's repository a sitting must leave alone (ADR 0044), as
// digests: the config (a hooks path there would run the agent's code at the
// user's next commit), the hooks folder, info/exclude and info/attributes, the
// main checkout's HEAD and its index's entries (mode, object, stage, flags —
// not the stat data git refreshes), and every ref but vouch's own branches
// (refs/heads/vouch/…, which the run itself moves). Read from the files and
// with git's plumbing; nothing is written.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { RepoFingerprint } from "../engine/ports.ts";
import { runGit } from "./run-git.ts";

const VOUCH_BRANCHES = "refs/heads/vouch/";

function digest(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A file's digest; "absent" when there is none, "not a file" for anything else at that path. */
function fileDigest(path: string): string {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return `link ${readlinkSync(path)}`;
    if (!st.isFile()) return "not a file";
    return digest(readFileSync(path));
  } catch {
    return "absent";
  }
}

/** A folder's names, kinds, modes and contents, one level down (hooks live at the top). */
function folderDigest(path: string): string {
  let names: string[];
  try {
    names = readdirSync(path).sort();
  } catch {
    return "absent";
  }
  const lines = names.map((n) => {
    const p = join(path, n);
    let mode = "?";
    try {
      mode = lstatSync(p).mode.toString(8);
    } catch {
      /* gone between the two reads: its digest says so */
    }
    return `${n}\0${mode}\0${fileDigest(p)}`;
  });
  return digest(lines.join("\n"));
}

export async function repoFingerprint(root: string): Promise<RepoFingerprint> {
  const common = (await runGit(root, ["rev-parse", "--path-format=absolute", "--git-common-dir"])).replace(/\n$/, "");
  const gitDir = (await runGit(root, ["rev-parse", "--path-format=absolute", "--git-dir"])).replace(/\n$/, "");
  const index = await runGit(root, ["ls-files", "-z", "--stage", "-v"]);
  const files: Record<string, string> = {
    config: fileDigest(join(common, "config")),
    "config.worktree": fileDigest(join(gitDir, "config.worktree")),
    hooks: folderDigest(join(common, "hooks")),
    "info/exclude": fileDigest(join(common, "info", "exclude")),
    "info/attributes": fileDigest(join(common, "info", "attributes")),
    HEAD: fileDigest(join(gitDir, "HEAD")),
    index: digest(index),
  };
  const refs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of (await runGit(root, ["for-each-ref", "--format=%(refname) %(objectname)"])).split("\n")) {
    const at = line.lastIndexOf(" ");
    if (at <= 0) continue;
    const name = line.slice(0, at);
    if (!name.startsWith(VOUCH_BRANCHES)) refs[name] = line.slice(at + 1);
  }
  return { files, refs };
}
