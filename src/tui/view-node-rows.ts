// The rows of one node: its status row, then what a person must see without
// asking — retries, cap overruns (limit vs actual), the error, and every check
// with the tail of each failure. Map nodes add their branches (view-branch-rows.ts).
import { checkRowText, failureTail, flakySegments, statusIcon, statusTone, workspaceStat } from "./format.ts";
import { overrunText } from "../read/cap-text.ts";
import { duration } from "../text/duration.ts";
import { usd } from "../text/money.ts";
import { line, seg, type Line, type Segment } from "./lines.ts";
import { oneLine } from "../text/lines.ts";
import { padTo } from "../text/width.ts";
import { currentAttempts } from "../read/node-cost.ts";
import { nodePath } from "../read/node-path.ts";
import { isFinal, type AttemptView, type NodeView } from "./view-state.ts";
import { qualifierText } from "../read/qualifier.ts";
import { checkLabel, checkWentWrong } from "../read/check-record.ts";

/** Lines of output shown under a failed check (the details view shows the whole tail). */
export const TAIL_LINES = 5;

export interface RowContext {
  now: number;
  tick: number;
  idWidth: number;
  /** False once the run has ended: nothing ticks any more. */
  live: boolean;
}

/** "passed verified", "error cap_stop (turns)", "failed check_failed", "running attempt 2". */
export function statusWords(n: NodeView): string {
  switch (n.status) {
    case "pending":
      return "pending";
    case "waiting":
      return n.stop_reason === "rate_limited" ? "held by a usage limit" : "awaiting approval";
    case "running":
      return n.attempt > 1 ? `running (attempt ${n.attempt})` : "running";
    case "retrying":
      return `retrying after attempt ${n.attempt}`;
    case "passed":
      return n.qualifier ? `passed ${qualifierText(n)}` : "passed";
    default: {
      const stop = n.stop_reason && n.stop_reason !== "complete" ? ` (${n.stop_reason})` : "";
      return n.cause && n.cause !== n.status ? `${n.status} ${n.cause}${stop}` : `${n.status}${stop}`;
    }
  }
}

function lastAttempt(n: NodeView): AttemptView | undefined {
  return n.attempts[n.attempts.length - 1];
}

/** Cost, turns and time: final figures once finished, live ones while running. */
export function metricsText(n: NodeView, now: number, live = true): string {
  const parts: string[] = [];
  const current = lastAttempt(n);
  const cost = n.cost_usd;
  // "$0" only where something could have cost (a finished agent), not on scripts or a sitting that has not said yet.
  if (cost !== null && (cost > 0 || (n.kind === "agent" && isFinal(n.status)))) parts.push(usd(cost));
  const turns = n.turns ?? current?.turns ?? null;
  if (turns !== null) parts.push(`${turns} turn${turns === 1 ? "" : "s"}`);
  if (n.wall_ms !== null && n.status !== "running") {
    if (n.wall_ms > 0 || (n.status !== "skipped" && n.status !== "cancelled")) parts.push(duration(n.wall_ms));
  } else if (live && (n.status === "running" || n.status === "waiting") && n.startedAt !== null)
    parts.push(duration(Math.max(0, now - n.startedAt)));
  return parts.join(" · ");
}

/** A node as the lines name it: "write", or "each[3].write" in a map branch (src/read/node-path.ts). */
export function nodeAt(n: { node: string; branch?: { map: string; index: number } | undefined }): string {
  return nodePath(n.node, n.branch);
}

/** "round 2" on a node a feedback loop runs again (nothing on the first pass). */
export function roundText(n: Pick<NodeView, "round">): string {
  return n.round !== undefined && n.round > 1 ? `round ${n.round}` : "";
}

/** Markers on a node row: feedback round, retried, fallback taken, recovered by `exhausted:`. */
export function markers(n: NodeView): Segment[] {
  const out: Segment[] = [];
  const round = roundText(n);
  if (round) out.push(seg(`  ↺ ${round}`, "accent"));
  const retries = currentAttempts(n.attempts).filter((a) => a.retry).length;
  if (retries > 0 && n.status !== "running" && n.status !== "retrying") out.push(seg(`  ↻ ${n.attempt} attempts`, "warn"));
  if (n.fallback) out.push(seg(`  → fallback ${n.fallback}`, "accent"));
  if (n.recovered) out.push(seg("  recovered", "accent"));
  // A node in a git worktree: its diff stat (the branch is in the details view).
  if (n.workspace) out.push(seg(`  ⎇ ${workspaceStat(n.workspace)}`, n.workspace.tampered ? "bad" : "muted"));
  return out;
}

export function nodeRow(n: NodeView, ctx: RowContext, selected: boolean, extra: Segment[] = []): Line {
  const tone = statusTone(n.status);
  const metrics = metricsText(n, ctx.now, ctx.live);
  const segments: Segment[] = [
    seg(selected ? "› " : "  ", "accent", true),
    seg(`${statusIcon(n.status, ctx.tick)} `, tone, true),
    seg(`${padTo(n.node, ctx.idWidth)}  `, undefined, true),
    seg(`${n.kind.padEnd(8)} `, "muted"),
    seg(statusWords(n), tone),
    ...extra,
    ...markers(n),
  ];
  if (metrics) segments.push(seg(`  ${metrics}`, "muted"));
  if ((n.status === "running" || n.status === "waiting") && n.activity) segments.push(seg(`  ${oneLine(n.activity)}`, "muted"));
  return { ...line(segments, n.key), selected };
}

/** "⚠ left out vouch/r/each/1/impl (each#1): merge_conflict in a.txt, b.txt" */
export function conflictRow(pad: string, c: { git_branch: string; from: string; paths: readonly string[] }): Line {
  return line([seg(pad), seg(`⚠ left out ${oneLine(c.git_branch)}`, "warn", true), seg(conflictWhy(c), "muted")]);
}

/** The loud line when the user's repository changed while a sitting ran (ADR 0044). */
export function repoChangedText(changed: readonly string[]): string {
  return `your repository changed while it ran: ${oneLine(changed.join(", "))} (vouch did not change it back: look at it)`;
}

/** " (each#1): merge_conflict in a.txt, b.txt", at most five paths named. */
export function conflictWhy(c: { from: string; paths: readonly string[] }): string {
  const paths = c.paths.slice(0, 5).join(", ") + (c.paths.length > 5 ? ` and ${c.paths.length - 5} more` : "");
  return ` (${oneLine(c.from)}): merge_conflict in ${oneLine(paths)}`;
}

/** The rows under a node: retries, overruns, the error, the checks of the latest attempt. */
export function detailRows(n: NodeView, indent: string, opts: { passedChecks: boolean } = { passedChecks: true }): Line[] {
  const rows: Line[] = [];
  const pad = `  ${indent}    `;
  const attempts = currentAttempts(n.attempts);
  for (const a of attempts) {
    if (!a.retry) continue;
    const why = seg(oneLine(a.retry.error ?? a.retry.reason), "muted");
    rows.push(line([seg(pad), seg(`↻ attempt ${a.attempt} ${a.retry.cause}: `, "warn"), why]));
  }
  const many = attempts.length > 1;
  for (const o of n.overruns) {
    const which = many && o.attempt !== null ? ` (attempt ${o.attempt})` : "";
    rows.push(line([seg(pad), seg(`⚠ cap overrun ${overrunText(o)}`, "bad", true), seg(which, "muted")]));
  }
  for (const c of n.conflicts ?? []) rows.push(conflictRow(pad, c));
  if (n.repoChanged !== undefined) rows.push(line([seg(pad), seg("⚠ ", "bad", true), seg(repoChangedText(n.repoChanged), "bad", true)]));
  if (n.error && (n.status === "failed" || n.status === "error")) {
    rows.push(line([seg(pad), seg(`${n.status === "error" ? "why" : "error"}: `, statusTone(n.status)), seg(oneLine(n.error))]));
  }
  const withChecks = [...attempts].reverse().find((a) => a.checks.length > 0);
  for (const c of withChecks?.checks ?? []) {
    // Its history calls it flaky (ADR 0067): said beside it, whatever it did this time.
    const flaky = flakySegments(c);
    if (!checkWentWrong(c)) {
      const took = seg(`  ${duration(c.duration_ms)}${c.tree === "base" ? " · failed there, as witnessed" : ""}`, "muted");
      if (opts.passedChecks || flaky.length > 0) rows.push(line([seg(pad), seg("✓ ", "ok", true), seg(checkLabel(c)), took, ...flaky]));
      continue;
    }
    const outcome = c.tree === "base" ? "passed on the base: vacuous" : checkRowText(c);
    const reason = c.reason && oneLine(c.reason) !== outcome ? oneLine(c.reason) : "";
    const why = [outcome, `expect ${c.expect}`, reason].filter(Boolean).join(" · ");
    rows.push(line([seg(pad), seg("✗ ", "bad", true), seg(checkLabel(c), "bad", true), seg(`  ${why}`, "muted"), ...flaky]));
    for (const l of failureTail(c, TAIL_LINES)) rows.push(line([seg(`${pad}  │ `, "muted"), seg(l)]));
  }
  return rows;
}
