// The timeline of a run folded from its events: one bar per sitting (a node's
// attempt, start to finish, retry or usage limit) and per check (its finish time
// less its duration), and the marks a reader needs explained: a retry, a usage
// limit, an approval asked, the run paused or waiting, a resumed session. Times
// are ms from the first event, so bars that overlap show what ran at once. Pure.
import type { VouchEvent } from "../engine/events.ts";
import { nodePath } from "../read/node-path.ts";

export interface Bar {
  kind: "sitting" | "check";
  /** Node path, `map[i].node` inside a branch. */
  path: string;
  session: number;
  attempt: number;
  /** The check's name, for a check bar. */
  name?: string;
  start: number;
  end: number;
  /** Status at the end: passed, failed, ..., retried, limited, or unfinished. */
  status: string;
}

/** What a mark on the timeline stands for (the page's legend explains each). */
export const MARK_KINDS = ["retry", "limit", "approval", "paused", "waiting", "session"] as const;
export type MarkKind = (typeof MARK_KINDS)[number];

export interface Mark {
  kind: MarkKind;
  /** The node it belongs to; null for the run's own marks (paused, waiting, a new session). */
  path: string | null;
  session: number;
  /** The attempt it is on (a node's marks); 0 for the run's. */
  attempt: number;
  at: number;
  /** One line on what happened (the cause retried for, the harness limited, what was asked). */
  note: string;
}

export interface Timeline {
  /** ms from the first event to the last. */
  span: number;
  bars: Bar[];
  marks: Mark[];
  /** Most sittings running at one time. */
  peak: number;
}

/** A node's label as every reader prints it (src/read/node-path.ts). */
function pathOf(e: { node: string; branch?: { map: string; index: number } | undefined }): string {
  return nodePath(e.node, e.branch);
}

/** The events folded one at a time: open sittings by (path, attempt), the session, the last time. */
class Fold {
  readonly bars: Bar[] = [];
  readonly marks: Mark[] = [];
  private readonly open = new Map<string, Bar>();
  session = 0;
  last = 0;

  closeAll(end: number): void {
    for (const bar of this.open.values()) this.bars.push({ ...bar, end, status: "unfinished" });
    this.open.clear();
  }

  start(e: VouchEvent & { type: "node.started" }, at: number): void {
    const bar: Bar = { kind: "sitting", path: pathOf(e), session: this.session, attempt: e.attempt, start: at, end: at, status: "running" };
    this.open.set(`${bar.path}\u0000${e.attempt}`, bar);
    if (e.kind === "approval") this.mark("approval", bar.path, e.attempt, at, e.prompt ?? "approval asked");
  }

  end(e: { node: string; branch?: { map: string; index: number } | undefined; attempt: number }, at: number, status: string): void {
    const key = `${pathOf(e)}\u0000${e.attempt}`;
    const bar = this.open.get(key);
    if (!bar) return;
    this.open.delete(key);
    this.bars.push({ ...bar, end: at, status });
  }

  mark(kind: MarkKind, path: string | null, attempt: number, at: number, note: string): void {
    this.marks.push({ kind, path, session: this.session, attempt, at, note });
  }
}

function foldOne(f: Fold, e: VouchEvent, at: number): void {
  switch (e.type) {
    case "run.started":
      f.closeAll(f.last);
      f.session += 1;
      if (e.resumed) f.mark("session", null, 0, at, `session ${f.session} (resumed)`);
      return;
    case "node.started":
      return f.start(e, at);
    case "node.retrying":
      f.end(e, at, "retried");
      return f.mark("retry", pathOf(e), e.attempt, at, `${e.cause}: ${e.reason}`);
    case "node.limited":
      f.end(e, at, "limited");
      return f.mark("limit", pathOf(e), e.attempt, at, `${e.harness}: ${e.error}`);
    case "node.finished":
      return f.end(e, at, e.status);
    case "run.paused":
      return f.mark("paused", null, 0, at, e.reason === "rate_limited" ? "paused at a usage limit" : "paused for an approval");
    case "run.waiting":
      return f.mark("waiting", null, 0, at, `waiting for ${e.harness}'s limit until ${e.until}`);
    case "check.finished":
      f.bars.push({
        kind: "check",
        path: pathOf(e),
        session: f.session,
        attempt: e.attempt,
        name: e.name,
        start: Math.max(0, at - e.duration_ms),
        end: at,
        status: e.passed ? "passed" : "failed",
      });
      return;
    default:
      return;
  }
}

export function timelineOf(events: VouchEvent[]): Timeline {
  if (events.length === 0) return { span: 0, bars: [], marks: [], peak: 0 };
  const t0 = Date.parse(events[0]!.t);
  const f = new Fold();
  for (const e of events) {
    const at = Math.max(0, Date.parse(e.t) - t0);
    // Before f.last moves: a new session closes what the one before left open at that one's last event.
    foldOne(f, e, at);
    f.last = Math.max(f.last, at);
  }
  f.closeAll(f.last);
  const bars = f.bars.sort((a, b) => a.start - b.start || a.path.localeCompare(b.path));
  return { span: f.last, bars, marks: f.marks, peak: peakOf(bars.filter((b) => b.kind === "sitting")) };
}

/** The most intervals open at once (an interval's end before another's start at the same ms). */
function peakOf(bars: Bar[]): number {
  const edges = bars
    .flatMap((b) => [
      { t: b.start, d: 1 },
      { t: b.end, d: -1 },
    ])
    .sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of edges) {
    now += e.d;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Steps an axis may tick at, from 100 ms to a day: ticks a person reads at a glance. */
const STEPS = [100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000];
const HOUR = 3_600_000;

/** The times an axis over `span` ms is labelled at: 0, then every step, at most `most` ticks after 0. */
export function axisTicks(span: number, most = 6): number[] {
  if (!(span > 0)) return [0];
  const hours = [1, 2, 3, 6, 12, 24].map((h) => h * HOUR);
  const step = [...STEPS, ...hours].find((s) => span / s <= most) ?? Math.ceil(span / most / (24 * HOUR)) * 24 * HOUR;
  const ticks: number[] = [];
  for (let t = 0; t <= span; t += step) ticks.push(t);
  return ticks;
}
