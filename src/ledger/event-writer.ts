// Writes a batch of events in one immediate transaction: each event verbatim
// into `events` (append-only), and its facts into the projection tables
// (runs, sessions, node_results, branches, env_names) in the same transaction,
// so the tables never disagree with the events they came from.
import type { Database, Statement } from "bun:sqlite";
import { CAUSE_STATUS, eventJson, type EventOf, type VouchEvent } from "../engine/events.ts";
import { EvidenceWriter } from "./evidence-writer.ts";
import { BlobStore } from "./blob-store.ts";
import { textOf, type Leaves, type Texts } from "./stored-text.ts";

type Params = (string | number | null)[];

const NODE_KEY = "run_id, session, node, map, branch_index, round, attempt";

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** Prepared once per ledger; `write` is the only entry. */
export class EventWriter {
  private readonly insertEvent: Statement;
  private readonly runSessions: Statement;
  private readonly insertRun: Statement;
  private readonly bumpRun: Statement;
  private readonly insertSession: Statement;
  private readonly insertEnv: Statement;
  private readonly nodeStarted: Statement;
  private readonly nodeProgress: Statement;
  private readonly nodeCheck: Statement;
  private readonly nodeOverrun: Statement;
  private readonly lastAttempt: Statement;
  private readonly nodeRetrying: Statement;
  private readonly nodeFinished: Statement;
  private readonly nodeLimited: Statement;
  private readonly sessionOverrun: Statement;
  private readonly branchStarted: Statement;
  private readonly branchFinished: Statement;
  private readonly runPaused: Statement;
  private readonly runFinished: Statement;
  private readonly touchRun: Statement;
  private readonly touchSession: Statement;
  /** The current feedback round of each node seen starting (attempts restart each round). */
  private readonly rounds = new Map<string, number>();
  /** Check outcomes and judged sittings (schema version 4). */
  private readonly evidence: EvidenceWriter;
  /** Long values, once each (schema version 6, ADR 0077). */
  private readonly blobs: BlobStore;
  /** The strings the event being written stored as blobs (a result tail is a slice of its output). */
  private leaves: Leaves = [];
  /** The objects the event being written has stringified (its output once, however many columns hold it). */
  private texts: Texts = new WeakMap();

  constructor(private readonly db: Database) {
    // db.query caches and finalizes its statements on close (prepare() would
    // keep the connection open after close: no checkpoint, the WAL left behind).
    const q = (sql: string) => db.query(sql);
    this.evidence = new EvidenceWriter(db);
    this.blobs = new BlobStore(db);
    this.insertEvent = q("INSERT INTO events (run_id, seq, session, type, t, body) VALUES (?, ?, ?, ?, ?, ?)");
    this.runSessions = q("SELECT sessions FROM runs WHERE id = ?");
    this.insertRun = q(
      `INSERT INTO runs (id, graph, graph_path, graph_digest, inputs, caps, concurrency, harness, version, nodes, started_at, sessions, last_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    );
    // A resume may add nodes (--force on a changed graph): the latest list wins.
    this.bumpRun = q("UPDATE runs SET sessions = sessions + 1, nodes = ? WHERE id = ?");
    this.insertSession = q(
      `INSERT INTO sessions (run_id, session, resumed, graph_digest, started_at, started_seq, last_event_at, last_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertEnv = q("INSERT OR IGNORE INTO env_names (run_id, session, name) VALUES (?, ?, ?)");
    const upsert = (cols: string[], set: string) =>
      q(
        `INSERT INTO node_results (${NODE_KEY}, first_seq${cols.map((c) => `, ${c}`).join("")})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?${cols.map(() => ", ?").join("")})
         ON CONFLICT (${NODE_KEY}) DO UPDATE SET ${set}`,
      );
    this.nodeStarted = upsert(["kind", "started_at"], "kind = excluded.kind, started_at = excluded.started_at");
    this.nodeProgress = upsert(
      ["turns", "cost_usd", "tokens", "api_retries"],
      "turns = coalesce(excluded.turns, turns), cost_usd = coalesce(excluded.cost_usd, cost_usd), tokens = coalesce(excluded.tokens, tokens), " +
        "api_retries = coalesce(excluded.api_retries, api_retries)",
    );
    this.nodeCheck = q(
      `INSERT INTO node_results (${NODE_KEY}, first_seq, checks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, json_array(json(?)))
       ON CONFLICT (${NODE_KEY}) DO UPDATE SET checks = json_insert(checks, '$[#]', json(?))`,
    );
    this.nodeOverrun = q(
      `INSERT INTO node_results (${NODE_KEY}, first_seq, overruns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, json_array(json(?)))
       ON CONFLICT (${NODE_KEY}) DO UPDATE SET overruns = json_insert(overruns, '$[#]', json(?))`,
    );
    this.lastAttempt = q(
      "SELECT round AS r, attempt AS a FROM node_results WHERE run_id = ? AND session = ? AND node = ? AND map = ? AND branch_index = ? ORDER BY round DESC, attempt DESC LIMIT 1",
    );
    this.nodeRetrying = upsert(
      ["status", "cause", "retry_cause", "retry_reason", "session_id"],
      "status = excluded.status, cause = excluded.cause, retry_cause = excluded.retry_cause, retry_reason = excluded.retry_reason, " +
        "session_id = coalesce(excluded.session_id, session_id)",
    );
    const finishedCols = [
      "status",
      "qualifier",
      "stop_reason",
      "cause",
      "error",
      "recovered",
      "fallback",
      "cost_usd",
      "turns",
      "tokens",
      "wall_ms",
      "output",
      "result_tail",
      // node_results.evidence is no longer written (schema 6, ADR 0077): no reader used it, and
      // the node.finished event holds the same evidence (~190 bytes a `true` item).
      "session_id",
      "finished_at",
      // Version 6 (a writer over an older schema, in tests of upgrades, keeps long tails inline).
      ...(this.blobs.stores ? ["result_tail_ref"] : []),
    ];
    this.nodeFinished = upsert(finishedCols, finishedCols.map((c) => `${c} = excluded.${c}`).join(", "));
    // An attempt cut off by a usage limit (ADR 0022): it ended, with no status (no verdict).
    const limitedCols = ["stop_reason", "error", "cost_usd", "turns", "tokens", "session_id", "finished_at"];
    this.nodeLimited = upsert(limitedCols, limitedCols.map((c) => `${c} = excluded.${c}`).join(", "));
    this.sessionOverrun = q("UPDATE sessions SET overruns = json_insert(overruns, '$[#]', json(?)) WHERE run_id = ? AND session = ?");
    this.branchStarted = q(
      `INSERT INTO branches (run_id, session, map, branch_index, label, item, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, session, map, branch_index) DO UPDATE SET label = excluded.label, item = excluded.item, started_at = excluded.started_at`,
    );
    this.branchFinished = q(
      `INSERT INTO branches (run_id, session, map, branch_index, status, verdict, output, error, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id, session, map, branch_index) DO UPDATE SET status = excluded.status, verdict = excluded.verdict,
         output = excluded.output, error = excluded.error, finished_at = excluded.finished_at`,
    );
    this.runPaused = q("UPDATE sessions SET paused = ? WHERE run_id = ? AND session = ?");
    this.runFinished = q(
      `UPDATE sessions SET finished_at = ?, status = ?, exit_code = ?, reason = ?, cost_usd = ?, cost_unknown = ?,
         wall_ms = ?, counts = ?, output = ? WHERE run_id = ? AND session = ?`,
    );
    this.touchRun = q("UPDATE runs SET last_seq = max(last_seq, ?) WHERE id = ?");
    this.touchSession = q("UPDATE sessions SET last_event_at = ?, last_seq = max(last_seq, ?) WHERE run_id = ? AND session = ?");
  }

  /** All events in one transaction: all of them are stored, or none. */
  write(events: readonly VouchEvent[]): void {
    if (events.length === 0) return;
    // The session of each run, read once per batch (a resume in another process bumps it).
    const staged = new Map<string, number>();
    this.db
      .transaction(() => {
        const last = new Map<string, { seq: number; t: string }>();
        for (const e of events) {
          this.leaves = [];
          this.texts = new WeakMap();
          const body = this.blobs.storeEvent(eventJson(e), e, this.leaves, this.texts);
          const session = this.apply(e, staged);
          this.insertEvent.run(e.run, e.seq, session, e.type, e.t, body);
          const prev = last.get(e.run);
          if (!prev || e.seq >= prev.seq) last.set(e.run, { seq: e.seq, t: e.t });
        }
        for (const [run, { seq, t }] of last) {
          this.touchRun.run(seq, run);
          this.touchSession.run(t, seq, run, this.sessionOf(run, staged));
        }
      })
      .immediate();
  }

  private sessionOf(run: string, staged: Map<string, number>): number {
    const known = staged.get(run);
    if (known !== undefined) return known;
    const row = this.runSessions.get(run) as { sessions: number } | null;
    // Events before any run.started (should not happen) are kept, in session 0.
    const session = row?.sessions ?? 0;
    staged.set(run, session);
    return session;
  }

  /** Projects one event; returns the session it belongs to. */
  private apply(e: VouchEvent, staged: Map<string, number>): number {
    if (e.type === "run.started") return this.started(e, staged);
    const s = this.sessionOf(e.run, staged);
    switch (e.type) {
      case "node.started":
        this.rounds.set(this.nodeId(e, s), e.round ?? 1);
        this.nodeStarted.run(...this.key(e, s, e.attempt, e.round ?? 1), e.kind, e.t);
        break;
      case "node.progress":
        this.nodeProgress.run(...this.key(e, s, e.attempt), e.turns ?? null, e.cost_usd ?? null, json(e.tokens), e.api_retries ?? null);
        break;
      case "check.finished": {
        const body = eventJson(e);
        const key = this.key(e, s, e.attempt);
        this.nodeCheck.run(...key, body, body);
        this.evidence.check(e, key);
        break;
      }
      case "attempt.judged":
        this.evidence.judged(e, this.key(e, s, e.attempt, e.round).slice(0, 7));
        break;
      case "cap.overrun": {
        const body = eventJson(e);
        if (e.node === undefined) {
          this.sessionOverrun.run(body, e.run, s);
        } else {
          const node = { ...e, node: e.node };
          const latest = e.attempt === undefined ? this.latest(e.run, s, e.node, e.branch) : null;
          this.nodeOverrun.run(...this.key(node, s, e.attempt ?? latest!.attempt, latest?.round), body, body);
        }
        break;
      }
      case "node.retrying":
        this.nodeRetrying.run(...this.key(e, s, e.attempt), CAUSE_STATUS[e.cause], e.cause, e.cause, e.reason, e.session_id ?? null);
        break;
      case "node.finished":
        this.finished(e, s);
        break;
      case "node.limited":
        this.nodeLimited.run(
          ...this.key(e, s, e.attempt),
          "rate_limited",
          e.error,
          e.cost_usd,
          e.turns,
          e.tokens == null ? null : json(e.tokens),
          e.session_id ?? null,
          e.t,
        );
        break;
      case "branch.started":
        this.branchStarted.run(e.run, s, e.branch.map, e.branch.index, e.label, this.stored(e.item), e.t);
        break;
      case "branch.finished":
        this.branchFinished.run(
          e.run,
          s,
          e.branch.map,
          e.branch.index,
          e.status,
          this.stored(e.verdict),
          this.stored(e.output),
          e.error ?? null,
          e.t,
        );
        break;
      case "run.paused":
        this.runPaused.run(JSON.stringify(e.approvals), e.run, s);
        break;
      case "run.finished":
        this.runFinished.run(
          e.t,
          e.status,
          e.exit_code,
          e.reason ?? null,
          e.cost_usd,
          e.cost_unknown,
          e.wall_ms,
          JSON.stringify(e.counts),
          this.stored(e.output),
          e.run,
          s,
        );
        break;
    }
    return s;
  }

  private started(e: EventOf<"run.started">, staged: Map<string, number>): number {
    const row = this.runSessions.get(e.run) as { sessions: number } | null;
    const session = (row?.sessions ?? 0) + 1;
    if (row) {
      this.bumpRun.run(JSON.stringify(e.nodes), e.run);
    } else {
      this.insertRun.run(
        e.run,
        e.graph,
        e.graph_path,
        e.graph_digest,
        this.stored(e.inputs),
        JSON.stringify(e.caps),
        e.concurrency,
        e.harness,
        e.version,
        JSON.stringify(e.nodes),
        e.t,
        e.seq,
      );
    }
    this.insertSession.run(e.run, session, e.resumed ? 1 : 0, e.graph_digest, e.t, e.seq, e.t, e.seq);
    for (const name of e.pass_env) this.insertEnv.run(e.run, session, name);
    staged.set(e.run, session);
    return session;
  }

  private finished(e: EventOf<"node.finished">, s: number): void {
    const id = this.nodeId(e, s);
    const round = e.round ?? this.rounds.get(id) ?? 1;
    // A finished node's round is not kept (10,000 branches, issue 20): an event of it after
    // its end, if any, finds the round in the ledger (latest()), as after a restart.
    this.rounds.delete(id);
    const tail = this.tailOf(e.result_tail);
    this.nodeFinished.run(
      ...this.key(e, s, e.attempt, round),
      e.status,
      e.qualifier,
      e.stop_reason,
      e.cause,
      e.error ?? null,
      e.recovered === undefined ? null : e.recovered ? 1 : 0,
      e.fallback ?? null,
      e.cost_usd,
      e.turns,
      json(e.tokens ?? undefined),
      e.wall_ms,
      this.stored(e.output),
      tail.inline,
      e.session_id ?? null,
      e.t,
      ...(this.blobs.stores ? [tail.ref] : []),
    );
  }

  /** A value's JSON as a column holds it: long values inside it as references to blobs. */
  private stored(value: unknown): string | null {
    return this.blobs.store(value === undefined ? null : (textOf(value, this.texts) ?? null), value, this.leaves, this.texts);
  }

  /** result_tail is plain text: a long one is kept as a reference (a slice of the output it ends). */
  private tailOf(tail: string | undefined): { inline: string | null; ref: string | null } {
    if (tail === undefined) return { inline: null, ref: null };
    const text = JSON.stringify(tail);
    const ref = this.blobs.store(text, tail, this.leaves);
    return ref === text ? { inline: tail, ref: null } : { inline: null, ref };
  }

  private latest(run: string, s: number, node: string, branch?: { map: string; index: number }): { round: number; attempt: number } {
    const row = this.lastAttempt.get(run, s, node, branch?.map ?? "", branch?.index ?? -1) as { r: number; a: number } | null;
    return row ? { round: row.r, attempt: row.a } : { round: 1, attempt: 0 };
  }

  private nodeId(e: { run: string; node: string; branch?: { map: string; index: number } }, s: number): string {
    return `${e.run}\u0000${s}\u0000${e.branch?.map ?? ""}\u0000${e.branch?.index ?? -1}\u0000${e.node}`;
  }

  /** The row key. Events without a round (progress, checks, overruns, retries) belong to the
   *  node's current round: the last node.started seen, else the latest row in the ledger. */
  private key(
    e: { run: string; seq: number; node: string; branch?: { map: string; index: number } },
    s: number,
    attempt: number,
    round?: number,
  ): Params {
    const r = round ?? this.rounds.get(this.nodeId(e, s)) ?? this.latest(e.run, s, e.node, e.branch).round;
    return [e.run, s, e.node, e.branch?.map ?? "", e.branch?.index ?? -1, r, attempt, e.seq];
  }
}
