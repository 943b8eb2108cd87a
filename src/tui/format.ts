// How facts read on screen, shared by the TUI and the plain writer so both say the same thing.
import { diffStatText, type CapName, type NodeStatus, type RunCounts, type WorkspaceRecord } from "../engine/events.ts";
import { seg, type Segment, type Tone } from "./lines.ts";
import { exactDuration, duration } from "../text/duration.ts";
import { linesOf, oneLine } from "../text/lines.ts";
import { usd } from "../text/money.ts";

/** A branch's verdict as shown: strings upper-cased, other values as compact JSON, none → the status. */
export function verdictText(verdict: unknown, status: string): string {
  if (verdict === null || verdict === undefined) return status.toUpperCase();
  if (typeof verdict === "string") return oneLine(verdict).toUpperCase() || status.toUpperCase();
  if (typeof verdict === "number" || typeof verdict === "boolean") return String(verdict).toUpperCase();
  return oneLine(JSON.stringify(verdict) ?? String(verdict));
}

/** Every state a row can be in: the node statuses plus the live ones. */
export type RowStatus = NodeStatus | "pending" | "running" | "retrying" | "waiting";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function statusIcon(status: RowStatus, tick = 0): string {
  switch (status) {
    case "passed":
      return "✓";
    case "failed":
      return "✗";
    case "error":
      return "!";
    case "skipped":
      return "-";
    case "cancelled":
      return "⊘";
    case "pending":
      return "·";
    case "waiting":
      return "?";
    case "retrying":
      return "↻";
    case "running":
      return SPINNER[tick % SPINNER.length]!;
  }
}

/** ERROR is never FAIL: failed is red, error is yellow. */
export function statusTone(status: RowStatus | string): Tone | undefined {
  switch (status) {
    case "passed":
      return "ok";
    case "failed":
      return "bad";
    case "error":
    case "waiting":
    case "paused":
      return "warn";
    case "running":
    case "retrying":
      return "info";
    case "skipped":
    case "cancelled":
    case "pending":
    case "interrupted":
      return "muted";
    default:
      return undefined;
  }
}

export interface TailSource {
  stdout_tail: string;
  stderr_tail: string;
}

/** The last `n` non-empty lines of a failed check's output: stdout's tail, then stderr's. */
export function failureTail(check: TailSource, n: number): string[] {
  const out = linesOf(check.stdout_tail);
  const err = linesOf(check.stderr_tail);
  // Keep some of each stream when both have something: a test runner may report on either.
  const fromOut = Math.min(out.length, n - Math.min(err.length, Math.ceil(n / 2)));
  const fromErr = Math.min(err.length, n - fromOut);
  return [...out.slice(out.length - fromOut), ...err.slice(err.length - fromErr)];
}

/** How a check failed, in a few words: "exit 1", "timed out after 2m", "signal SIGKILL". */
export function checkOutcomeText(c: {
  exit: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  could_not_run?: true;
}): string {
  if (c.timed_out) return `timed out after ${duration(c.duration_ms)}`;
  if (c.signal) return `signal ${c.signal}`;
  return c.exit === null ? "no exit status" : `exit ${c.exit}`;
}

/** What is said beside a check: it passed on a rerun after failing (flaky on this tree, ADR 0066),
 *  and its history calls it flaky (ADR 0067). */
export function flakySegments(c: { flaky?: true; flakyHistory?: string }): Segment[] {
  const out: Segment[] = [];
  if (c.flaky === true) out.push(seg("  ⚠ flaky: it failed, then passed on the same tree", "warn", true));
  if (c.flakyHistory !== undefined) out.push(seg(`  ⚠ ${c.flakyHistory}`, "warn"));
  return out;
}

/** The outcome a check row shows: "exit 1", or "could not run (signal SIGKILL)" for a check
 *  that could not run or did not finish, which is no evidence either way (ADR 0049). */
export function checkRowText(c: Parameters<typeof checkOutcomeText>[0]): string {
  const how = checkOutcomeText(c);
  return c.could_not_run ? `could not run (${how})` : how;
}

/** "failed", or "could not run" for a check that is no evidence either way (ADR 0049). */
export function checkVerb(c: { could_not_run?: true }): string {
  return c.could_not_run ? "could not run" : "failed";
}

/** "5 passed (1 self-reported) · 2 failed · 1 error · 1 skipped" (zeros left out; "no nodes" when all are zero). */
export function countsText(c: RunCounts): string {
  const parts = (["passed", "failed", "error", "skipped", "cancelled", "paused"] as const)
    .filter((k) => (c[k] ?? 0) > 0)
    .map((k) => (k === "passed" && c.self_reported ? `${c[k]} passed (${c.self_reported} self-reported)` : `${c[k]} ${k}`));
  return parts.length ? parts.join(" · ") : "no nodes";
}

/** A worktree's diff stat, "2 files, +3 -1", with what was tampered (ADR 0020). */
export function workspaceStat(w: WorkspaceRecord): string {
  const stat = diffStatText(w);
  return w.tampered ? `${stat} · tampered: ${w.tampered.map(oneLine).join(", ")}` : stat;
}
