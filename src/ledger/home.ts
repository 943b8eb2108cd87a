// Where the ledger lives (docs/architecture.md §8): <cwd>/.vouch, or VOUCH_HOME when set.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { UsageError } from "../engine/errors.ts";

export const LEDGER_FILE = "ledger.sqlite";
export const LOCKS_DIR = "locks";

/** The ledger folder: VOUCH_HOME (relative to cwd when not absolute), else <cwd>/.vouch. */
export function ledgerHome(env: Record<string, string | undefined>, cwd: string): string {
  const home = env.VOUCH_HOME?.trim();
  if (home) return isAbsolute(home) ? home : resolve(cwd, home);
  return join(cwd, ".vouch");
}

/** The ledger folder, refused (UsageError, exit 2) when it, or a folder on its
 *  path, is a file: without this, reading commands said "no runs recorded"
 *  and writing ones failed with a bare EEXIST. */
export function checkedLedgerHome(env: Record<string, string | undefined>, cwd: string): string {
  const home = ledgerHome(env, cwd);
  for (let p = home; ; p = dirname(p)) {
    let isFolder: boolean;
    try {
      isFolder = statSync(p).isDirectory();
    } catch {
      if (dirname(p) === p) return home;
      continue; // not there (yet): vouch creates it
    }
    if (isFolder) return home;
    const set = env.VOUCH_HOME?.trim() ? "VOUCH_HOME" : "the ledger folder";
    const what = p === home ? `${set} is a file, not a folder: ${home}` : `${set} (${home}) is inside a file, not a folder: ${p}`;
    throw new UsageError(what, "set VOUCH_HOME to a folder (vouch creates it when missing), or move the file away");
  }
}

export function ledgerFile(home: string): string {
  return join(home, LEDGER_FILE);
}

/** A run id as a file name: kept as is when it is plainly safe, else hashed,
 *  so no run id can name a path outside the locks folder. */
export function runFileName(runId: string): string {
  if (/^[A-Za-z0-9_][A-Za-z0-9._-]{0,120}$/.test(runId)) return runId;
  return `h-${createHash("sha256").update(runId).digest("hex").slice(0, 32)}`;
}

export function lockFile(home: string, runId: string): string {
  return join(home, LOCKS_DIR, `${runFileName(runId)}.lock`);
}
