// Run ids and node ids for completion, from the ledger opened read-only
// (src/ledger/open-readonly.ts): a completion never writes — no migration, no
// journal mode, no file created — and never fails the shell: a missing, locked,
// foreign or older ledger gives no candidates. Bounded: the newest runs only.
import { existsSync } from "node:fs";
import { ledgerFile, ledgerHome } from "../../ledger/home.ts";
import { SqliteRunLedger, type RunLedger } from "../../ledger/ledger.ts";
import { SCHEMA_VERSION } from "../../ledger/migrations.ts";
import { openReadOnly } from "../../ledger/open-readonly.ts";
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

export function ledgerSources(env: Record<string, string | undefined>, cwd: string): CompletionSources & { close(): void } {
  let ledger: RunLedger | null | undefined;
  const open = (): RunLedger | null => {
    if (ledger !== undefined) return ledger;
    try {
      const home = ledgerHome(env, cwd);
      const file = ledgerFile(home);
      ledger = existsSync(file) ? new SqliteRunLedger(openReadOnly(file, SCHEMA_VERSION), home, file, Date.now) : null;
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
