// `vouch show`: one run from the projection tables — per node (in graph
// order), per map branch, per attempt, with every check and overrun.
import { parseStored } from "./stored-json.ts";
import type { Database } from "bun:sqlite";
import type { EventOf, NodeStatus } from "../engine/events.ts";
import { nodeCost } from "../read/node-cost.ts";
import { noVerdict, recordOf } from "../read/views.ts";
import { listingOf, runRow, sessionViews, type Liveness, type RunRow } from "./run-listing.ts";
import { attachWorkspaces, workspacesOf } from "./run-workspaces.ts";
import { sittings } from "./evidence-reads.ts";
import { claimTable, retryTable } from "../read/claims.ts";
import { requestsAfter } from "./run-requests.ts";
import { attachSeals, sealsOf } from "./run-seals.ts";
import { BlobStore, type StoredEventRow } from "./blob-store.ts";
import type { AttemptView, BranchView, CheckRecord, NodeView, OverrunRecord, PausedLimit, RunSummary, SessionView } from "./types.ts";

interface NodeRow {
  session: number;
  node: string;
  map: string;
  branch_index: number;
  round: number;
  attempt: number;
  kind: string | null;
  status: NodeStatus | null;
  qualifier: AttemptView["qualifier"];
  stop_reason: AttemptView["stop_reason"];
  cause: AttemptView["cause"];
  error: string | null;
  retry_cause: AttemptView["cause"];
  retry_reason: string | null;
  recovered: number | null;
  fallback: string | null;
  cost_usd: number | null;
  turns: number | null;
  tokens: string | null;
  wall_ms: number | null;
  output: string | null;
  result_tail: string | null;
  /** A long result tail, as a reference (schema version 6); absent in older ledgers. */
  result_tail_ref?: string | null;
  session_id: string | null;
  api_retries: number | null;
  checks: string;
  overruns: string;
  started_at: string | null;
  finished_at: string | null;
}

interface BranchRow {
  session: number;
  map: string;
  branch_index: number;
  label: string | null;
  item: string | null;
  status: NodeStatus | null;
  verdict: string | null;
  error: string | null;
}

function attemptOf(r: NodeRow, blobs: BlobStore): AttemptView {
  const tailRef = r.result_tail_ref ?? null;
  return {
    session: r.session,
    round: r.round,
    attempt: r.attempt,
    status: r.status,
    qualifier: r.qualifier,
    stop_reason: r.stop_reason,
    cause: r.cause,
    error: r.error,
    retry_cause: r.retry_cause,
    retry_reason: r.retry_reason,
    recovered: r.recovered === 1,
    fallback: r.fallback,
    cost_usd: r.cost_usd,
    turns: r.turns,
    tokens: r.tokens === null ? null : parseStored(r.tokens),
    wall_ms: r.wall_ms,
    ...(r.output === null ? {} : { output: parseStored(blobs.text(r.output)) }),
    result_tail: tailRef === null ? r.result_tail : parseStored<string>(blobs.text(tailRef)),
    session_id: r.session_id,
    api_retries: r.api_retries ?? null,
    started_at: r.started_at,
    finished_at: r.finished_at,
    checks: (parseStored(r.checks) as EventOf<"check.finished">[]).map(recordOf) as CheckRecord[],
    overruns: (parseStored(r.overruns) as EventOf<"cap.overrun">[]).map(recordOf) as OverrunRecord[],
  };
}

/** Rows of one node (all sessions and attempts, oldest first) as a NodeView. */
function nodeView(
  node: string,
  kind: string | null,
  rows: NodeRow[],
  latest: SessionView | undefined,
  blobs: BlobStore,
  branch?: { map: string; index: number },
): NodeView {
  const attempts = rows.map((row) => attemptOf(row, blobs));
  const last = attempts[attempts.length - 1];
  const base = { node, kind: rows.find((r) => r.kind !== null)?.kind ?? kind, ...(branch ? { branch } : {}) };
  if (!last) {
    return { ...base, status: "not started", ...noVerdict(), attempts };
  }
  const inLatest = latest !== undefined && last.session === latest.session;
  const runningNow = inLatest && latest.status === "running";
  const waiting =
    inLatest &&
    latest.status === "paused" &&
    ((latest.paused ?? []).some((a) => a.node === node && a.branch?.map === branch?.map && a.branch?.index === branch?.index) ||
      last.stop_reason === "rate_limited");
  return {
    ...base,
    status: last.status ?? (runningNow ? "running" : waiting ? "waiting" : "unfinished"),
    qualifier: last.qualifier,
    stop_reason: last.stop_reason,
    cause: last.cause,
    error: last.error ?? last.retry_reason,
    cost_usd: nodeCost(attempts),
    turns: last.turns,
    wall_ms: last.wall_ms,
    ...("output" in last ? { output: last.output } : {}),
    attempts,
  };
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The latest session's run.paused, when a usage limit paused it. */
function pausedLimit(db: Database, runId: string, session: number): PausedLimit | undefined {
  const row = db
    .query(
      "SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND session = ? AND type = 'run.paused' ORDER BY seq DESC LIMIT 1",
    )
    .get(runId, session) as StoredEventRow | null;
  if (!row) return undefined;
  const e = parseStored(new BlobStore(db).eventText(row)) as EventOf<"run.paused">;
  if (e.reason !== "rate_limited" || e.harness === undefined) return undefined;
  return { harness: e.harness, resets_at: e.resets_at ?? null, limited: e.limited ?? [] };
}

/** What the node and branch views of one run are built from. */
interface RunRows {
  graphNodes: EventOf<"run.started">["nodes"];
  kindOf: Map<string, string>;
  rows: NodeRow[];
  byNode: Map<string, NodeRow[]>;
  /** The rows of each branch ("map\0index"): a branch reads its own, not the run's. */
  byBranch: Map<string, NodeRow[]>;
  latest: SessionView | undefined;
  blobs: BlobStore;
}

let rowsVisited = 0;
/** Node rows the branch views have looked at in this process: lets tests bound the work per branch. */
export function branchRowVisits(): number {
  return rowsVisited;
}

/** Top-level nodes in graph order, then any the graph no longer lists. */
function topNodes(r: RunRows): NodeView[] {
  const ids = r.graphNodes.filter((n) => n.map === undefined).map((n) => n.id);
  for (const row of r.rows) if (row.map === "" && !ids.includes(row.node)) ids.push(row.node);
  return ids.map((id) => nodeView(id, r.kindOf.get(`\u0000${id}`) ?? null, r.byNode.get(`\u0000-1\u0000${id}`) ?? [], r.latest, r.blobs));
}

/** Each branch's latest row; a branch with node rows but no branch.started gets an empty one. */
function latestBranchRows(db: Database, runId: string, rows: NodeRow[]): BranchRow[] {
  const branchRows = db.query("SELECT * FROM branches WHERE run_id = ? ORDER BY map, branch_index, session").all(runId) as BranchRow[];
  const latest = new Map<string, BranchRow>();
  for (const b of branchRows) latest.set(`${b.map}\u0000${b.branch_index}`, b);
  for (const r of rows) {
    const k = `${r.map}\u0000${r.branch_index}`;
    if (r.map === "" || latest.has(k)) continue;
    latest.set(k, {
      session: r.session,
      map: r.map,
      branch_index: r.branch_index,
      label: null,
      item: null,
      status: null,
      verdict: null,
      error: null,
    });
  }
  return [...latest.values()];
}

function branchView(b: BranchRow, r: RunRows): BranchView {
  const ids = r.graphNodes.filter((n) => n.map === b.map).map((n) => n.id);
  // Its own rows only: a pass over the run's rows per branch made reading N branches N²
  // (resume reads the run twice before it starts; issue 29).
  for (const row of r.byBranch.get(`${b.map}\u0000${b.branch_index}`) ?? []) {
    rowsVisited++;
    if (!ids.includes(row.node)) ids.push(row.node);
  }
  const ref = { map: b.map, index: b.branch_index };
  const runningNow = r.latest?.status === "running" && b.session === r.latest.session;
  const node = (id: string) =>
    nodeView(
      id,
      r.kindOf.get(`${b.map}\u0000${id}`) ?? null,
      r.byNode.get(`${b.map}\u0000${b.branch_index}\u0000${id}`) ?? [],
      r.latest,
      r.blobs,
      ref,
    );
  return {
    map: b.map,
    index: b.branch_index,
    label: b.label,
    ...(b.item === null ? {} : { item: parseStored(r.blobs.text(b.item)) }),
    status: b.status ?? (runningNow ? "running" : "unfinished"),
    ...(b.verdict === null ? {} : { verdict: parseStored(r.blobs.text(b.verdict)) }),
    error: b.error,
    session: b.session,
    nodes: ids.map(node),
  };
}

/** Names (never values) passed to children: --pass-env's, and the graph's own env: of every session. */
function envNames(db: Database, runId: string): { pass_env: string[]; graph_env: string[] } {
  const passEnv = db.query("SELECT DISTINCT name FROM env_names WHERE run_id = ? ORDER BY name").all(runId) as { name: string }[];
  const graphEnv = new Set<string>();
  const blobs = new BlobStore(db);
  const started = db
    .query("SELECT run_id, seq, t, type, body FROM events WHERE run_id = ? AND type = 'run.started'")
    .all(runId) as StoredEventRow[];
  for (const row of started) {
    for (const name of (parseStored(blobs.eventText(row)) as EventOf<"run.started">).graph_env ?? []) graphEnv.add(name);
  }
  return { pass_env: passEnv.map((r) => r.name), graph_env: [...graphEnv].sort() };
}

function runFacts(db: Database, run: RunRow, sessions: SessionView[]): RunSummary["run"] {
  const latest = sessions[sessions.length - 1];
  const finished = latest && latest.finished_at !== null && latest.status !== "abandoned" && latest.status !== "running";
  return {
    ...listingOf(run, sessions),
    graph_digest: latest?.graph_digest ?? run.graph_digest,
    inputs: parseStored(new BlobStore(db).text(run.inputs)),
    caps: parseStored(run.caps),
    concurrency: run.concurrency,
    harness: run.harness,
    version: run.version,
    reason: finished ? latest.reason : null,
    counts: finished ? latest.counts : null,
    ...(finished && "output" in latest ? { output: latest.output } : {}),
    last_seq: run.last_seq,
  };
}

/** The run's own facts (graph, caps, spend, sessions' totals) without its nodes and branches:
 *  resume needs them to find the graph, and building every branch's view for that read the
 *  run one more time before the resume check read it again (issue 29). */
export function runFactsOf(db: Database, runId: string, liveness: Liveness): RunSummary["run"] | null {
  const run = runRow(db, runId);
  return run ? runFacts(db, run, sessionViews(db, run, liveness)) : null;
}

/** What resume checks a run against (resume-check.ts): its facts, sessions and passed names,
 *  without its nodes and branches — building those is what `vouch show` costs, and resume then
 *  reads the run's events anyway (ADR 0082: resume read the run back twice). */
export type ResumeFacts = Pick<RunSummary, "run" | "sessions" | "pass_env">;

export function resumeFactsOf(db: Database, runId: string, liveness: Liveness): ResumeFacts | null {
  const run = runRow(db, runId);
  if (!run) return null;
  const sessions = sessionViews(db, run, liveness);
  return { run: runFacts(db, run, sessions), sessions, pass_env: envNames(db, runId).pass_env };
}

export function runSummary(db: Database, runId: string, liveness: Liveness): RunSummary | null {
  const run = runRow(db, runId);
  if (!run) return null;
  const sessions = sessionViews(db, run, liveness);
  const latest = sessions[sessions.length - 1];
  const graphNodes = parseStored(run.nodes) as EventOf<"run.started">["nodes"];
  const rows = db.query("SELECT * FROM node_results WHERE run_id = ? ORDER BY session, round, attempt, first_seq").all(runId) as NodeRow[];
  const r: RunRows = {
    graphNodes,
    kindOf: new Map(graphNodes.map((n) => [`${n.map ?? ""}\u0000${n.id}`, n.kind])),
    rows,
    byNode: groupBy(rows, (row) => `${row.map}\u0000${row.branch_index}\u0000${row.node}`),
    byBranch: groupBy(rows, (row) => `${row.map}\u0000${row.branch_index}`),
    latest,
    blobs: new BlobStore(db),
  };
  const nodes = topNodes(r);
  const order = nodes.map((n) => n.node);
  const branches = latestBranchRows(db, runId, rows)
    .sort((a, b) => order.indexOf(a.map) - order.indexOf(b.map) || a.map.localeCompare(b.map) || a.branch_index - b.branch_index)
    .map((b) => branchView(b, r));
  attachWorkspaces(nodes, branches, workspacesOf(db, runId));
  attachSeals(nodes, branches, sealsOf(db, runId));
  const overrunRows = db.query("SELECT overruns FROM sessions WHERE run_id = ? ORDER BY session").all(runId) as { overruns: string }[];
  const overruns = overrunRows.flatMap((row) => (parseStored(row.overruns) as EventOf<"cap.overrun">[]).map(recordOf)) as OverrunRecord[];
  const limit = latest?.status === "paused" ? pausedLimit(db, runId, latest.session) : undefined;
  const judged = sittings(db, { runId }).rows;
  const requests = requestsAfter(db, runId, 0, 10_000);
  return {
    run: runFacts(db, run, sessions),
    sessions,
    nodes,
    branches,
    overruns,
    ...envNames(db, runId),
    ...(limit ? { limit } : {}),
    claims: claimTable(judged),
    retries: retryTable(judged),
    ...(requests.length > 0 ? { requests } : {}),
  };
}
