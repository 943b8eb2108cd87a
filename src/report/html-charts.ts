// The timeline and the cost-by-node chart of the HTML report: plain HTML bars
// placed by percentages of the run's span (no layout library needed for bars).
import { duration } from "../text/duration.ts";
import { money } from "../text/money.ts";
import { html } from "./escape.ts";
import { STATUS_COLORS } from "./graph-svg.ts";
import { el } from "./markup.ts";
import { type ReportModel } from "./model.ts";
import type { Bar } from "./timeline.ts";

const pct = (n: number, span: number) => (span <= 0 ? 0 : Math.min(100, (n / span) * 100)).toFixed(2);

function colorOf(status: string): string {
  return status === "retried" ? "#f9a825" : (STATUS_COLORS[status] ?? "#8d6e63");
}

function barHtml(b: Bar, span: number, cls: string): string {
  const width = Math.max(0.3, Number(pct(b.end - b.start, span)));
  const what = b.kind === "check" ? `check ${b.name ?? ""}` : `attempt ${b.attempt}`;
  const title = `${b.path} · ${what} · ${b.status} · ${duration(b.start)} → ${duration(b.end)}`;
  const style = `left:${pct(b.start, span)}%;width:${width.toFixed(2)}%;background:${colorOf(b.status)}`;
  return el("span", { class: cls, style, title });
}

/** One row per sitting (session, node path, attempt), its checks drawn inside it. */
export function timelineHtml(model: ReportModel): string {
  const { bars, span, peak } = model.timeline;
  const sittings = bars.filter((b) => b.kind === "sitting");
  if (sittings.length === 0) return "<p>No sitting was recorded.</p>";
  const key = (b: Bar) => `${b.session}\u0000${b.path}\u0000${b.attempt}`;
  const checks = new Map<string, Bar[]>();
  for (const c of bars.filter((b) => b.kind === "check")) checks.set(key(c), [...(checks.get(key(c)) ?? []), c]);
  const rows = sittings.map((s) => {
    const marks = (checks.get(key(s)) ?? []).map((c) => barHtml(c, span, "tl-check")).join("");
    const label = `${s.path} #${s.attempt}${s.session > 1 ? ` (session ${s.session})` : ""}`;
    const track = el("span", { class: "tl-track" }, barHtml(s, span, "tl-bar"), marks);
    return el("div", { class: "tl-row" }, el("span", { class: "tl-label", title: label }, html(label)), track);
  });
  const about = `${sittings.length} sittings over ${duration(span)}; at most ${peak} at once.`;
  const legend = "Thin marks are checks; amber is an attempt that was retried.";
  return el("p", {}, `${about} ${legend}`) + el("div", { class: "timeline" }, ...rows);
}

/** Cost per top-level node and per branch node (summed over a map's branches), largest first. */
export function costHtml(model: ReportModel): string {
  const costs = new Map<string, number>();
  let unknown = 0;
  for (const n of model.nodes) {
    if (n.view.kind === "map") continue; // a map's cost is its branches', counted below
    const key = n.branch ? `${n.branch.map}[*].${n.view.node}` : n.path;
    if (n.view.cost_usd === null) unknown += n.view.attempts.length > 0 ? 1 : 0;
    costs.set(key, (costs.get(key) ?? 0) + (n.view.cost_usd ?? 0));
  }
  const rows = [...costs].filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]);
  if (rows.length === 0) return `<p>No node reported a cost.${unknown ? ` ${unknown} of unknown cost.` : ""}</p>`;
  const max = rows[0]![1];
  const body = rows.map(([k, c]) =>
    el(
      "tr",
      {},
      el("td", {}, el("code", {}, html(k))),
      el("td", { class: "num" }, html(money(c))),
      el("td", { class: "costbar" }, el("span", { style: `width:${pct(c, max)}%` })),
    ),
  );
  const note =
    `${unknown} node(s) reported no cost (ends, or a harness that does not say) and are not drawn; ` +
    "nodes that cost nothing are left out too.";
  return el("table", { class: "cost" }, ...body) + (unknown ? el("p", {}, note) : "");
}
