// `vouch report --format markdown`: for $GITHUB_STEP_SUMMARY and PR comments.
// GitHub-flavoured; every value from the run is escaped (mdInline) or fenced
// with a fence longer than any backtick run in it (mdFence). Long runs are cut
// to stay well under the job summary's 1 MiB: passed branch nodes are counted,
// not listed.
import { sealSummary } from "../read/seal.ts";
import { capValue } from "../read/cap-text.ts";
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

function countsText(counts: NonNullable<ReportModel["summary"]["run"]["counts"]>): string {
  return Object.entries(counts)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${v} ${k.replaceAll("_", "-")}`)
    .join(", ");
}

function statusLine(model: ReportModel): string {
  const r = model.summary.run;
  const title = `### ${ICON[r.status] ?? "•"} vouch: \`${mdCode(r.graph)}\` ${r.status} (exit ${r.exit_code ?? "–"})`;
  const facts = [
    `Run \`${mdCode(r.id)}\``,
    `cost ${money(r.cost_usd, r.cost_unknown)}`,
    `wall ${duration(r.wall_ms)}`,
    ...(r.sessions > 1 ? [`${r.sessions} sessions`] : []),
    ...(r.counts ? [countsText(r.counts)] : []),
    ...sandboxFact(model),
    ...(r.reason ? [mdInline(r.reason)] : []),
  ];
  return `${title}\n\n${facts.join(" · ")}`;
}

/** "sandbox: 3 sealed, 1 unsealed (…)" when any node recorded its seal (ADR 0040). */
function sandboxFact(model: ReportModel): string[] {
  const text = sealSummary(model.nodes.map((n) => n.view));
  return text === null ? [] : [`sandbox: ${mdInline(text)}`];
}

/** A table row: its cells, each already escaped. */
const tableRow = (cells: string[]) => `| ${cells.join(" | ")} |`;

function row(n: ReportNode): string {
  const v = n.view;
  const status = `${ICON[v.status] ?? ""} ${mdInline(v.status)}`;
  return tableRow([mdInline(n.path), status, mdInline(v.qualifier ?? "–"), money(v.cost_usd), duration(v.wall_ms)]);
}

function nodeTable(model: ReportModel): string {
  const shown = model.nodes.filter((n) => !n.branch || n.view.status !== "passed");
  const hidden = model.nodes.length - shown.length;
  const rows = shown.slice(0, MAX_ROWS).map(row);
  const more = shown.length > MAX_ROWS ? `\n\n…and ${shown.length - MAX_ROWS} more nodes (see the HTML report).` : "";
  const passedNote = hidden > 0 ? `\n\n${hidden} passed node(s) in map branches are not listed.` : "";
  const head = [tableRow(["node", "status", "qualifier", "cost", "wall"]), tableRow(["---", "---", "---", "---", "---"])];
  return [...head, ...rows].join("\n") + more + passedNote;
}

function failedDetails(model: ReportModel): string {
  const failing = model.nodes.flatMap((n) => failedChecks(n.view).map((c) => ({ n, c })));
  if (failing.length === 0) return "";
  const blocks = failing.slice(0, MAX_DETAILS).map(({ n, c }) => {
    const tail = checkTail(c);
    // <summary> takes HTML, not Markdown: escaped as HTML.
    const code = (text: string) => `<code>${mdHtmlInline(text)}</code>`;
    const why = c.reason ? ` — ${mdHtmlInline(c.reason)}` : "";
    const summary = `${mdHtmlInline(n.path)}: check ${code(c.name)} expected ${code(c.expect)}${why}`;
    return `<details><summary>${summary}</summary>\n\n${mdFence(tail === "" ? "(no output)" : tail)}\n\n</details>`;
  });
  const more = failing.length > MAX_DETAILS ? `\n\n…and ${failing.length - MAX_DETAILS} more failed checks (see the HTML report).` : "";
  return `\n\n#### Failed checks\n\n${blocks.join("\n\n")}${more}`;
}

function overruns(model: ReportModel): string {
  const list = allOverruns(model);
  if (list.length === 0) return "";
  const line = (o: (typeof list)[number]) =>
    `- ${mdInline(o.path ?? "run")}: ${mdInline(o.cap)} ${capValue(o.cap, o.actual)} over limit ${capValue(o.cap, o.limit)} (${o.scope})`;
  return `\n\n#### Overruns\n\n${list.map(line).join("\n")}`;
}

export function renderMarkdown(model: ReportModel): string {
  return `${statusLine(model)}\n\n${nodeTable(model)}${failedDetails(model)}${overruns(model)}\n`;
}
