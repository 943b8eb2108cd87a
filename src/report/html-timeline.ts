// The timeline of the HTML report: one row per sitting on a time axis, its checks
// drawn inside it, the marks a reader must have explained (a retry, a usage
// limit, an approval asked, the run paused or waiting, a resumed session), and a
// legend that says what every colour and mark means. Plain HTML placed by
// percentages of the run's span: a bar chart needs no layout engine.
import { duration } from "../text/duration.ts";
import { html } from "./escape.ts";
import { STATUS_COLORS } from "./graph-svg.ts";
import { pct } from "./html-charts.ts";
import { el } from "./markup.ts";
import type { ReportModel } from "./model.ts";
import { axisTicks, MARK_KINDS, type Bar, type Mark, type MarkKind } from "./timeline.ts";

/** A bar's colour: its status's, amber for a retried attempt, purple for one a usage limit cut off. */
const EXTRA_COLORS: Record<string, string> = { retried: "#f9a825", limited: "#6a1b9a" };
function colorOf(status: string): string {
  return EXTRA_COLORS[status] ?? STATUS_COLORS[status] ?? "#8d6e63";
}

/** Each mark's letter and what the legend says of it. */
export const MARK_LEGEND: Record<MarkKind, { letter: string; means: string }> = {
  retry: { letter: "R", means: "retried: the attempt did not pass and was asked again (the cause is in its tooltip)" },
  limit: { letter: "L", means: "usage limit: the harness stopped the attempt; it runs again when the limit lifts" },
  approval: { letter: "A", means: "approval asked: the run waited for a person" },
  paused: { letter: "P", means: "the run paused (an approval, or a usage limit); vouch resume went on" },
  waiting: { letter: "W", means: "the run waited in place for a usage limit (--wait-limits)" },
  session: { letter: "S", means: "a resumed session started" },
};

function barHtml(b: Bar, span: number, cls: string): string {
  const width = Math.max(0.3, Number(pct(b.end - b.start, span)));
  const what = b.kind === "check" ? `check ${b.name ?? ""}` : `attempt ${b.attempt}`;
  const title = `${b.path} · ${what} · ${b.status} · ${duration(b.start)} → ${duration(b.end)}`;
  const style = `left:${pct(b.start, span)}%;width:${width.toFixed(2)}%;background:${colorOf(b.status)}`;
  return el("span", { class: cls, style, title });
}

function markHtml(m: Mark, span: number): string {
  const { letter } = MARK_LEGEND[m.kind];
  const title = `${m.path ?? "run"} · ${m.kind} at ${duration(m.at)} · ${m.note}`;
  return el("span", { class: `tl-mark m-${m.kind}`, style: `left:${pct(m.at, span)}%`, title }, letter);
}

function axisHtml(span: number): string {
  // A label near the right end is written to the left of its tick, so it stays on the page.
  const tick = (t: number) =>
    el("span", { class: Number(pct(t, span)) > 90 ? "tl-tick end" : "tl-tick", style: `left:${pct(t, span)}%` }, html(duration(t)));
  const ticks = axisTicks(span).map(tick);
  return el(
    "div",
    { class: "tl-row tl-axis" },
    el("span", { class: "tl-label" }, "time from start"),
    el("span", { class: "tl-track" }, ...ticks),
  );
}

function rowHtml(label: string, track: string[]): string {
  return el(
    "div",
    { class: "tl-row" },
    el("span", { class: "tl-label", title: label }, html(label)),
    el("span", { class: "tl-track" }, ...track),
  );
}

/** What the colours and marks mean: the bars' statuses that occur, then every mark kind. */
function legendHtml(bars: Bar[]): string {
  const statuses = [...new Set(bars.filter((b) => b.kind === "sitting").map((b) => b.status))].sort();
  const swatch = (s: string) =>
    el("span", { class: "lg-item" }, el("span", { class: "lg-bar", style: `background:${colorOf(s)}` }), html(s));
  const check = el("span", { class: "lg-item" }, el("span", { class: "lg-check" }), "a check (its run inside the attempt)");
  const marks = MARK_KINDS.map((k) =>
    el("span", { class: "lg-item" }, el("span", { class: `tl-mark lg-mark m-${k}` }, MARK_LEGEND[k].letter), html(MARK_LEGEND[k].means)),
  );
  return el("div", { class: "legend" }, el("b", {}, "Legend: "), ...statuses.map(swatch), check, ...marks);
}

/** One row per sitting (session, node path, attempt), its checks and marks drawn inside it. */
export function timelineHtml(model: ReportModel): string {
  const { bars, span, peak, marks } = model.timeline;
  const sittings = bars.filter((b) => b.kind === "sitting");
  if (sittings.length === 0) return "<p>No sitting was recorded.</p>";
  const key = (b: { session: number; path: string | null; attempt: number }) => `${b.session}\u0000${b.path}\u0000${b.attempt}`;
  const inside = new Map<string, string[]>();
  const add = (k: string, markup: string) => inside.set(k, [...(inside.get(k) ?? []), markup]);
  for (const c of bars.filter((b) => b.kind === "check")) add(key(c), barHtml(c, span, "tl-check"));
  for (const m of marks.filter((x) => x.path !== null)) add(key(m), markHtml(m, span));
  const run = marks.filter((m) => m.path === null).map((m) => markHtml(m, span));
  const rows = sittings.map((s) => {
    const label = `${s.path} #${s.attempt}${s.session > 1 ? ` (session ${s.session})` : ""}`;
    return rowHtml(label, [barHtml(s, span, "tl-bar"), ...(inside.get(key(s)) ?? [])]);
  });
  const about = `${sittings.length} sittings over ${duration(span)}; at most ${peak} at once.`;
  const body = [axisHtml(span), ...(run.length ? [rowHtml("run", run)] : []), ...rows];
  return el("p", {}, html(about)) + el("div", { class: "timeline" }, ...body) + legendHtml(bars);
}
