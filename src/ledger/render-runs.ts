// `vouch runs` as a table: newest first.
import { localTime } from "../text/clock.ts";
import { duration } from "../text/duration.ts";
import { money } from "../text/money.ts";
import { table } from "../text/table.ts";
import type { RunListing } from "./types.ts";

export function renderRuns(runs: RunListing[]): string {
  const rows = runs.map((r) => [
    r.id,
    r.graph,
    r.sessions > 1 ? `${r.status} (${r.sessions - 1} resume${r.sessions > 2 ? "s" : ""})` : r.status,
    localTime(r.started_at),
    duration(r.wall_ms),
    money(r.cost_usd, r.cost_unknown),
  ]);
  return table(["RUN", "GRAPH", "STATUS", "STARTED", "WALL", "COST"], rows);
}
