// The cost-by-node chart of the HTML report: plain HTML bars placed by
// percentages (no layout library needed for bars). The timeline is html-timeline.ts.
import { money } from "../text/money.ts";
import { html } from "./escape.ts";
import { el } from "./markup.ts";
import { type ReportModel } from "./model.ts";

export const pct = (n: number, span: number) => (span <= 0 ? 0 : Math.min(100, (n / span) * 100)).toFixed(2);

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
