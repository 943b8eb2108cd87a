// What other processes ask of a run (ADR 0062), kept in the ledger's `requests`
// table: a cancel, or the decision of an approval, with who asked (user, host,
// pid) and when. The running session polls the table by id; `vouch show` lists
// it. Rows are never changed; of the decisions for one approval instance (run,
// node, branch, round) only the first is ever stored: the first one wins.
import type { Database } from "bun:sqlite";
import type { BranchRef } from "../engine/events.ts";
import { guarded } from "./sqlite-errors.ts";

/** Who made a request: the user and host names as their system gives them, and the process. */
export interface Requester {
  user: string;
  host: string;
  pid: number;
}

/** What made it: a command (cancel, approve, reject), the live UI or a flag of the run's own
 *  session, `vouch watch`'s UI, or an MCP client (a cancel only: it never decides approvals). */
export const REQUEST_VIAS = ["command", "tui", "flag", "watch", "mcp"] as const;
export type RequestVia = (typeof REQUEST_VIAS)[number];

interface RequestBase {
  id: number;
  via: RequestVia;
  by: Requester;
  /** ISO 8601, when it was recorded. */
  at: string;
}

export interface CancelRequest extends RequestBase {
  kind: "cancel";
}

export interface DecisionRequest extends RequestBase {
  kind: "decision";
  node: string;
  branch?: BranchRef;
  round: number;
  decision: "approve" | "reject";
  note?: string;
}

export type RunRequest = CancelRequest | DecisionRequest;

/** An approval instance and its decision, as a request asks it. */
export interface DecisionAsk {
  node: string;
  branch?: BranchRef;
  round: number;
  decision: "approve" | "reject";
  note?: string;
  via: RequestVia;
  by: Requester;
  at: string;
}

/** A note is a person's line, not a document: kept to this many characters. */
export const NOTE_MAX = 2000;

interface Row {
  id: number;
  kind: string;
  node: string;
  map: string;
  branch_index: number;
  round: number;
  decision: string | null;
  note: string | null;
  via: string;
  user: string;
  host: string;
  pid: number;
  at: string;
}

/** A row as a request; null for one this vouch does not know (written by a newer one, or by hand). */
function requestOf(r: Row): RunRequest | null {
  if (!(REQUEST_VIAS as readonly string[]).includes(r.via)) return null;
  const base = { id: r.id, via: r.via as RequestVia, by: { user: r.user, host: r.host, pid: r.pid }, at: r.at };
  if (r.kind === "cancel") return { ...base, kind: "cancel" };
  if (r.kind !== "decision" || (r.decision !== "approve" && r.decision !== "reject")) return null;
  return {
    ...base,
    kind: "decision",
    node: r.node,
    ...(r.map !== "" && r.branch_index >= 0 ? { branch: { map: r.map, index: r.branch_index } } : {}),
    round: r.round,
    decision: r.decision,
    ...(r.note !== null ? { note: r.note } : {}),
  };
}

export interface RunRequests {
  /** The run's requests with an id above `afterId`, oldest first, at most `limit`. */
  after(runId: string, afterId: number, limit?: number): RunRequest[];
  /** The highest request id of the run (0: none). A session takes only requests above the
   *  id it saw when it started: a cancel left from an earlier session never stops a resume. */
  lastId(runId: string): number;
  /** Records a cancel; returns it. */
  cancel(runId: string, via: RequestVia, by: Requester, at: string): CancelRequest;
  /** Records a decision unless the instance has one: returns the decision that stands (won:
   *  false when another, earlier request holds it). One immediate transaction: two at once,
   *  from any processes, store exactly one. */
  decide(runId: string, ask: DecisionAsk): { won: boolean; request: DecisionRequest };
  /** The decision that stands for an instance, if one was recorded. */
  decisionFor(runId: string, node: string, branch: BranchRef | undefined, round: number): DecisionRequest | undefined;
}

const SELECT = "SELECT id, kind, node, map, branch_index, round, decision, note, via, user, host, pid, at FROM requests";
const known = (rs: Row[]) => rs.map(requestOf).filter((r): r is RunRequest => r !== null);

/** The run's requests above `afterId`, oldest first (what `vouch show` lists: afterId 0). */
export function requestsAfter(db: Database, runId: string, afterId: number, limit = 1000): RunRequest[] {
  return known(db.query(`${SELECT} WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?`).all(runId, afterId, limit) as Row[]);
}

export function runRequests(db: Database, file: string): RunRequests {
  const rows = (sql: string, ...params: (string | number)[]) => db.query(`${SELECT} ${sql}`).all(...params) as Row[];
  const decisionFor = (runId: string, node: string, branch: BranchRef | undefined, round: number) =>
    known(
      rows(
        "WHERE run_id = ? AND kind = 'decision' AND node = ? AND map = ? AND branch_index = ? AND round = ?",
        runId,
        node,
        branch?.map ?? "",
        branch?.index ?? -1,
        round,
      ),
    )[0] as DecisionRequest | undefined;
  const insert = (runId: string, values: Record<string, string | number | null>) => {
    const names = Object.keys(values);
    const sql = `INSERT INTO requests (run_id, ${names.join(", ")}) VALUES (?, ${names.map(() => "?").join(", ")})`;
    return Number(db.query(sql).run(runId, ...Object.values(values)).lastInsertRowid);
  };
  const who = (by: Requester) => ({ user: by.user, host: by.host, pid: by.pid });
  return {
    after: (runId, afterId, limit = 1000) => guarded(file, "reading the run's requests", () => requestsAfter(db, runId, afterId, limit)),
    lastId: (runId) =>
      guarded(file, "reading the run's requests", () => {
        const r = db.query("SELECT max(id) AS id FROM requests WHERE run_id = ?").get(runId) as { id: number | null } | null;
        return r?.id ?? 0;
      }),
    cancel: (runId, via, by, at) =>
      guarded(file, "recording the cancel request", () => {
        const id = insert(runId, { kind: "cancel", via, ...who(by), at });
        return { id, kind: "cancel", via, by: who(by), at };
      }),
    decide: (runId, ask) =>
      guarded(file, "recording the decision", () =>
        db
          .transaction(() => {
            const standing = decisionFor(runId, ask.node, ask.branch, ask.round);
            if (standing) return { won: false, request: standing };
            const note = ask.note === undefined ? null : ask.note.slice(0, NOTE_MAX);
            insert(runId, {
              kind: "decision",
              node: ask.node,
              map: ask.branch?.map ?? "",
              branch_index: ask.branch?.index ?? -1,
              round: ask.round,
              decision: ask.decision,
              note,
              via: ask.via,
              ...who(ask.by),
              at: ask.at,
            });
            return { won: true, request: decisionFor(runId, ask.node, ask.branch, ask.round)! };
          })
          .immediate(),
      ),
    decisionFor: (runId, node, branch, round) => guarded(file, "reading the run's requests", () => decisionFor(runId, node, branch, round)),
  };
}
