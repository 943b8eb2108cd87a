// Issue 29's table, row by row: what each row measures, its target, and the
// verdict of a measured value against it. bench/run.ts fills the cells from the
// benchmarks it ran; a row left without a cell is printed "not measured" with
// the reason, never dropped. The row list is held to the issue by
// test/invariants/bench-issue-table.test.ts.

export type IssueRowId =
  | "spawn-floor"
  | "fork-pool"
  | "sittings"
  | "validate-start"
  | "map-rate"
  | "map-rss"
  | "ledger-bytes"
  | "resume"
  | "unknown-needs"
  | "state-bytes"
  | "fleet";

export interface IssueRow {
  id: IssueRowId;
  measure: string;
  target: string;
}

/** The rows of issue 29's table, in its order (its "same: peak RSS" row has its own line). */
export const ISSUE_ROWS: readonly IssueRow[] = [
  { id: "spawn-floor", measure: "500 `sh -c true` items, concurrency 8, vs the Bun spawn floor (`spawn-floor.ts`)", target: "≤ 1.3×" },
  { id: "fork-pool", measure: "same vs a C fork+exec pool (`fork-pool.c`, the machine's physical limit)", target: "≤ 2×" },
  { id: "sittings", measure: "10,000 replayed sittings: wall time, peak RSS", target: "≤ 2.5 s, ≤ 100 MiB" },
  { id: "validate-start", measure: "`vouch validate graphs/finding-verifier.yaml` vs `vouch --version`", target: "≤ 2×" },
  { id: "map-rate", measure: "100,000-item map of `true`: branches/s at 100k vs at 10k", target: "≥ 0.8×" },
  { id: "map-rss", measure: "same: peak RSS; growth after warm-up (10k branches finished → end)", target: "≤ 150 MiB, flat (≤ 10%)" },
  {
    id: "ledger-bytes",
    measure: "ledger bytes per `true` item; copies of one 4 KiB output in the ledger",
    target: "≤ 1 KiB; once",
  },
  { id: "resume", measure: "`vouch resume` of an interrupted N-item map (CPU), vs `vouch show` of it", target: "linear; ≤ 2× show" },
  { id: "unknown-needs", measure: "`vouch validate` of N nodes each needing an unknown node (CPU)", target: "linear; 8k nodes < 2 s" },
  {
    id: "state-bytes",
    measure: "bytes of a branch's state file in an N-item map, large N vs small N",
    target: "independent of N (≤ 1.2×)",
  },
  {
    id: "fleet",
    measure: "fleet: wall per branch / CPU per branch (coordinator + worker + Redis), map of `true`",
    target: "≤ 3 ms / ≤ 3 ms",
  },
];

export type Verdict = "met" | "missed" | `missed: ${string}` | `not measured: ${string}`;

export interface Cell {
  value: string;
  verdict: Verdict;
}

/** A cell for a row that was not measured in this run, with why. */
export function notMeasured(why: string): Cell {
  return { value: "-", verdict: `not measured: ${why}` };
}

/** met when every check holds; with named checks, a miss names the ones that failed
 * (a row with two targets says which it missed). */
export function verdictOf(checks: boolean | Record<string, boolean>): Verdict {
  if (typeof checks === "boolean") return checks ? "met" : "missed";
  const failed = Object.entries(checks).flatMap(([name, ok]) => (ok ? [] : [name]));
  return failed.length === 0 ? "met" : `missed: ${failed.join(", ")}`;
}

/** Linear or better: a cost that grew by `growth` for `sizes`× the work, within 10 %. */
export function linear(growth: number, sizes: number): boolean {
  return growth <= sizes * 1.1;
}

export interface IssueLine {
  measure: string;
  value: string;
  target: string;
  verdict: Verdict;
}

/** One line per issue row, in the issue's order; a row without a cell says why it is missing. */
export function issueLines(cells: Partial<Record<IssueRowId, Cell>>, missing = "not run"): IssueLine[] {
  return ISSUE_ROWS.map((r) => {
    const c = cells[r.id] ?? notMeasured(missing);
    return { measure: r.measure, value: c.value, target: r.target, verdict: c.verdict };
  });
}

export function issueMarkdown(lines: IssueLine[]): string {
  const head: IssueLine = { measure: "measure", value: "value", target: "target", verdict: "met" };
  const all = [head, ...lines];
  const w = (k: keyof IssueLine) => Math.max(...all.map((l) => l[k].length), k === "verdict" ? 7 : 0);
  const cell = (l: IssueLine, verdict: string) =>
    `| ${l.measure.padEnd(w("measure"))} | ${l.value.padEnd(w("value"))} | ${l.target.padEnd(w("target"))} | ${verdict.padEnd(w("verdict"))} |`;
  const rule = `|${(["measure", "value", "target", "verdict"] as const).map((k) => "-".repeat(w(k) + 2)).join("|")}|`;
  return [cell(head, "verdict"), rule, ...lines.map((l) => cell(l, l.verdict))].join("\n");
}
