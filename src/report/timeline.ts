// The timeline of a run folded from its events: one bar per sitting (a node's
// attempt, start to finish or retry) and per check (its finish time less its
// duration). Times are ms from the first event, so bars that overlap show what
// ran at once. Pure.
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
  /** Status at the end: passed, failed, ..., retried, or unfinished. */
  status: string;
}

export interface Timeline {
  /** ms from the first event to the last. */
  span: number;
  bars: Bar[];
  /** Most sittings running at one time. */
  peak: number;
}

/** A node's label as every reader prints it (src/read/node-path.ts). */
function pathOf(e: { node: string; branch?: { map: string; index: number } | undefined }): string {
  return nodePath(e.node, e.branch);
}

export function timelineOf(events: VouchEvent[]): Timeline {
  if (events.length === 0) return { span: 0, bars: [], peak: 0 };
  const t0 = Date.parse(events[0]!.t);
  const at = (t: string) => Math.max(0, Date.parse(t) - t0);
  const open = new Map<string, Bar>();
  const bars: Bar[] = [];
  let session = 0;
  let last = 0;
  const close = (end: number) => {
    for (const bar of open.values()) bars.push({ ...bar, end, status: "unfinished" });
    open.clear();
  };
  for (const e of events) {
    last = Math.max(last, at(e.t));
    if (e.type === "run.started") {
      close(last);
      session += 1;
    } else if (e.type === "node.started") {
      const bar: Bar = { kind: "sitting", path: pathOf(e), session, attempt: e.attempt, start: at(e.t), end: at(e.t), status: "running" };
      open.set(`${bar.path}\u0000${e.attempt}`, bar);
    } else if (e.type === "node.retrying" || e.type === "node.finished") {
      const key = `${pathOf(e)}\u0000${e.attempt}`;
      const bar = open.get(key);
      if (bar) {
        open.delete(key);
        bars.push({ ...bar, end: at(e.t), status: e.type === "node.retrying" ? "retried" : e.status });
      }
    } else if (e.type === "check.finished") {
      const end = at(e.t);
      bars.push({
        kind: "check",
        path: pathOf(e),
        session,
        attempt: e.attempt,
        name: e.name,
        start: Math.max(0, end - e.duration_ms),
        end,
        status: e.passed ? "passed" : "failed",
      });
    }
  }
  close(last);
  bars.sort((a, b) => a.start - b.start || a.path.localeCompare(b.path));
  return { span: last, bars, peak: peakOf(bars.filter((b) => b.kind === "sitting")) };
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
