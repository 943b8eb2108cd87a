// What every report format reads: the run as `vouch show --json` sees it (the
// ledger's runSummary), flattened into one list of node paths, plus the graph's
// shape and a timeline folded from the run's events. Pure: no I/O here.
import { tail } from "../engine/cut.ts";
import type { EventOf, VouchEvent } from "../engine/events.ts";
import type { Drawing } from "../engine/graph/draw-dot.ts";
import type { BranchView, CheckRecord, NodeView, RunSummary } from "../ledger/types.ts";
import { nodePath } from "../read/node-path.ts";
import { timelineOf, type Timeline } from "./timeline.ts";
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
  /** The worktrees' patches the command line read from git (src/cli/report-diffs.ts, ADR 0071);
   *  absent: none were read (a report of another format, or git not reachable), and the page
   *  shows each worktree's branch, commit and stat without its patch. */
  diffs?: RunDiffs;
  /** The run's claims against its evidence (issue 32): one count per claim and evidence.
   *  The hook is here and the page shows it when present; nothing fills it yet. */
  claims?: readonly ClaimCount[];
}

/** What the models claimed of their own work beside what vouch's evidence found: how many
 *  sittings made `claim` and ended with `evidence` (verified, unchecked, failed, no verdict),
 *  and what they cost. The shape of issue 32's claims table, without its grouping. */
export interface ClaimCount {
  /** null: the model said nothing vouch could read. */
  claim: string | null;
  evidence: string;
  sittings: number;
  cost_usd: number;
  cost_unknown: number;
}

/** What the command line read besides the ledger and hands to the report. */
export interface ReportExtras {
  drawing?: Drawing;
  diffs?: RunDiffs;
  claims?: readonly ClaimCount[];
}

export function reportModel(summary: RunSummary, events: VouchEvent[], extras: ReportExtras = {}): ReportModel {
  const nodes: ReportNode[] = summary.nodes.map((view) => ({ path: view.node, view }));
  for (const branch of summary.branches) {
    for (const view of branch.nodes) nodes.push({ path: nodePath(view.node, branch), view, branch });
  }
  const started = events.filter((e): e is EventOf<"run.started"> => e.type === "run.started").at(-1);
  const { drawing, diffs, claims } = extras;
  return {
    summary,
    nodes,
    graph: started?.nodes ?? [],
    timeline: timelineOf(events),
    ...(drawing ? { drawing } : {}),
    ...(diffs ? { diffs } : {}),
    ...(claims ? { claims } : {}),
  };
}

/** The checks of a node's last attempt (what decided its verdict). */
export function lastChecks(view: NodeView): CheckRecord[] {
  return view.attempts.at(-1)?.checks ?? [];
}

export function failedChecks(view: NodeView): CheckRecord[] {
  return lastChecks(view).filter((c) => !c.passed);
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
