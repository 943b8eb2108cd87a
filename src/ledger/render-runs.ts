// `vouch runs` as a table: newest first.
import { money, table, wall, when } from "./format.ts";
import type { RunListing } from "./types.ts";

export function renderRuns(runs: RunListing[]): string {
  const rows = runs.map((r) => [
    r.id,
    r.graph,
    r.sessions > 1 ? `${r.status} (${r.sessions - 1} resume${r.sessions > 2 ? "s" : ""})` : r.status,
    when(r.started_at),
    wall(r.wall_ms),
    money(r.cost_usd, r.cost_unknown),
  ]);
  return table(["RUN", "GRAPH", "STATUS", "STARTED", "WALL", "COST"], rows);
}
