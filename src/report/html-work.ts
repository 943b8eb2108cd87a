// The work on the HTML page (ADR 0071): what a reviewer wants after parallel
// agents ran. Each merge node's result (the branches merged, in order; each one
// left out with the paths that conflict; the checks on the merged tree), then
// every node that worked in a git worktree: its branch, commit, diff stat and
// the patch itself, collapsed and cut to DIFF_BOUNDS with what was left out
// counted. Every value goes through html() or an attribute of el().
import { diffStatText, type WorkspaceRecord } from "../engine/events.ts";
import { html } from "./escape.ts";
import { badge, checkHtml } from "./html-nodes.ts";
import { el } from "./markup.ts";
import { lastChecks, type ReportModel, type ReportNode } from "./model.ts";
import {
  boundDiff,
  DIFF_BOUNDS,
  branchLabels,
  mergeResultOf,
  pageBudget,
  shortCommit,
  type MergeResult,
  type NodeDiff,
  type PageBudget,
} from "./work.ts";

const code = (text: string) => el("code", {}, html(text));

/** What every part of the section reads: the model, the branches' task labels, the room left for patches. */
interface Page {
  model: ReportModel;
  labels: Map<string, string>;
  budget: PageBudget;
}

/** `vouch show RUN --diff NODE`: where the whole patch is, said wherever the page cuts it. */
function showDiff(model: ReportModel, label: string): string {
  return code(`vouch show ${model.summary.run.id} --diff ${label}`);
}

function diffLine(line: string): string {
  const cls = /^(diff |index |new file|deleted file|similarity|rename |old mode|new mode)/.test(line)
    ? "d-head"
    : /^(\+\+\+|---)( |$)/.test(line)
      ? "d-file"
      : line.startsWith("@@")
        ? "d-hunk"
        : line.startsWith("+")
          ? "d-add"
          : line.startsWith("-")
            ? "d-del"
            : null;
  return cls ? el("span", { class: cls }, html(line)) : html(line);
}

/** The patch, collapsed: its lines up to the bound, then how many more and where they are. */
function patchHtml(p: Page, label: string, patch: string): string {
  const { model } = p;
  const shown = boundDiff(patch, DIFF_BOUNDS, p.budget, (l) => html(l).length + 30);
  const total = shown.lines.length + shown.more;
  const what = shown.more > 0 ? `diff: the first ${shown.lines.length} of ${total} lines` : `diff: ${total} line${total === 1 ? "" : "s"}`;
  const room = p.budget.chars < DIFF_BOUNDS.lineChars * 6 ? " (the page's room for patches is used up)" : "";
  const more =
    shown.more > 0
      ? el("p", { class: "more" }, `${shown.more} more lines${html(room)}: `, showDiff(model, label), " prints all of it")
      : "";
  const cut =
    shown.cut > 0
      ? el("p", { class: "more" }, `${shown.cut} long line${shown.cut === 1 ? "" : "s"} cut at ${DIFF_BOUNDS.lineChars} characters`)
      : "";
  const pre = el("pre", { class: "diff" }, shown.lines.map(diffLine).join("\n"));
  return el("details", { class: "diff" }, el("summary", {}, html(what)), pre, more, cut);
}

function diffHtml(p: Page, label: string, w: WorkspaceRecord): string {
  const { model } = p;
  if (w.commit === w.base) return el("p", { class: "note" }, "No change: the branch is at the commit it started from.");
  const diff: NodeDiff | undefined = model.diffs?.get(label);
  if (diff && "patch" in diff) return patchHtml(p, label, diff.patch);
  const why = diff ? diff.unread : "the patch was not read for this page";
  return el("p", { class: "note" }, `Patch not shown (${html(why)}): `, showDiff(model, label), " prints it.");
}

function factsTable(rows: [string, string][]): string {
  return el("table", { class: "wfacts" }, ...rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v))));
}

/** One node's worktree: branch, commit from base, stat, protected paths it changed, the patch. */
function worktreeHtml(p: Page, n: ReportNode): string {
  const { labels } = p;
  const w = n.view.workspace!;
  const task = n.branch ? labels.get(n.path.slice(0, n.path.lastIndexOf("."))) : undefined;
  const rows: [string, string][] = [
    ["branch", code(w.branch)],
    ["commit", `${code(shortCommit(w.commit))} from ${code(shortCommit(w.base))}`],
    ["changed", html(diffStatText(w))],
  ];
  if (w.tampered?.length)
    rows.push(["tampered", el("span", { class: "why" }, html(`${w.tampered.join(", ")} (put back as in the base before the checks)`))]);
  const title = el("h3", {}, `${badge(n.view.status)} `, code(n.path), task ? ` ${el("span", { class: "kind" }, html(task))}` : "");
  return el("section", { class: "work", "data-node": n.path }, title, factsTable(rows), diffHtml(p, n.path, w));
}

const WHY_LEFT: Record<string, string> = {
  merge_conflict: "conflicts with what was merged before it, in",
  no_branch: "its node made no branch",
};

function mergedList(r: MergeResult, labels: Map<string, string>): string {
  if (r.merged.length === 0) return el("p", { class: "why" }, "Nothing was merged: no branch was made.");
  const item = (m: MergeResult["merged"][number]) =>
    el(
      "li",
      {},
      el("b", {}, html(m.from)),
      labels.has(m.from) ? ` ${html(labels.get(m.from))}` : "",
      " · ",
      code(m.branch),
      " at ",
      code(shortCommit(m.commit)),
    );
  return el("h4", {}, "Merged, in this order") + el("ol", { class: "merged" }, ...r.merged.map(item));
}

function leftOutList(r: MergeResult, labels: Map<string, string>): string {
  if (r.left_out.length === 0) return "";
  const item = (l: MergeResult["left_out"][number]) =>
    el(
      "li",
      { class: "left-out" },
      el("b", {}, html(l.from)),
      labels.has(l.from) ? ` ${html(labels.get(l.from))}` : "",
      " · ",
      code(l.branch),
      ` ${html(Object.hasOwn(WHY_LEFT, l.reason) ? WHY_LEFT[l.reason] : l.reason)}`,
      l.paths.length ? ` ${el("span", { class: "paths" }, l.paths.map(code).join(", "))}` : "",
    );
  return el("h4", {}, "Left out") + el("ul", { class: "left-out" }, ...r.left_out.map(item));
}

/** A merge node's result: onto which branch, what was merged in order, what was left out and why, its checks. */
function mergeHtml(p: Page, n: ReportNode, r: MergeResult): string {
  const { labels } = p;
  const w = n.view.workspace;
  const onto = r.branch
    ? `Onto ${code(r.branch)} at ${code(shortCommit(r.commit))}, from ${code(r.base)} (${code(shortCommit(r.base_commit))})${w ? ` · ${html(diffStatText(w))}` : ""}`
    : `From ${code(r.base)} (${code(shortCommit(r.base_commit))})`;
  const notPassed = r.not_passed.length
    ? el("h4", {}, "Not offered (did not pass)") +
      el("p", {}, r.not_passed.map((p) => `${el("b", {}, html(p))}${labels.has(p) ? ` ${html(labels.get(p))}` : ""}`).join(", "))
    : "";
  const checks = lastChecks(n.view);
  const checked = checks.length
    ? el("ul", { class: "checks" }, ...checks.map((c) => checkHtml(c)))
    : el("p", { class: "note" }, "No checks ran on the merged tree.");
  const title = el("h3", {}, `${badge(n.view.status)} merge `, code(n.path));
  return el(
    "section",
    { class: "merge", "data-node": n.path },
    title,
    el("p", {}, onto),
    mergedList(r, labels),
    leftOutList(r, labels),
    notPassed,
    el("h4", {}, "Checks on the merged tree"),
    checked,
    w ? diffHtml(p, n.path, w) : "",
  );
}

/** The page's Work section; empty when no node merged or worked in a worktree. */
export function workHtml(model: ReportModel): string {
  const p: Page = { model, labels: branchLabels(model.summary), budget: pageBudget() };
  const merges: string[] = [];
  const trees: string[] = [];
  for (const n of model.nodes) {
    const r = n.view.kind === "merge" ? mergeResultOf(n.view.output) : null;
    if (r) merges.push(mergeHtml(p, n, r));
    else if (n.view.workspace) trees.push(worktreeHtml(p, n));
  }
  if (merges.length === 0 && trees.length === 0) return "";
  const intro =
    "What the agents changed, as git has it: each worktree's branch and commit, its patch against the commit it started from, and what each merge made of them.";
  return `<h2 id="work">Work</h2>${el("p", { class: "note" }, intro)}${merges.join("\n")}${trees.join("\n")}`;
}
