// `vouch report --format markdown`: for $GITHUB_STEP_SUMMARY and PR comments.
// GitHub-flavoured; every value from the run is escaped (mdInline) or fenced
// with a fence longer than any backtick run in it (mdFence). Long runs are cut
// to stay well under the job summary's 1 MiB: passed branch nodes are counted,
// not listed.
import { duration } from "../text/duration.ts";
import { money } from "../text/money.ts";
import { mdCode, mdFence, mdHtmlInline, mdInline } from "./escape.ts";
import { allOverruns, checkTail, failedChecks, type ReportModel, type ReportNode } from "./model.ts";

const ICON: Record<string, string> = {
  passed: "✅",
  failed: "❌",
  error: "⚠️",
  paused: "⏸️",
  interrupted: "⏹️",
  skipped: "⏭️",
  cancelled: "⏹️",
};
const MAX_ROWS = 100;
const MAX_DETAILS = 30;

function statusLine(model: ReportModel): string {
  const r = model.summary.run;
  const counts = r.counts
    ? ` · ${Object.entries(r.counts)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${v} ${k.replaceAll("_", "-")}`)
        .join(", ")}`
    : "";
  return `### ${ICON[r.status] ?? "•"} vouch: \`${mdCode(r.graph)}\` ${r.status} (exit ${r.exit_code ?? "–"})\n\nRun \`${mdCode(r.id)}\` · cost ${money(r.cost_usd, r.cost_unknown)} · wall ${duration(r.wall_ms)}${r.sessions > 1 ? ` · ${r.sessions} sessions` : ""}${counts}${r.reason ? ` · ${mdInline(r.reason)}` : ""}`;
}

function row(n: ReportNode): string {
  const v = n.view;
  return `| ${mdInline(n.path)} | ${ICON[v.status] ?? ""} ${mdInline(v.status)} | ${mdInline(v.qualifier ?? "–")} | ${money(v.cost_usd)} | ${duration(v.wall_ms)} |`;
}

function nodeTable(model: ReportModel): string {
  const shown = model.nodes.filter((n) => !n.branch || n.view.status !== "passed");
  const hidden = model.nodes.length - shown.length;
  const rows = shown.slice(0, MAX_ROWS).map(row);
  const more = shown.length > MAX_ROWS ? `\n\n…and ${shown.length - MAX_ROWS} more nodes (see the HTML report).` : "";
  const passedNote = hidden > 0 ? `\n\n${hidden} passed node(s) in map branches are not listed.` : "";
  return ["| node | status | qualifier | cost | wall |", "| --- | --- | --- | --- | --- |", ...rows].join("\n") + more + passedNote;
}

function failedDetails(model: ReportModel): string {
  const failing = model.nodes.flatMap((n) => failedChecks(n.view).map((c) => ({ n, c })));
  if (failing.length === 0) return "";
  const blocks = failing.slice(0, MAX_DETAILS).map(({ n, c }) => {
    const tail = checkTail(c);
    // <summary> takes HTML, not Markdown: escaped as HTML.
    const summary = `${mdHtmlInline(n.path)}: check <code>${mdHtmlInline(c.name)}</code> expected <code>${mdHtmlInline(c.expect)}</code>${c.reason ? ` — ${mdHtmlInline(c.reason)}` : ""}`;
    return `<details><summary>${summary}</summary>\n\n${mdFence(tail === "" ? "(no output)" : tail)}\n\n</details>`;
  });
  const more = failing.length > MAX_DETAILS ? `\n\n…and ${failing.length - MAX_DETAILS} more failed checks (see the HTML report).` : "";
  return `\n\n#### Failed checks\n\n${blocks.join("\n\n")}${more}`;
}

function overruns(model: ReportModel): string {
  const list = allOverruns(model);
  if (list.length === 0) return "";
  return `\n\n#### Overruns\n\n${list.map((o) => `- ${mdInline(o.path ?? "run")}: ${mdInline(o.cap)} ${o.actual} over limit ${o.limit} (${o.scope})`).join("\n")}`;
}

export function renderMarkdown(model: ReportModel): string {
  return `${statusLine(model)}\n\n${nodeTable(model)}${failedDetails(model)}${overruns(model)}\n`;
}
