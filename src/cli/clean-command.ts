// `vouch clean [RUN] [--branches]`: removes the git worktrees vouch made for a
// run (ADR 0020), in the repository holding the current folder; with
// --branches also the run's branches (vouch/<run>/...). Nothing else is
// touched: not the user's checkout, not other runs, not other branches. A live
// run (a process holds its lock) is left alone.
import { lstatSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../engine/errors.ts";
import { BRANCH_PREFIX, WORKTREES_DIR } from "../engine/workspace/names.ts";
import { checkedLedgerHome, isRunLive } from "../ledger/index.ts";
import { sanitize } from "../tui/text.ts";
import { realGit } from "../workspace/git.ts";
import { runTreeFolders } from "../workspace/check-tree.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";

const PLAIN = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

interface Found {
  worktrees: Map<string, string[]>;
  branches: Map<string, string[]>;
}

async function findRuns(root: string): Promise<Found> {
  const under = `${root}/${WORKTREES_DIR}/`;
  const worktrees = new Map<string, string[]>();
  for (const path of await realGit.listWorktrees(root)) {
    if (!path.startsWith(under)) continue;
    const run = path.slice(under.length).split("/")[0]!;
    worktrees.set(run, [...(worktrees.get(run) ?? []), path]);
  }
  const branches = new Map<string, string[]>();
  for (const b of await realGit.listBranches(root, `${BRANCH_PREFIX}/`)) {
    const run = b.split("/")[1];
    if (run !== undefined) branches.set(run, [...(branches.get(run) ?? []), b]);
  }
  return { worktrees, branches };
}

function pickRuns(asked: string | undefined, found: Found, root: string): string[] {
  const known = [...new Set([...found.worktrees.keys(), ...found.branches.keys()])].sort();
  if (asked === undefined) return known;
  if (!PLAIN.test(asked))
    throw new UsageError(`"${asked}" is not a run id (run ids hold only letters, digits, _ and -)`, "see: vouch runs");
  if (known.includes(asked)) return [asked];
  const prefixed = known.filter((r) => r.startsWith(asked));
  if (prefixed.length === 1) return prefixed;
  if (prefixed.length > 1)
    throw new UsageError(`"${asked}" is the start of ${prefixed.length} runs' ids: ${prefixed.join(", ")}`, "give more of the id");
  throw new UsageError(
    `no worktrees or branches of run "${asked}" in ${root}`,
    "vouch clean works on the repository holding the current folder; see: git worktree list",
  );
}

/** Empty folders left under .vouch/worktrees/<run> once its worktrees are gone; a folder holding
 *  anything stays. A symlink is not followed (one left in a worktree may point anywhere). */
function removeEmptyDirs(dir: string): void {
  let entries: string[];
  try {
    if (!lstatSync(dir).isDirectory()) return;
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const e of entries) removeEmptyDirs(join(dir, e));
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not a folder, or not empty: it stays
  }
}

const cleanCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("clean", args, { branches: { type: "boolean" } });
  if (positionals.length > 1)
    throw new UsageError(
      `clean takes at most one run (got ${positionals.length}: ${positionals.join(", ")})`,
      "usage: vouch clean [RUN] [--branches]",
    );
  const root = await realGit.repoRoot(io.cwd);
  if (root === null)
    throw new UsageError(
      `vouch clean works on the git repository holding the current folder, and ${io.cwd} is not in one`,
      "cd into the repository the run worked in",
    );
  const found = await findRuns(root);
  const runs = pickRuns(positionals[0], found, root);
  const home = checkedLedgerHome(io.env, io.cwd);
  let worktrees = 0;
  let branches = 0;
  for (const run of runs) {
    if (isRunLive(home, run)) {
      if (positionals[0] !== undefined)
        throw new UsageError(`run ${run} is live: its worktrees are in use`, "wait for it to end, or stop it first");
      io.err(sanitize(`vouch: run ${run} is live; its worktrees stay\n`));
      continue;
    }
    for (const path of found.worktrees.get(run) ?? []) {
      await realGit.removeWorktree(root, path);
      worktrees++;
    }
    removeEmptyDirs(join(root, WORKTREES_DIR, run));
    // Check trees a killed session left (ADR 0043): each is removed after its check otherwise.
    for (const dir of runTreeFolders(root, run)) rmSync(dir, { recursive: true, force: true });
    if (values.branches) {
      for (const b of found.branches.get(run) ?? []) {
        await realGit.deleteBranch(root, b);
        branches++;
      }
    }
  }
  const kept = values.branches ? "" : ` (branches kept; --branches removes them too)`;
  io.out(
    sanitize(
      `removed ${worktrees} worktree${worktrees === 1 ? "" : "s"}${values.branches ? ` and ${branches} branch${branches === 1 ? "" : "es"}` : ""} of ${runs.length} run${runs.length === 1 ? "" : "s"} in ${root}${kept}\n`,
    ),
  );
  return 0;
};
export default cleanCommand;
