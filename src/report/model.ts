// What every report format reads: the run as `vouch show --json` sees it (the
// ledger's runSummary), flattened into one list of node paths, plus the graph's
// shape and a timeline folded from the run's events. Pure: no I/O here.
import { tail } from "../engine/cut.ts";
import type { EventOf, VouchEvent } from "../engine/events.ts";
import type { Drawing } from "../engine/graph/draw-dot.ts";
import type { BranchView, CheckRecord, NodeView, RunSummary } from "../ledger/types.ts";
import { nodePath } from "../read/node-path.ts";
import { timelineOf, type Timeline } from "./timeline.ts";
import type { Histories } from "./html-evidence.ts";
import { checkWentWrong } from "../read/check-record.ts";
import type { RunDiffs } from "./work.ts";

/** One node of the run: a top-level node, or a node inside one map branch. */
export interface ReportNode {
  /** `verify` or `verify_each[4].verify_one`. */
  path: string;
  view: NodeView;
  branch?: BranchView;
}

export interface ReportModel {
  summary: RunSummary;
  nodes: ReportNode[];
  /** The graph's nodes as the latest session's run.started listed them. */
  graph: EventOf<"run.started">["nodes"];
  /** The graph as `vouch graph` draws it, from its file, when the file is as it was when the
   *  run started (its digest matches); absent: the report draws the recorded nodes and needs. */
  drawing?: Drawing;
  timeline: Timeline;
  /** The recent history of each of the run's checks, by name and command digest (ADR 0067). */
  histories?: Histories;
  /** The worktrees' patches the command line read from git (src/cli/report-diffs.ts, ADR 0071);
   *  absent: none were read (a report of another format, or git not reachable), and the page
   *  shows each worktree's branch, commit and stat without its patch. */
  diffs?: RunDiffs;
}

/** What the command line read besides the ledger and hands to the report. */
export interface ReportExtras {
  drawing?: Drawing;
  diffs?: RunDiffs;
  histories?: Histories;
}

export function reportModel(summary: RunSummary, events: VouchEvent[], extras: ReportExtras = {}): ReportModel {
  const nodes: ReportNode[] = summary.nodes.map((view) => ({ path: view.node, view }));
  for (const branch of summary.branches) {
    for (const view of branch.nodes) nodes.push({ path: nodePath(view.node, branch), view, branch });
  }
  const started = events.filter((e): e is EventOf<"run.started"> => e.type === "run.started").at(-1);
  const { drawing, diffs, histories } = extras;
  return {
    summary,
    nodes,
    graph: started?.nodes ?? [],
    timeline: timelineOf(events),
    ...(drawing ? { drawing } : {}),
    ...(histories ? { histories } : {}),
    ...(diffs ? { diffs } : {}),
  };
}

/** A node that did not pass but `exhausted:` recovered counts for its graph (ADR 0006): it is no
 *  failure of the run, and CI must not read it as one (JUnit: skipped; the CI formats: warnings). */
export function recovered(n: ReportNode): boolean {
  return n.view.status !== "passed" && n.view.attempts.at(-1)?.recovered === true;
}

/** The checks of a node's last attempt (what decided its verdict). */
export function lastChecks(view: NodeView): CheckRecord[] {
  return view.attempts.at(-1)?.checks ?? [];
}

export function failedChecks(view: NodeView): CheckRecord[] {
  return lastChecks(view).filter(checkWentWrong);
}

/** How much of a check's output a report shows: a recorded tail can be 64 KiB per stream,
 *  and a page or job summary of many failed checks must stay small. */
export const REPORT_TAIL_CHARS = 8000;

/** A check's output tail: stderr after stdout, as `vouch show` prints it, cut to its last
 *  REPORT_TAIL_CHARS characters (marked; `vouch show --json` has the whole tail). */
export function checkTail(c: CheckRecord): string {
  const whole = [c.stdout_tail, c.stderr_tail].filter((t) => t.trim() !== "").join("\n");
  return whole.length <= REPORT_TAIL_CHARS
    ? whole
    : `[… ${whole.length - REPORT_TAIL_CHARS} characters before]\n${tail(whole, REPORT_TAIL_CHARS)}`;
}

/** Every overrun of the run: run-wide ones and those on node attempts. */
export function allOverruns(model: ReportModel) {
  const onNodes = model.nodes.flatMap((n) => n.view.attempts.flatMap((a) => a.overruns.map((o) => ({ ...o, path: n.path }))));
  return [...model.summary.overruns.map((o) => ({ ...o, path: null as string | null })), ...onNodes];
}
