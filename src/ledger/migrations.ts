// The ledger's schema, as an ordered list of migrations. A ledger records its
// version and an application marker in `meta`; opening applies what is missing,
// and refuses a ledger written by a newer vouch (see ADR 0008).
import type { Database } from "bun:sqlite";
import { LedgerError } from "../engine/errors.ts";

export const APPLICATION_MARKER = "vouch-ledger";
/** SQLite header field, so `file`-like tools can tell a vouch ledger too ("vouc"). */
export const APPLICATION_ID = 0x766f7563;

export interface Migration {
  version: number;
  sql: string;
}

const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- One row per run id; the static facts of its first run.started.
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  graph TEXT NOT NULL,
  graph_path TEXT NOT NULL,
  graph_digest TEXT NOT NULL,
  inputs TEXT NOT NULL,
  caps TEXT NOT NULL,
  concurrency INTEGER NOT NULL,
  harness TEXT,
  version TEXT NOT NULL,
  nodes TEXT NOT NULL,
  started_at TEXT NOT NULL,
  sessions INTEGER NOT NULL,
  last_seq INTEGER NOT NULL
);

-- One row per run.started: the first run and each resume.
CREATE TABLE sessions (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  resumed INTEGER NOT NULL,
  graph_digest TEXT NOT NULL,
  started_at TEXT NOT NULL,
  started_seq INTEGER NOT NULL,
  last_event_at TEXT NOT NULL,
  last_seq INTEGER NOT NULL,
  finished_at TEXT,
  status TEXT,
  exit_code INTEGER,
  reason TEXT,
  cost_usd REAL,
  cost_unknown INTEGER,
  wall_ms REAL,
  counts TEXT,
  output TEXT,
  paused TEXT,
  overruns TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (run_id, session)
) WITHOUT ROWID;

-- Every event, verbatim (body = the JSON text), append-only.
CREATE TABLE events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  session INTEGER NOT NULL,
  type TEXT NOT NULL,
  t TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX events_by_type ON events (run_id, type);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'vouch ledger: events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT RAISE(ABORT, 'vouch ledger: events are append-only'); END;

-- Per node, branch and attempt (top-level nodes: map = '', branch_index = -1).
CREATE TABLE node_results (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  node TEXT NOT NULL,
  map TEXT NOT NULL,
  branch_index INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  kind TEXT,
  status TEXT,
  qualifier TEXT,
  stop_reason TEXT,
  cause TEXT,
  error TEXT,
  retry_cause TEXT,
  retry_reason TEXT,
  recovered INTEGER,
  fallback TEXT,
  cost_usd REAL,
  turns INTEGER,
  tokens TEXT,
  wall_ms REAL,
  output TEXT,
  result_tail TEXT,
  evidence TEXT,
  session_id TEXT,
  checks TEXT NOT NULL DEFAULT '[]',
  overruns TEXT NOT NULL DEFAULT '[]',
  started_at TEXT,
  finished_at TEXT,
  first_seq INTEGER NOT NULL,
  PRIMARY KEY (run_id, session, node, map, branch_index, attempt)
) WITHOUT ROWID;

CREATE TABLE branches (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  map TEXT NOT NULL,
  branch_index INTEGER NOT NULL,
  label TEXT,
  item TEXT,
  status TEXT,
  verdict TEXT,
  output TEXT,
  error TEXT,
  started_at TEXT,
  finished_at TEXT,
  PRIMARY KEY (run_id, session, map, branch_index)
) WITHOUT ROWID;

-- Names (never values) of environment variables passed to children.
CREATE TABLE env_names (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (run_id, session, name)
) WITHOUT ROWID;
`;

// Version 2: a node on a feedback loop runs once per round, and attempts restart
// each round, so the round joins the key (round 1 for every node off a loop).
const V2 = `
CREATE TABLE node_results_v2 (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  node TEXT NOT NULL,
  map TEXT NOT NULL,
  branch_index INTEGER NOT NULL,
  round INTEGER NOT NULL DEFAULT 1,
  attempt INTEGER NOT NULL,
  kind TEXT,
  status TEXT,
  qualifier TEXT,
  stop_reason TEXT,
  cause TEXT,
  error TEXT,
  retry_cause TEXT,
  retry_reason TEXT,
  recovered INTEGER,
  fallback TEXT,
  cost_usd REAL,
  turns INTEGER,
  tokens TEXT,
  wall_ms REAL,
  output TEXT,
  result_tail TEXT,
  evidence TEXT,
  session_id TEXT,
  checks TEXT NOT NULL DEFAULT '[]',
  overruns TEXT NOT NULL DEFAULT '[]',
  started_at TEXT,
  finished_at TEXT,
  first_seq INTEGER NOT NULL,
  PRIMARY KEY (run_id, session, node, map, branch_index, round, attempt)
) WITHOUT ROWID;
INSERT INTO node_results_v2 (run_id, session, node, map, branch_index, round, attempt, kind, status, qualifier, stop_reason,
  cause, error, retry_cause, retry_reason, recovered, fallback, cost_usd, turns, tokens, wall_ms, output, result_tail,
  evidence, session_id, checks, overruns, started_at, finished_at, first_seq)
SELECT run_id, session, node, map, branch_index, 1, attempt, kind, status, qualifier, stop_reason,
  cause, error, retry_cause, retry_reason, recovered, fallback, cost_usd, turns, tokens, wall_ms, output, result_tail,
  evidence, session_id, checks, overruns, started_at, finished_at, first_seq FROM node_results;
DROP TABLE node_results;
ALTER TABLE node_results_v2 RENAME TO node_results;
`;

// Version 3: how many API requests the harness retried in each attempt (node.progress.api_retries).
const V3 = `ALTER TABLE node_results ADD COLUMN api_retries INTEGER;`;

// Version 4 (ADR 0067, 0068): evidence with a memory. check_runs holds one outcome per check
// per attempt, keyed for its history by name, command digest and tree; sittings one row per
// judged attempt (attempt.judged): the claim, the verdict, what it spent, the cause it retried.
// A ledger of version 3 keeps its checks: each is taken from node_results.checks (no digest or
// tree was recorded then); it recorded no claims, so it has no sittings.
const V4 = `
CREATE TABLE check_runs (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  node TEXT NOT NULL,
  map TEXT NOT NULL,
  branch_index INTEGER NOT NULL,
  round INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  name TEXT NOT NULL,
  command_digest TEXT,
  tree_id TEXT,
  outcome TEXT NOT NULL,
  runs INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  t TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  PRIMARY KEY (run_id, session, node, map, branch_index, round, attempt, name)
) WITHOUT ROWID;
CREATE INDEX check_runs_by_name ON check_runs (name, run_id);

CREATE TABLE sittings (
  run_id TEXT NOT NULL,
  session INTEGER NOT NULL,
  node TEXT NOT NULL,
  map TEXT NOT NULL,
  branch_index INTEGER NOT NULL,
  round INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  kind TEXT NOT NULL,
  harness TEXT,
  model TEXT,
  claim TEXT,
  status TEXT NOT NULL,
  qualifier TEXT,
  cause TEXT,
  retry_of TEXT,
  cost_usd REAL,
  turns INTEGER,
  t TEXT NOT NULL,
  PRIMARY KEY (run_id, session, node, map, branch_index, round, attempt)
) WITHOUT ROWID;
CREATE INDEX sittings_by_time ON sittings (t);

INSERT OR REPLACE INTO check_runs (run_id, session, node, map, branch_index, round, attempt, name, command_digest, tree_id,
  outcome, runs, failures, t, first_seq)
SELECT n.run_id, n.session, n.node, n.map, n.branch_index, n.round, n.attempt, json_extract(c.value, '$.name'), NULL, NULL,
  CASE
    WHEN json_extract(c.value, '$.passed') THEN 'passed'
    WHEN json_extract(c.value, '$.could_not_run') IS NOT NULL
      OR json_extract(c.value, '$.reason') LIKE 'the check could not run:%'
      OR (NOT json_extract(c.value, '$.timed_out') AND json_extract(c.value, '$.exit') IN (126, 127)) THEN 'could_not_run'
    ELSE 'failed'
  END,
  1, CASE WHEN json_extract(c.value, '$.passed') THEN 0 ELSE 1 END, json_extract(c.value, '$.t'), json_extract(c.value, '$.seq')
FROM node_results n, json_each(n.checks) c
WHERE json_type(c.value, '$.name') = 'text';
`;

// Version 5: requests other processes make of a run (ADR 0062): a cancel, or an approval's
// decision, with who made them. Append-only like events; the first decision of an approval
// instance (run, node, branch, round) is the only one (the partial unique index).
const V5 = `
CREATE TABLE requests (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('cancel', 'decision')),
  node TEXT NOT NULL DEFAULT '',
  map TEXT NOT NULL DEFAULT '',
  branch_index INTEGER NOT NULL DEFAULT -1,
  round INTEGER NOT NULL DEFAULT 1,
  decision TEXT CHECK (decision IN ('approve', 'reject')),
  note TEXT,
  via TEXT NOT NULL,
  user TEXT NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX requests_by_run ON requests (run_id, id);
CREATE UNIQUE INDEX requests_one_decision ON requests (run_id, node, map, branch_index, round) WHERE kind = 'decision';
CREATE TRIGGER requests_no_update BEFORE UPDATE ON requests BEGIN SELECT RAISE(ABORT, 'vouch ledger: requests are append-only'); END;
CREATE TRIGGER requests_no_delete BEFORE DELETE ON requests BEGIN SELECT RAISE(ABORT, 'vouch ledger: requests are append-only'); END;
`;

// Version 6 (ADR 0077): each long value once. A value whose JSON text is 1 KiB or more is kept in
// blobs under the SHA-256 of its text, and every event body and projection column that held it
// keeps a reference instead (stored-text.ts); an event body no longer repeats its row's header.
// Rows written before stay as they were (readers tell them apart), so nothing is rewritten.
// A result tail long enough to be a blob is kept as a reference too (result_tail_ref): the
// result_tail column holds plain text, where a reference could not be told from the text.
// events_by_type goes: no query used it (SQLite reads a run's events of one type through the
// (run_id, seq) key; test/ledger/stored-values.test.ts holds the plans), and it cost ~260 bytes
// a `true` map item, a twelfth of the ledger.
const V6 = `
CREATE TABLE blobs (digest TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
ALTER TABLE node_results ADD COLUMN result_tail_ref TEXT;
DROP INDEX IF EXISTS events_by_type;
`;

// Version 7 (ADR 0082): an event body stored without its header is packed — each of a fixed list
// of JSON fragments (its keys, the values every `true` item repeats) kept as one or two control
// characters (event-fragments.ts); its first character, U+0004, tells it from the bodies of
// version 6 and before, which stay as they were (nothing is rewritten). A vouch that reads
// version 6 must not read these, hence the version. sittings_by_time goes: `vouch stats --since`
// reads every sitting into memory anyway (evidence-reads.ts), so the index saved it nothing a
// scan costs, and it cost ~74 bytes a `true` map item.
const V7 = `DROP INDEX IF EXISTS sittings_by_time;`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
  { version: 3, sql: V3 },
  { version: 4, sql: V4 },
  { version: 5, sql: V5 },
  { version: 6, sql: V6 },
  { version: 7, sql: V7 },
];
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export type LedgerState = { kind: "empty" } | { kind: "foreign" } | { kind: "vouch"; version: number };

/** What is in an opened SQLite file, read before anything is written to it. */
export function inspect(db: Database): LedgerState {
  const tables = db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  if (tables.length === 0) return { kind: "empty" };
  if (!tables.some((t) => t.name === "meta")) return { kind: "foreign" };
  const rows = db.query("SELECT key, value FROM meta WHERE key IN ('application', 'schema_version')").all() as {
    key: string;
    value: string;
  }[];
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  const version = Number(meta.get("schema_version"));
  if (meta.get("application") !== APPLICATION_MARKER || !Number.isInteger(version) || version < 1) return { kind: "foreign" };
  return { kind: "vouch", version };
}

/** Applies every migration above the recorded version, each in its own
 *  immediate transaction (two processes opening a new ledger at once do not
 *  both migrate: the second re-reads the version inside its transaction). */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  // Up to date (every open but the first): no write transaction at all, so many
  // runs opening one ledger at once do not queue for its write lock (ADR 0019).
  const seen = inspect(db);
  const newest = migrations[migrations.length - 1]?.version ?? 0;
  if (seen.kind === "vouch" && seen.version >= newest) return seen.version;
  let version = 0;
  for (const m of migrations) {
    db.transaction(() => {
      const state = inspect(db);
      const current = state.kind === "vouch" ? state.version : 0;
      if (current >= m.version) {
        version = current;
        return;
      }
      db.run(m.sql);
      if (m.version === 1) db.run("INSERT INTO meta (key, value) VALUES ('application', ?)", [APPLICATION_MARKER]);
      db.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [
        String(m.version),
      ]);
      version = m.version;
    }).immediate();
  }
  return version;
}

/** Refuses what no vouch may write into, or this one cannot read. */
export function refuseForeign(file: string, state: LedgerState, newest: number): void {
  if (state.kind === "foreign") {
    throw new LedgerError(
      `${file} is not a vouch ledger: it is a SQLite database without vouch's marker`,
      "move the file away or set VOUCH_HOME to another folder; vouch will not write into it",
    );
  }
  if (state.kind === "vouch" && state.version > newest) {
    throw new LedgerError(
      `${file} has ledger schema version ${state.version}, newer than this vouch reads (version ${newest})`,
      "use the newer vouch that wrote it, or set VOUCH_HOME to another folder",
    );
  }
}
