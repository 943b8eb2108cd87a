// A check's history over recent runs (ADR 0067): how often it passed, failed, was flaky or
// could not run, and whether it is flaky often enough to be marked (in `vouch validate`, the
// live view and the reports). Pure: the ledger's check_runs rows in, one history per check key.
export type CheckOutcomeName = "passed" | "failed" | "flaky" | "could_not_run";

/** How many of a check's most recent runs its history covers. */
export const RECENT_RUNS = 20;
/** A check flaky in more than this share of its recent runs is marked flaky. */
export const FLAKY_SHARE = 0.2;

/** One outcome: a check on one attempt's tree (its reruns folded in), as check_runs holds it. */
export interface CheckRunRow {
  name: string;
  command_digest: string | null;
  tree_id: string | null;
  outcome: CheckOutcomeName;
  run_id: string;
  /** When it ran (ISO): the newest runs come first. */
  t: string;
}

export interface CheckHistory {
  name: string;
  command_digest: string | null;
  /** Runs covered (at most RECENT_RUNS): those it ran in, newest first. */
  runs: number;
  passed: number;
  failed: number;
  flaky: number;
  could_not_run: number;
  /** Trees it both passed and failed on (across attempts and runs): flaky without a rerun. */
  disagreeing_trees: number;
  /** Runs in which it was flaky: a flaky outcome, or an outcome on a tree that disagreed. */
  flaky_runs: number;
  /** flaky / (passed + failed + flaky): null when none reached a verdict. */
  flake_rate: number | null;
  last_run: string;
  last_t: string;
  /** flaky_runs / runs > FLAKY_SHARE. */
  marked: boolean;
}

const keyOf = (r: Pick<CheckRunRow, "name" | "command_digest">) => JSON.stringify([r.name, r.command_digest]);

/** One history per (name, command digest), over each one's newest `window` runs. Sorted by name,
 *  newest command first. */
export function checkHistories(rows: readonly CheckRunRow[], window = RECENT_RUNS): CheckHistory[] {
  const groups = new Map<string, CheckRunRow[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [r]);
    else g.push(r);
  }
  return [...groups.values()]
    .map((g) => historyOf(recent(g, window)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.last_t > b.last_t ? -1 : a.last_t < b.last_t ? 1 : 0));
}

/** The rows of the newest `window` runs (a run's newest row dates it). */
function recent(rows: readonly CheckRunRow[], window: number): CheckRunRow[] {
  const last = new Map<string, string>();
  for (const r of rows) if ((last.get(r.run_id) ?? "") < r.t) last.set(r.run_id, r.t);
  const keep = new Set(
    [...last.entries()]
      .sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0))
      .slice(0, window)
      .map(([run]) => run),
  );
  return rows.filter((r) => keep.has(r.run_id));
}

function historyOf(rows: readonly CheckRunRow[]): CheckHistory {
  const count = (o: CheckOutcomeName) => rows.filter((r) => r.outcome === o).length;
  const seen = new Map<string, Set<CheckOutcomeName>>();
  for (const r of rows) if (r.tree_id !== null) seen.set(r.tree_id, (seen.get(r.tree_id) ?? new Set()).add(r.outcome));
  const disagreeing = new Set([...seen].filter(([, o]) => o.has("passed") && o.has("failed")).map(([tree]) => tree));
  const runs = new Set(rows.map((r) => r.run_id));
  const flakyRuns = new Set(
    rows.filter((r) => r.outcome === "flaky" || (r.tree_id !== null && disagreeing.has(r.tree_id))).map((r) => r.run_id),
  );
  const [passed, failed, flaky] = [count("passed"), count("failed"), count("flaky")];
  const newest = rows.reduce((a, b) => (b.t > a.t ? b : a), rows[0]!);
  const judged = passed + failed + flaky;
  return {
    name: newest.name,
    command_digest: newest.command_digest,
    runs: runs.size,
    passed,
    failed,
    flaky,
    could_not_run: count("could_not_run"),
    disagreeing_trees: disagreeing.size,
    flaky_runs: flakyRuns.size,
    flake_rate: judged === 0 ? null : flaky / judged,
    last_run: newest.run_id,
    last_t: newest.t,
    marked: runs.size > 0 && flakyRuns.size / runs.size > FLAKY_SHARE,
  };
}

/** "flaky in 3 of the last 10 runs" — what a mark says. */
export function flakyText(h: Pick<CheckHistory, "flaky_runs" | "runs">): string {
  return `flaky in ${h.flaky_runs} of the last ${h.runs} run${h.runs === 1 ? "" : "s"}`;
}
