// Where the ledger lives (DESIGN.md §7): <cwd>/.vouch, or VOUCH_HOME when set.
import { createHash } from "node:crypto";
import { isAbsolute, join, resolve } from "node:path";

export const LEDGER_FILE = "ledger.sqlite";
export const LOCKS_DIR = "locks";

/** The ledger folder: VOUCH_HOME (relative to cwd when not absolute), else <cwd>/.vouch. */
export function ledgerHome(env: Record<string, string | undefined>, cwd: string): string {
  const home = env.VOUCH_HOME?.trim();
  if (home) return isAbsolute(home) ? home : resolve(cwd, home);
  return join(cwd, ".vouch");
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
