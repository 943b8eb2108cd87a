// The projections of evidence with a memory (schema version 4, ADR 0067 and 0068),
// written by EventWriter in the same transaction as the events: one check_runs row per
// check per attempt (its outcome, keyed by name, command digest and tree) and one
// sittings row per attempt.judged. A row is keyed by where it happened (run, session,
// node, branch, round, attempt): a branch a second worker ran again after the first was
// cut off replaces the first's row, so it counts once.
import type { Database, Statement } from "bun:sqlite";
import type { EventOf } from "../engine/events.ts";
import type { CheckOutcomeName } from "../read/check-history.ts";

type Params = (string | number | null)[];

const KEY = "run_id, session, node, map, branch_index, round, attempt";

/** A check's outcome on one tree: passed, failed, flaky (failed, then passed on a rerun, ADR 0066)
 *  or could_not_run (no evidence either way). */
export function outcomeOf(e: Pick<EventOf<"check.finished">, "passed" | "could_not_run">): CheckOutcomeName {
  if (e.could_not_run === true) return "could_not_run";
  return e.passed ? "passed" : "failed";
}

export class EvidenceWriter {
  private readonly checkRun: Statement;
  private readonly checkRerun: Statement;
  private readonly sitting: Statement;

  constructor(db: Database) {
    const q = (sql: string) => db.query(sql);
    // The first run of a check on this attempt's tree: a row of its own, replacing one an
    // earlier worker's cut-off attempt left.
    this.checkRun = q(
      `INSERT INTO check_runs (${KEY}, first_seq, name, command_digest, tree_id, outcome, runs, failures, t)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
       ON CONFLICT (${KEY}, name) DO UPDATE SET first_seq = excluded.first_seq, command_digest = excluded.command_digest,
         tree_id = excluded.tree_id, outcome = excluded.outcome, runs = 1, failures = excluded.failures, t = excluded.t`,
    );
    // A rerun on the same tree (ADR 0066): one more run; a pass after a failure makes it flaky.
    this.checkRerun = q(
      `INSERT INTO check_runs (${KEY}, first_seq, name, command_digest, tree_id, outcome, runs, failures, t)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
       ON CONFLICT (${KEY}, name) DO UPDATE SET runs = runs + 1, failures = failures + excluded.failures,
         outcome = CASE WHEN excluded.outcome = 'passed' AND outcome = 'failed' THEN 'flaky' ELSE outcome END`,
    );
    const cols = ["kind", "harness", "model", "claim", "status", "qualifier", "cause", "retry_of", "cost_usd", "turns", "t"];
    this.sitting = q(
      `INSERT INTO sittings (${KEY}, ${cols.join(", ")}) VALUES (?, ?, ?, ?, ?, ?, ?${", ?".repeat(cols.length)})
       ON CONFLICT (${KEY}) DO UPDATE SET ${cols.map((c) => `${c} = excluded.${c}`).join(", ")}`,
    );
  }

  /** `key`: the node_results key of the check's attempt (run, session, node, map, index, round, attempt, seq). */
  check(e: EventOf<"check.finished">, key: Params): void {
    // A witness's run on the base (ADR 0044) must fail there: it is not the check's outcome on
    // the work, and would stand as a pass for a check the verdict failed (vacuous).
    if (e.tree === "base") return;
    const outcome = outcomeOf(e);
    const statement = e.rerun === undefined ? this.checkRun : this.checkRerun;
    statement.run(...key, e.name, e.command_digest ?? null, e.tree_id ?? null, outcome, outcome === "passed" ? 0 : 1, e.t);
  }

  /** `key` without the seq: attempt.judged names its round. */
  judged(e: EventOf<"attempt.judged">, key: Params): void {
    this.sitting.run(
      ...key,
      e.kind,
      e.harness ?? null,
      e.model ?? null,
      e.claim ?? null,
      e.status,
      e.qualifier,
      e.cause,
      e.retry_of ?? null,
      e.cost_usd,
      e.turns,
      e.t,
    );
  }
}
