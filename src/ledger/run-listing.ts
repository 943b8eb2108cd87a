// `vouch runs`: the runs newest first, and the per-session facts `show` reuses.
import { parseStored } from "./stored-json.ts";
import type { Database } from "bun:sqlite";
import type { EventOf, RunStatus } from "../engine/events.ts";
import { nodeCost } from "../read/node-cost.ts";
import { sessionStatus, sessionWallMs, type SessionFacts } from "./run-status.ts";
import type { RunListing, SessionView } from "./types.ts";
import { BlobStore } from "./blob-store.ts";

export interface RunRow {
  id: string;
  graph: string;
  graph_path: string;
  graph_digest: string;
  inputs: string;
  caps: string;
  concurrency: number;
  harness: string | null;
  version: string;
  nodes: string;
  started_at: string;
  sessions: number;
  last_seq: number;
}

interface SessionRow {
  run_id: string;
  session: number;
  resumed: number;
  graph_digest: string;
  started_at: string;
  started_seq: number;
  last_event_at: string;
  last_seq: number;
  finished_at: string | null;
  status: RunStatus | null;
  exit_code: number | null;
  reason: string | null;
  cost_usd: number | null;
  cost_unknown: number | null;
  wall_ms: number | null;
  counts: string | null;
  output: string | null;
  paused: string | null;
}

interface CostRow {
  node: string;
  map: string;
  branch_index: number;
  session: number;
  round: number;
  kind: string | null;
  status: string | null;
  cost_usd: number | null;
  finished_at: string | null;
}

export interface Liveness {
  isLive(runId: string): boolean;
  now(): number;
}

/** Known cost of a session without run.finished: each node's cost by the one rule the
 *  live view uses too (nodeCost, src/read/node-cost.ts), over this session's attempts; a
 *  node of unknown cost that could have cost something (an agent) is counted as unknown.
 *  Map nodes are left out: their branches' nodes carry the sittings. */
function partialCost(db: Database, runId: string, session: number, mapIds: Set<string>): { cost: number; unknown: number } {
  const rows = db
    .query(
      "SELECT node, map, branch_index, session, round, kind, status, cost_usd, finished_at FROM node_results " +
        "WHERE run_id = ? AND session = ? ORDER BY round, attempt, first_seq",
    )
    .all(runId, session) as CostRow[];
  const byNode = new Map<string, CostRow[]>();
  for (const r of rows) {
    const k = `${r.map}\u0000${r.branch_index}\u0000${r.node}`;
    const list = byNode.get(k);
    if (list) list.push(r);
    else byNode.set(k, [r]);
  }
  let cost = 0;
  let unknown = 0;
  for (const attempts of byNode.values()) {
    const first = attempts[0]!;
    if (first.map === "" && (mapIds.has(first.node) || attempts.some((r) => r.kind === "map"))) continue;
    const spent = nodeCost(attempts);
    if (spent !== null) cost += spent;
    else if (attempts.some((r) => r.kind === "agent")) unknown += 1;
  }
  return { cost, unknown };
}

function mapIdsOf(run: RunRow): Set<string> {
  const nodes = parseStored(run.nodes) as EventOf<"run.started">["nodes"];
  return new Set(nodes.filter((n) => n.kind === "map" && n.map === undefined).map((n) => n.id));
}

export function sessionViews(db: Database, run: RunRow, liveness: Liveness): SessionView[] {
  const rows = db.query("SELECT * FROM sessions WHERE run_id = ? ORDER BY session").all(run.id) as SessionRow[];
  const latest = rows.length > 0 ? rows[rows.length - 1]!.session : 0;
  const needsProbe = rows.length > 0 && rows[rows.length - 1]!.status === null;
  const live = needsProbe && liveness.isLive(run.id);
  const now = liveness.now();
  const maps = mapIdsOf(run);
  return rows.map((r): SessionView => {
    const facts: SessionFacts = {
      session: r.session,
      finished: r.status,
      started_at: r.started_at,
      last_event_at: r.last_event_at,
      wall_ms: r.wall_ms,
    };
    const status = sessionStatus(facts, r.session === latest, live);
    const partial = r.status === null ? partialCost(db, run.id, r.session, maps) : null;
    return {
      session: r.session,
      resumed: r.resumed === 1,
      graph_digest: r.graph_digest,
      started_at: r.started_at,
      status,
      finished_at: r.finished_at,
      exit_code: r.exit_code,
      reason: r.reason,
      cost_usd: partial ? partial.cost : (r.cost_usd ?? 0),
      cost_unknown: partial ? partial.unknown : (r.cost_unknown ?? 0),
      wall_ms: sessionWallMs(facts, status === "running", now),
      counts: r.counts === null ? null : parseStored(r.counts),
      first_seq: r.started_seq,
      last_seq: r.last_seq,
      paused: r.paused === null ? null : parseStored(r.paused),
      ...(r.output === null ? {} : { output: parseStored(new BlobStore(db).text(r.output)) }),
    };
  });
}

export function listingOf(run: RunRow, sessions: SessionView[]): RunListing {
  const latest = sessions[sessions.length - 1];
  return {
    id: run.id,
    graph: run.graph,
    graph_path: run.graph_path,
    status: latest?.status ?? "abandoned",
    started_at: run.started_at,
    wall_ms: sessions.reduce((sum, s) => sum + s.wall_ms, 0),
    cost_usd: sessions.reduce((sum, s) => sum + s.cost_usd, 0),
    cost_unknown: sessions.reduce((sum, s) => sum + s.cost_unknown, 0),
    exit_code: latest && latest.status !== "running" && latest.status !== "abandoned" ? latest.exit_code : null,
    sessions: sessions.length,
    live: latest?.status === "running",
  };
}

export function listRuns(db: Database, liveness: Liveness): RunListing[] {
  // rowid order is insertion order: newest first without trusting clocks.
  const runs = db.query("SELECT * FROM runs ORDER BY rowid DESC").all() as RunRow[];
  return runs.map((run) => listingOf(run, sessionViews(db, run, liveness)));
}

export function runRow(db: Database, runId: string): RunRow | null {
  return db.query("SELECT * FROM runs WHERE id = ?").get(runId) as RunRow | null;
}
