// `vouch report --format html`: one self-contained page. No external src or
// href; a Content-Security-Policy that lets only the page's own script (by its
// hash) run and forbids every fetch, so even text that escaped escaping could
// neither run nor call out.
import { sealSummary } from "../read/seal.ts";
import { duration, exactDuration } from "../text/duration.ts";
import { money, usd } from "../text/money.ts";
import { createHash } from "node:crypto";
import { capValue } from "../read/cap-text.ts";
import { html } from "./escape.ts";
import { el } from "./markup.ts";
import { costHtml, timelineHtml } from "./html-charts.ts";
import { badge, branchTables, nodeSection, shown } from "./html-nodes.ts";
import { allOverruns, type ReportModel } from "./model.ts";
import { REPORT_CSS } from "./html-style.ts";

/** The branch filter: text and status, per map table. */
const SCRIPT = `document.querySelectorAll("section.map").forEach(function (sec) {
  var text = sec.querySelector(".f-text"), status = sec.querySelector(".f-status"), count = sec.querySelector(".f-count");
  var rows = sec.querySelectorAll("tr.branch");
  function apply() {
    var q = text.value.trim().toLowerCase(), s = status.value, n = 0;
    rows.forEach(function (r) {
      var show = (s === "all" || r.dataset.status === s) && (q === "" || r.dataset.text.indexOf(q) >= 0);
      r.hidden = !show;
      if (show) n++;
    });
    count.textContent = n + " shown";
  }
  text.addEventListener("input", apply);
  status.addEventListener("change", apply);
});`;

function csp(): string {
  const hash = createHash("sha256").update(SCRIPT).digest("base64");
  const none = ["img-src", "connect-src", "form-action", "base-uri"].map((d) => `${d} 'none'`);
  return ["default-src 'none'", "style-src 'unsafe-inline'", `script-src 'sha256-${hash}'`, ...none].join("; ");
}

function capsText(model: ReportModel): string {
  const { caps } = model.summary.run;
  const parts = [
    caps.budget_usd === null ? "no budget cap" : `budget ${usd(caps.budget_usd)}`,
    caps.wall_ms === null ? "no wall cap" : `wall ${exactDuration(caps.wall_ms)}`,
  ];
  return parts.join(", ");
}

function overrunsHtml(model: ReportModel): string {
  const list = allOverruns(model);
  if (list.length === 0) return "none";
  const item = (o: (typeof list)[number]) =>
    el("li", {}, html(`${o.path ?? "run"}: ${o.cap} ${capValue(o.cap, o.actual)} over limit ${capValue(o.cap, o.limit)} (${o.scope})`));
  return el("ul", {}, ...list.map(item));
}

function headerHtml(model: ReportModel): string {
  const r = model.summary.run;
  const counts = r.counts
    ? Object.entries(r.counts)
        .map(([k, v]) => `${v} ${k.replaceAll("_", "-")}`)
        .join(", ")
    : "–";
  const rows: [string, string][] = [
    ["status", `${badge(r.status)}${r.reason ? ` ${html(r.reason)}` : ""}`],
    ["exit code", html(r.exit_code ?? "–")],
    ["cost", `${html(money(r.cost_usd, r.cost_unknown))}`],
    ["wall", html(duration(r.wall_ms))],
    ["caps", html(capsText(model))],
    ["overruns", overrunsHtml(model)],
    ["nodes", html(counts)],
    ["sandbox", html(sealSummary(model.nodes.map((n) => n.view)) ?? "not recorded")],
    ["run", runFacts(model)],
    ["graph", el("code", {}, html(r.graph_path))],
    ["inputs", inputsHtml(r.inputs)],
  ];
  return el("table", { class: "header" }, ...rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v))));
}

function runFacts(model: ReportModel): string {
  const r = model.summary.run;
  const facts = [`started ${r.started_at}`, `${r.sessions} session(s)`, `harness ${r.harness ?? "per node"}`, `vouch ${r.version}`];
  return [el("code", {}, html(r.id)), ...facts.map(html)].join(" · ");
}

function inputsHtml(inputs: Record<string, unknown>): string {
  const entries = Object.entries(inputs);
  if (entries.length === 0) return "none";
  return entries
    .map(([k, v]) => {
      const text = typeof v === "string" ? v : JSON.stringify(v);
      return el("details", {}, el("summary", {}, el("code", {}, html(k))), el("pre", { class: "tail" }, html(shown(text))));
    })
    .join("");
}

/** Said when the graph file is not as the run had it: the picture then has only needs. */
function graphNote(model: ReportModel): string {
  if (model.drawing) return "";
  const file = el("code", {}, html(model.summary.run.graph_path));
  const why = "is gone or changed since the run started, so routes, fallbacks and feedback loops are not shown.";
  return el("p", { class: "note" }, `Drawn from the nodes the run recorded: ${file} ${why}`);
}

export function renderHtml(model: ReportModel, svg: string): string {
  const r = model.summary.run;
  const top = model.nodes.filter((n) => !n.branch);
  const maps = model.summary.branches.length ? `<h2>Map branches</h2>${branchTables(model)}` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vouch: ${html(r.graph)} ${html(r.status)} (${html(r.id)})</title>
<style>${REPORT_CSS}</style></head>
<body>
<h1>vouch run of <code>${html(r.graph)}</code>: ${badge(r.status)}</h1>
${headerHtml(model)}
<h2>Graph</h2>${graphNote(model)}<div class="graph">${svg}</div>
<h2>Nodes</h2>${top.map(nodeSection).join("\n")}
${maps}
<h2>Timeline</h2>${timelineHtml(model)}
<h2>Cost by node</h2>${costHtml(model)}
<script>${SCRIPT}</script>
</body></html>
`;
}
