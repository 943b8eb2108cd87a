// The per-node and per-branch parts of the HTML report. Every value from the
// run goes through html(); nothing here builds markup from unescaped text.
import { duration } from "../text/duration.ts";
import { money } from "../text/money.ts";
import type { AttemptView, BranchView, CheckRecord, NodeView } from "../ledger/types.ts";
import { html } from "./escape.ts";
import { checkTail, lastChecks, type ReportModel, type ReportNode } from "./model.ts";

export function badge(status: string): string {
  return `<span class="badge s-${html(status.replace(/\s+/g, "-"))}">${html(status)}</span>`;
}

function checkHtml(c: CheckRecord): string {
  const tail = checkTail(c);
  const why = c.passed ? "" : `<div class="why">${html(c.reason ?? "failed")}</div>`;
  const pre = tail === "" ? "" : `<pre class="tail">${html(tail)}</pre>`;
  const exit = c.timed_out ? "timed out" : c.signal ? `signal ${c.signal}` : `exit ${c.exit ?? "–"}`;
  return `<li class="check ${c.passed ? "pass" : "fail"}"><b>${c.passed ? "✔ pass" : "✘ fail"}</b> <code>${html(c.name)}</code> expects <code>${html(c.expect)}</code> · ${html(exit)} · ${duration(c.duration_ms)}${c.truncated ? " · tail truncated" : ""}${why}${pre}</li>`;
}

function attemptRow(a: AttemptView): string {
  const retry = a.retry_reason ? `${a.retry_cause ?? ""}: ${a.retry_reason}` : "";
  const cells = [
    a.session,
    a.round,
    a.attempt,
    a.status ?? "unfinished",
    a.qualifier ?? "",
    a.stop_reason ?? "",
    money(a.cost_usd),
    a.turns ?? "",
    duration(a.wall_ms),
    retry,
  ];
  return `<tr>${cells.map((c) => `<td>${html(c)}</td>`).join("")}</tr>`;
}

function attemptsHtml(view: NodeView): string {
  if (view.attempts.length <= 1 && !view.attempts[0]?.retry_reason) return "";
  const head = ["session", "round", "attempt", "status", "qualifier", "stop", "cost", "turns", "wall", "retried because"];
  return `<table class="attempts"><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr>${view.attempts.map(attemptRow).join("")}</table>`;
}

/** One node's facts: status line, attempts, checks of the deciding attempt, error, result tail. */
export function nodeBody(view: NodeView): string {
  const facts = [
    `qualifier <b>${html(view.qualifier ?? "–")}</b>`,
    `stop <b>${html(view.stop_reason ?? "–")}</b>`,
    `cost <b>${html(money(view.cost_usd))}</b>`,
    `turns <b>${html(view.turns ?? "–")}</b>`,
    `wall <b>${html(duration(view.wall_ms))}</b>`,
    `attempts <b>${view.attempts.length}</b>`,
  ];
  const checks = lastChecks(view);
  const err = view.error ? `<div class="why">${html(view.cause ?? "")}${view.cause ? ": " : ""}${html(view.error)}</div>` : "";
  const tail = view.attempts.at(-1)?.result_tail;
  const result = tail ? `<details><summary>result tail</summary><pre class="tail">${html(tail)}</pre></details>` : "";
  const list = checks.length ? `<ul class="checks">${checks.map(checkHtml).join("")}</ul>` : "";
  return `<div class="facts">${facts.join(" · ")}</div>${err}${attemptsHtml(view)}${list}${result}`;
}

export function nodeSection(n: ReportNode): string {
  const open = n.view.status !== "passed" && n.view.status !== "skipped" ? " open" : "";
  return `<details class="node" id="node-${html(n.path)}"${open}><summary>${badge(n.view.status)} <b>${html(n.path)}</b> <span class="kind">${html(n.view.kind ?? "")}</span></summary>${nodeBody(n.view)}</details>`;
}

/** Most characters of one value (an input, a branch's label or verdict) the page
 *  shows: a verdict can be a model's whole answer, and a 1,000-branch page must stay small. */
export const SHOWN = 2000;

export function shown(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} characters)` : text;
}

function branchRow(b: BranchView): string {
  const label = shown(b.label ?? "");
  const verdict = shown(
    b.verdict === undefined || b.verdict === null ? "" : typeof b.verdict === "string" ? b.verdict : JSON.stringify(b.verdict),
  );
  const nodes = b.nodes
    .map(
      (n) =>
        `<details${n.status === "passed" || n.status === "skipped" ? "" : " open"}><summary>${badge(n.status)} ${html(n.node)}</summary>${nodeBody(n)}</details>`,
    )
    .join("");
  const search = `${b.index} ${label} ${verdict} ${b.status}`.toLowerCase();
  return `<tr class="branch" data-status="${html(b.status)}" data-text="${html(search)}"><td>${b.index}</td><td>${html(label)}</td><td>${badge(b.status)}</td><td>${html(verdict)}</td><td>${nodes}${b.error && !b.nodes.some((n) => b.error!.includes(n.error ?? "\u0000")) ? `<div class="why">${html(b.error)}</div>` : ""}</td></tr>`;
}

/** One filterable table per map: a text filter and a status filter (the page's script). */
export function branchTables(model: ReportModel): string {
  const maps = [...new Set(model.summary.branches.map((b) => b.map))];
  return maps
    .map((map) => {
      const rows = model.summary.branches.filter((b) => b.map === map);
      const statuses = [...new Set(rows.map((b) => b.status))].sort();
      const options = ["all", ...statuses].map((s) => `<option value="${html(s)}">${html(s)}</option>`).join("");
      return `<section class="map" data-map="${html(map)}"><h3>Map <code>${html(map)}</code>: ${rows.length} branches</h3>
<div class="filter"><input type="search" class="f-text" placeholder="filter branches by label, verdict or index" aria-label="filter ${html(map)} branches"> <select class="f-status" aria-label="status">${options}</select> <span class="f-count">${rows.length} shown</span></div>
<table class="branches"><thead><tr><th>#</th><th>label</th><th>status</th><th>verdict</th><th>nodes</th></tr></thead><tbody>${rows.map(branchRow).join("")}</tbody></table></section>`;
    })
    .join("\n");
}
