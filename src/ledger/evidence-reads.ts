// Reading evidence with a memory (schema version 4): the judged sittings `vouch stats`,
// `vouch show` and the reports tabulate, and the check outcomes a check's history is
// made of (`vouch checks --history`, `vouch validate`, the live view).
import type { Database } from "bun:sqlite";
import type { SittingRow } from "../read/claims.ts";
import { RECENT_RUNS, type CheckRunRow } from "../read/check-history.ts";

export const STATS_BY = ["harness", "model", "graph", "node"] as const;
export type StatsBy = (typeof STATS_BY)[number];

export interface SittingFilter {
  /** Only sittings judged at or after this ISO time. */
  since?: string;
  /** Only this run's. */
  runId?: string;
  by?: StatsBy;
}

/** A sittings row as selected: the read model's row before grouping, with what it is grouped by. */
interface Row extends Omit<SittingRow, "group"> {
  run_id: string;
  node: string;
  map: string;
  harness: string | null;
  model: string | null;
  graph: string | null;
}

/** A node across its branches: `verify`, `each[].verify` (every branch of map each). */
function nodeLabel(r: Pick<Row, "node" | "map">): string {
  return r.map === "" ? r.node : `${r.map}[].${r.node}`;
}

function groupOf(r: Row, by: StatsBy | undefined): string {
  switch (by) {
    case undefined:
      return "";
    case "harness":
      return r.harness ?? "(none)";
    case "model":
      return r.model ?? "(default)";
    case "graph":
      return r.graph ?? "(unknown)";
    case "node":
      return `${r.graph ?? "(unknown)"}: ${nodeLabel(r)}`;
  }
}

export interface Sittings {
  rows: SittingRow[];
  /** How many runs they come from. */
  runs: number;
}

export function sittings(db: Database, f: SittingFilter): Sittings {
  const where: string[] = [];
  const params: string[] = [];
  if (f.since !== undefined) where.push("s.t >= ?"), params.push(f.since);
  if (f.runId !== undefined) where.push("s.run_id = ?"), params.push(f.runId);
  const rows = db
    .query(
      `SELECT s.run_id, s.node, s.map, s.kind, s.harness, s.model, s.claim, s.status, s.qualifier, s.cause, s.retry_of,
         s.cost_usd, s.turns, r.graph FROM sittings s LEFT JOIN runs r ON r.id = s.run_id
       ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}`,
    )
    .all(...params) as Row[];
  return {
    runs: new Set(rows.map((r) => r.run_id)).size,
    rows: rows.map((r) => ({
      kind: r.kind,
      group: groupOf(r, f.by),
      claim: r.claim,
      status: r.status,
      qualifier: r.qualifier,
      cause: r.cause,
      retry_of: r.retry_of,
      cost_usd: r.cost_usd,
      turns: r.turns,
    })),
  };
}

/** Every outcome of each check (or of `name`) in its newest `window` runs. */
export function checkRuns(db: Database, name?: string, window = RECENT_RUNS): CheckRunRow[] {
  return db
    .query(
      `WITH last AS (
         SELECT name, run_id, max(t) AS at FROM check_runs ${name === undefined ? "" : "WHERE name = ?1"} GROUP BY name, run_id
       ), ranked AS (
         SELECT name, run_id, row_number() OVER (PARTITION BY name ORDER BY at DESC) AS k FROM last
       )
       SELECT c.name, c.command_digest, c.tree_id, c.outcome, c.run_id, c.t
       FROM check_runs c JOIN ranked r ON r.name = c.name AND r.run_id = c.run_id
       WHERE r.k <= ?${name === undefined ? "1" : "2"}
       ORDER BY c.t DESC`,
    )
    .all(...(name === undefined ? [window] : [name, window])) as CheckRunRow[];
}
