// `vouch checks [NAME] --history [--json]` (ADR 0067): each check's recorded outcomes over
// its recent runs, from the ledger's check_runs; and the histories `vouch validate` and
// `vouch run` mark flaky checks from (the same read, by name and command digest).
import { checkedLedgerHome, ledgerExists, openLedgerForReading } from "../ledger/index.ts";
import { shortDigest } from "../engine/check-digest.ts";
import { checkHistories, RECENT_RUNS, type CheckHistory } from "../read/check-history.ts";
import { table } from "../text/table.ts";
import type { CliIO } from "./io.ts";
import type { RunLedger } from "../ledger/index.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { VouchError } from "../engine/errors.ts";
import { flakyChecksFor } from "./flaky-marks.ts";

/** Every check's history (or NAME's) in the ledger at io's home; [] when there is no ledger. */
export function recordedHistories(io: Pick<CliIO, "env" | "cwd">, name?: string): CheckHistory[] {
  const home = checkedLedgerHome(io.env, io.cwd);
  if (!ledgerExists(home)) return [];
  const ledger = openLedgerForReading({ home });
  try {
    return checkHistories(ledger.checkRuns(name, RECENT_RUNS), RECENT_RUNS);
  } finally {
    ledger.close();
  }
}

/** For `vouch validate`: the histories, or none (said on stderr) when the ledger cannot be read —
 *  a graph's validity does not depend on the ledger. */
export function historiesOrNone(io: Pick<CliIO, "env" | "cwd" | "err">): CheckHistory[] {
  try {
    return recordedHistories(io);
  } catch (e) {
    if (!(e instanceof VouchError)) throw e;
    io.err(`vouch: the checks' history was not read, so no check is marked flaky: ${e.message}\n`);
    return [];
  }
}

/** run.started's flaky_checks: the graph's checks (its sub-graphs' too) the ledger's history marks. */
export function flakyChecksOf(ledger: RunLedger, graph: GraphFile, subgraphs: ReadonlyMap<string, GraphFile>) {
  return flakyChecksFor(graph, subgraphs, checkHistories(ledger.checkRuns(undefined, RECENT_RUNS), RECENT_RUNS));
}

function rate(h: CheckHistory): string {
  return h.flake_rate === null ? "-" : `${Math.round(h.flake_rate * 100)}%`;
}

export function renderHistories(list: readonly CheckHistory[], home: string, name?: string): string {
  if (list.length === 0) return `no outcomes of ${name === undefined ? "any check" : `check "${name}"`} recorded in ${home}\n`;
  // Two commands under one name: the digest tells them apart (the newest first).
  const names = new Map<string, number>();
  for (const h of list) names.set(h.name, (names.get(h.name) ?? 0) + 1);
  const rows = list.map((h) => [
    (names.get(h.name) ?? 0) > 1 ? `${h.name} (${shortDigest(h.command_digest)})` : h.name,
    String(h.runs),
    String(h.passed),
    String(h.failed),
    String(h.flaky),
    String(h.could_not_run),
    rate(h),
    String(h.disagreeing_trees),
    h.marked ? `FLAKY (${h.flaky_runs} of ${h.runs} runs)` : "",
  ]);
  const head = ["CHECK", "RUNS", "PASS", "FAIL", "FLAKY", "COULD NOT RUN", "FLAKE RATE", "TREES PASS+FAIL", ""];
  return `Checks over their last ${RECENT_RUNS} runs (${home}):\n${table(head, rows)}`;
}
