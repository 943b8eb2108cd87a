// What every MCP tool of `vouch mcp serve` works with (ADR 0065): the root it may
// read graphs from, the ledger home its runs record into, the check library a
// graph passed as text may use, and the runs it started.
import { UsageError } from "../../engine/errors.ts";
import { ledgerExists, openLedger, openLedgerForReading, type RunLedger } from "../../ledger/index.ts";
import type { McpRuns } from "./runs.ts";
import type { Root } from "./root.ts";

export interface McpContext {
  root: Root;
  home: string;
  /** Absolute paths of the checks files a planned graph's checks_from names (empty: none). */
  library: string[];
  env: Record<string, string | undefined>;
  runs: McpRuns;
}

/** The ledger, read-only where it must be; a clear error when no run was ever recorded. */
export function withLedger<T>(ctx: McpContext, fn: (ledger: RunLedger) => T | Promise<T>, write = false): Promise<T> {
  if (!ledgerExists(ctx.home)) throw new UsageError(`no runs are recorded in ${ctx.home} yet`, "start one with the start_run tool");
  const ledger = write ? openLedger({ home: ctx.home }) : openLedgerForReading({ home: ctx.home });
  return Promise.resolve()
    .then(() => fn(ledger))
    .finally(() => ledger.close());
}
