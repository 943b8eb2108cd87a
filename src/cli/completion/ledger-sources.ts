// Run ids and node ids for completion, from the ledger read without writing:
// a completion never writes — no migration, no journal mode, no file created —
// and never fails the shell: a missing, locked, foreign or older ledger gives no
// candidates. Bounded: the newest runs only.
import { Database, constants } from "bun:sqlite";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ledgerFile, ledgerHome } from "../../ledger/home.ts";
import { SqliteRunLedger, type RunLedger } from "../../ledger/ledger.ts";
import { SCHEMA_VERSION, inspect } from "../../ledger/migrations.ts";
import type { NodeView, RunSummary } from "../../ledger/types.ts";
import { sanitizeInline } from "../../text/sanitize.ts";
import { withWorktrees } from "../show-diff.ts";
import type { Candidate, CompletionSources } from "./complete.ts";

/** Runs offered at most (newest first). */
export const RECENT_RUNS = 20;

function everyNode(s: RunSummary): NodeView[] {
  return [...s.nodes, ...s.branches.flatMap((b) => b.nodes)];
}

function nodesOf(s: RunSummary, which: "approval" | "worktree" | "agent"): Candidate[] {
  if (which === "worktree") return withWorktrees(s).map((w) => ({ value: w.name, description: w.node.status }));
  const seen = new Map<string, Candidate>();
  for (const n of everyNode(s)) if (n.kind === which && !seen.has(n.node)) seen.set(n.node, { value: n.node, description: n.status });
  return [...seen.values()];
}

/** The ledger for reading only. SQLite's read-only open of a WAL database still makes a
 *  -wal and a -shm beside it when they are missing (a ledger closed cleanly): so then
 *  the file is opened immutable (nothing waits in a -wal that is not there). With both
 *  there (a writer is live, or left them) a plain read-only open reads the -wal too; it
 *  takes read marks in the -shm, SQLite's shared memory, and writes nothing else. A
 *  -wal without its -shm: nothing is read. Not this vouch's schema: nothing is read. */
export function openForCompletion(file: string): Database | null {
  if (!existsSync(file)) return null;
  const wal = existsSync(`${file}-wal`);
  if (wal && !existsSync(`${file}-shm`)) return null;
  const db = wal
    ? new Database(file, { readonly: true, strict: true })
    : new Database(`${pathToFileURL(file).href}?immutable=1`, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  try {
    const state = inspect(db);
    if (state.kind === "vouch" && state.version === SCHEMA_VERSION) return db;
  } catch {
    // not a database, or not readable now: no candidates
  }
  db.close();
  return null;
}

export function ledgerSources(env: Record<string, string | undefined>, cwd: string): CompletionSources & { close(): void } {
  let ledger: RunLedger | null | undefined;
  const open = (): RunLedger | null => {
    if (ledger !== undefined) return ledger;
    try {
      const home = ledgerHome(env, cwd);
      const file = ledgerFile(home);
      const db = openForCompletion(file);
      ledger = db === null ? null : new SqliteRunLedger(db, home, file, Date.now);
    } catch {
      ledger = null;
    }
    return ledger;
  };
  const quietly = <T>(f: (l: RunLedger) => T[]): T[] => {
    const l = open();
    if (l === null) return [];
    try {
      return f(l);
    } catch {
      return [];
    }
  };
  return {
    runs: () =>
      quietly((l) =>
        l
          .listRuns()
          .slice(0, RECENT_RUNS)
          .map((r) => ({ value: r.id, description: sanitizeInline(`${r.graph} · ${r.status} · ${r.started_at}`) })),
      ),
    nodes: (run, which) => quietly((l) => nodesOf(l.runSummary(l.resolveRun(run)), which)),
    close: () => ledger?.close(),
  };
}
