// The per-node and per-branch parts of the HTML report. Every value from the
// run goes through html() (or an attribute of el(), which escapes it); nothing
// here builds markup from unescaped text.
import { sealText } from "../read/seal.ts";
import type { AttemptView, BranchView, CheckRecord, NodeView } from "../ledger/types.ts";
import { duration } from "../text/duration.ts";
import { money } from "../text/money.ts";
import { html } from "./escape.ts";
import { el, row, voidEl } from "./markup.ts";
import { checkTail, lastChecks, type ReportModel, type ReportNode } from "./model.ts";

export function badge(status: string): string {
  return el("span", { class: `badge s-${status.replace(/\s+/g, "-")}` }, html(status));
}

function checkHtml(c: CheckRecord): string {
  const tail = checkTail(c);
  const exit = c.timed_out ? "timed out" : c.signal ? `signal ${c.signal}` : `exit ${c.exit ?? "–"}`;
  const facts = [html(exit), duration(c.duration_ms), ...(c.truncated ? ["tail truncated"] : [])].join(" · ");
  return el(
    "li",
    { class: `check ${c.passed ? "pass" : "fail"}` },
    el("b", {}, c.passed ? "✔ pass" : "✘ fail"),
    ` ${el("code", {}, html(c.name))} expects ${el("code", {}, html(c.expect))} · ${facts}`,
    c.passed ? "" : el("div", { class: "why" }, html(c.reason ?? "failed")),
    tail === "" ? "" : el("pre", { class: "tail" }, html(tail)),
  );
}

function attemptRow(a: AttemptView): string {
  const retry = a.retry_reason ? `${a.retry_cause ?? ""}: ${a.retry_reason}` : "";
  const status = a.status ?? "unfinished";
  return row("td", [
    a.session,
    a.round,
    a.attempt,
    status,
    a.qualifier ?? "",
    a.stop_reason ?? "",
    money(a.cost_usd),
    a.turns ?? "",
    duration(a.wall_ms),
    retry,
  ]);
}

const ATTEMPT_HEAD = ["session", "round", "attempt", "status", "qualifier", "stop", "cost", "turns", "wall", "retried because"];

function attemptsHtml(view: NodeView): string {
  if (view.attempts.length <= 1 && !view.attempts[0]?.retry_reason) return "";
  return el("table", { class: "attempts" }, row("th", ATTEMPT_HEAD), ...view.attempts.map(attemptRow));
}

/** One node's facts: status line, attempts, checks of the deciding attempt, error, result tail. */
export function nodeBody(view: NodeView): string {
  const fact = (name: string, value: unknown) => `${name} ${el("b", {}, html(value))}`;
  const facts = [
    fact("qualifier", view.qualifier ?? "–"),
    fact("stop", view.stop_reason ?? "–"),
    fact("cost", money(view.cost_usd)),
    fact("turns", view.turns ?? "–"),
    fact("wall", duration(view.wall_ms)),
    fact("attempts", view.attempts.length),
    ...(sealText(view) !== null ? [fact("sandbox", sealText(view))] : []),
  ];
  const checks = lastChecks(view);
  const why = view.cause ? `${view.cause}: ${view.error}` : view.error;
  const tail = view.attempts.at(-1)?.result_tail;
  return [
    el("div", { class: "facts" }, facts.join(" · ")),
    view.error ? el("div", { class: "why" }, html(why)) : "",
    attemptsHtml(view),
    checks.length ? el("ul", { class: "checks" }, ...checks.map(checkHtml)) : "",
    tail ? el("details", {}, el("summary", {}, "result tail"), el("pre", { class: "tail" }, html(tail))) : "",
  ].join("");
}

const closed = (status: string) => status === "passed" || status === "skipped";

export function nodeSection(n: ReportNode): string {
  const summary = el(
    "summary",
    {},
    `${badge(n.view.status)} `,
    el("b", {}, html(n.path)),
    " ",
    el("span", { class: "kind" }, html(n.view.kind ?? "")),
  );
  return el("details", { class: "node", id: `node-${n.path}`, open: !closed(n.view.status) }, summary, nodeBody(n.view));
}

/** Most characters of one value (an input, a branch's label or verdict) the page
 *  shows: a verdict can be a model's whole answer, and a 1,000-branch page must stay small. */
export const SHOWN = 2000;

export function shown(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} characters)` : text;
}

function verdictOf(b: BranchView): string {
  if (b.verdict === undefined || b.verdict === null) return "";
  return shown(typeof b.verdict === "string" ? b.verdict : JSON.stringify(b.verdict));
}

function branchRow(b: BranchView): string {
  const label = shown(b.label ?? "");
  const verdict = verdictOf(b);
  const nodes = b.nodes.map((n) =>
    el("details", { open: !closed(n.status) }, el("summary", {}, `${badge(n.status)} ${html(n.node)}`), nodeBody(n)),
  );
  // The branch's error, unless a node's error already says it.
  const told = b.nodes.some((n) => n.error !== null && b.error !== null && b.error.includes(n.error));
  const error = b.error && !told ? el("div", { class: "why" }, html(b.error)) : "";
  const search = `${b.index} ${label} ${verdict} ${b.status}`.toLowerCase();
  return el(
    "tr",
    { class: "branch", "data-status": b.status, "data-text": search },
    el("td", {}, String(b.index)),
    el("td", {}, html(label)),
    el("td", {}, badge(b.status)),
    el("td", {}, html(verdict)),
    el("td", {}, ...nodes, error),
  );
}

/** The text and status filters above a map's table (the page's script reads them). */
function filterHtml(map: string, statuses: string[], count: number): string {
  const options = ["all", ...statuses].map((s) => el("option", { value: s }, html(s)));
  return el(
    "div",
    { class: "filter" },
    voidEl("input", {
      type: "search",
      class: "f-text",
      placeholder: "filter branches by label, verdict or index",
      "aria-label": `filter ${map} branches`,
    }),
    " ",
    el("select", { class: "f-status", "aria-label": "status" }, ...options),
    " ",
    el("span", { class: "f-count" }, `${count} shown`),
  );
}

const BRANCH_HEAD = ["#", "label", "status", "verdict", "nodes"];

/** One filterable table per map: a text filter and a status filter (the page's script). */
export function branchTables(model: ReportModel): string {
  const maps = [...new Set(model.summary.branches.map((b) => b.map))];
  return maps
    .map((map) => {
      const rows = model.summary.branches.filter((b) => b.map === map);
      const statuses = [...new Set(rows.map((b) => b.status))].sort();
      const title = el("h3", {}, "Map ", el("code", {}, html(map)), `: ${rows.length} branches`);
      const table = el("table", { class: "branches" }, el("thead", {}, row("th", BRANCH_HEAD)), el("tbody", {}, ...rows.map(branchRow)));
      return el("section", { class: "map", "data-map": map }, title, "\n", filterHtml(map, statuses, rows.length), "\n", table);
    })
    .join("\n");
}
