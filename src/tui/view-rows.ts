// The whole screen as lines, for a width, a height and the UI's selection:
// header, the nodes in graph order (maps with their branches), the approval
// being asked, a notice, the keys. Pure: the Ink components only paint it.
import { sealTallyText } from "../read/seal.ts";
import { runSeals } from "./view-fold.ts";
import { limitPausedLines, waitingPhrase } from "./limit-text.ts";
import { nodeKey, type BranchRef } from "../engine/events.ts";
import { getAt } from "./chunked-list.ts";
import { countsText, statusTone } from "./format.ts";
import { overrunText } from "../read/cap-text.ts";
import { duration } from "../text/duration.ts";
import { usd } from "../text/money.ts";
import { fitLine, line, seg, type Line, type Segment, type Tone } from "./lines.ts";
import { linesOf } from "../text/lines.ts";
import { displayWidth } from "../text/width.ts";
import { branchRows, mapProgress, mapSummaryRow, type Fold } from "./view-branch-rows.ts";
import { selectDetails } from "./view-details.ts";
import { detailRows, nodeAt, nodeRow, type RowContext } from "./view-node-rows.ts";
import type { BranchView, NodeView, ViewState } from "./view-state.ts";
import { own } from "./own.ts";

const ownNode = (b: BranchView | undefined, id: string): NodeView | undefined => (b ? own(b.nodes, id) : undefined);

export interface PendingApprovalView {
  id: number;
  node: string;
  branch?: BranchRef;
  prompt?: string;
}

export interface FrameOptions {
  width: number;
  height: number;
  now: number;
  selected?: string | null;
  scrollTop?: number;
  fold?: Readonly<Record<string, Fold>>;
  approvals?: readonly PendingApprovalView[];
  notice?: { text: string; tone?: Tone } | null;
  details?: { key: string; scroll: number } | null;
  replay?: boolean;
}

export interface Frame {
  lines: Line[];
  /** Keys of the selectable body rows, top to bottom (for ↑/↓). */
  selectable: string[];
  selected: string | null;
  scrollTop: number;
  detailsScroll: number;
  bodyHeight: number;
}

const ID_MAX = 24;
const PROMPT_LINES = 3;

export function selectBodyRows(
  state: ViewState,
  o: { now: number; selected: string | null; fold?: Readonly<Record<string, Fold>> },
): Line[] {
  const ctx: RowContext = {
    now: o.now,
    tick: Math.floor(o.now / 120),
    idWidth: Math.min(ID_MAX, Math.max(4, ...state.order.map(displayWidth))),
    live: state.end === null,
  };
  const rows: Line[] = [];
  for (const id of state.order) {
    const n = own(state.nodes, id);
    if (!n) continue;
    const m = own(state.maps, id);
    rows.push(nodeRow(nested(n), ctx, n.key === o.selected, m ? mapProgress(m) : []));
    const summary = m ? mapSummaryRow(m) : null;
    if (summary) rows.push(summary);
    rows.push(...detailRows(n, ""));
    if (m) rows.push(...branchRows(m, own(state.branchOrder, id) ?? [], ctx, o.selected, o.fold ? own(o.fold, id) : undefined));
  }
  return rows;
}

/** A sub-graph's node ("review/lint") is drawn under its graph node, indented, by its own name (ADR 0024). */
function nested(n: NodeView): NodeView {
  const parts = n.node.split("/");
  return parts.length === 1 ? n : { ...n, node: `${"  ".repeat(parts.length - 2)}└ ${parts[parts.length - 1]}` };
}

function cancelNotice(by: string): { text: string; tone: Tone } {
  return { text: `cancel requested by ${by}: stopping the run…`, tone: "bad" };
}

/** The approval shown: the selected node's when it is asking, else the oldest. */
export function currentApproval(approvals: readonly PendingApprovalView[], selected: string | null): PendingApprovalView | undefined {
  return approvals.find((a) => nodeKey(a.node, a.branch) === selected) ?? approvals[0];
}

export function selectFrame(state: ViewState, input: FrameOptions): Frame {
  // A replay is frozen at its last event: nothing on screen runs on the wall clock.
  const o = input.replay ? { ...input, now: state.lastEventAt ?? input.now } : input;
  const width = Math.max(20, o.width);
  const header = headerLines(state, o);
  const asked = o.replay ? undefined : currentApproval(o.approvals ?? [], o.selected ?? null);
  // The request may come without its message: node.started carried it.
  const approval = asked && asked.prompt === undefined ? withPrompt(asked, state) : asked;
  const panel = approval ? approvalLines(approval, (o.approvals ?? []).length) : [];
  // Another process's cancel (ADR 0062) is said until the run has ended, unless a question is on screen.
  const told = o.notice ?? (state.cancelledBy !== null && state.end === null ? cancelNotice(state.cancelledBy) : null);
  const notice = told ? [line([seg(told.text, told.tone ?? "warn", true)])] : [];
  const footer = [rule(width), line(keysLine(o, Boolean(approval)))];
  const bodyHeight = Math.max(1, o.height - header.length - panel.length - notice.length - footer.length);

  let body: Line[];
  let selectable: string[] = [];
  let selected = o.selected ?? null;
  let scrollTop = 0;
  let detailsScroll = 0;
  if (o.details) {
    const all = selectDetails(state, o.details.key, { now: o.now, width });
    detailsScroll = Math.max(0, Math.min(o.details.scroll, all.length - bodyHeight));
    body = window(all, detailsScroll, bodyHeight);
  } else {
    const rows = selectBodyRows(state, { now: o.now, selected, fold: o.fold });
    selectable = rows.flatMap((r) => (r.key !== undefined ? [r.key] : []));
    if (selected === null || !selectable.includes(selected)) selected = selectable[0] ?? null;
    if (selected !== o.selected) markSelected(rows, selected); // the default selection gets the marker too
    ({ body, scrollTop } = scrollTo(rows, selected, o.scrollTop ?? 0, bodyHeight));
  }
  const lines = [...header, ...body, ...panel, ...notice, ...footer].map((l) => fitLine(l, width));
  return { lines, selectable, selected, scrollTop, detailsScroll, bodyHeight };
}

function withPrompt(a: PendingApprovalView, state: ViewState): PendingApprovalView {
  const m = a.branch ? own(state.maps, a.branch.map) : undefined;
  const n = a.branch ? (m ? ownNode(getAt(m.branches, a.branch.index), a.node) : undefined) : own(state.nodes, a.node);
  return n?.prompt === undefined ? a : { ...a, prompt: n.prompt };
}

function markSelected(rows: Line[], selected: string | null): void {
  for (const r of rows) {
    if (r.key === undefined) continue;
    const first = r.segments[0];
    if (first && (first.text === "› " || first.text === "  ")) r.segments[0] = { ...first, text: r.key === selected ? "› " : "  " };
    r.selected = r.key === selected;
  }
}

function window(all: Line[], top: number, height: number): Line[] {
  if (all.length <= height) return all;
  const inner = Math.max(1, height - 1);
  const shown = all.slice(top, top + inner);
  return [...shown, line([seg(`  lines ${top + 1}–${top + shown.length} of ${all.length} · ↑↓ scroll`, "muted")])];
}

/** Keep the selected row in view, moving the window as little as possible. */
function scrollTo(rows: Line[], selected: string | null, scrollTop: number, height: number): { body: Line[]; scrollTop: number } {
  if (rows.length <= height) return { body: rows, scrollTop: 0 };
  const inner = Math.max(1, height - 1);
  const at = Math.max(
    0,
    rows.findIndex((r) => r.key !== undefined && r.key === selected),
  );
  let top = Math.min(Math.max(scrollTop, at - inner + 1), at);
  top = Math.max(0, Math.min(top, rows.length - inner));
  const shown = rows.slice(top, top + inner);
  const above = top;
  const below = rows.length - top - shown.length;
  const more = [above ? `↑ ${above} more` : "", below ? `↓ ${below} more` : ""].filter(Boolean).join(" · ");
  return { body: [...shown, line([seg(`  ${more}`, "muted")])], scrollTop: top };
}

function rule(width: number): Line {
  return line([seg("─".repeat(width), "muted")]);
}

function runStatusText(state: ViewState, replay: boolean): { text: string; tone: Tone | undefined } {
  if (state.end) {
    const reason = state.end.reason ? ` (${state.end.reason})` : "";
    return { text: `${state.end.status.toUpperCase()}${reason} · exit ${state.end.exitCode}`, tone: statusTone(state.end.status) };
  }
  if (state.status === "waiting") return { text: replay ? "no run recorded" : "starting", tone: "muted" };
  if (state.status === "paused") return { text: "PAUSED", tone: "warn" };
  return { text: replay ? "unfinished" : "running", tone: "info" };
}

function headerLines(state: ViewState, o: FrameOptions): Line[] {
  const run = state.run;
  const started = run?.startedAt ?? null;
  const elapsed = state.end ? state.end.wallMs : started === null ? null : Math.max(0, o.now - started);
  const status = runStatusText(state, Boolean(o.replay));
  const cost = usd(state.costUsd) + (state.end?.costUnknown ? ` +${state.end.costUnknown} unknown` : "");
  const budget = run?.budgetUsd != null ? ` / ${usd(run.budgetUsd)}` : "";
  const first: Segment[] = [
    seg("vouch ", "accent", true),
    seg(run?.graph ?? "…", undefined, true),
    seg(`  ${status.text}`, status.tone, true),
    seg(elapsed === null ? "" : `  ${duration(elapsed)}`),
    seg(`  ${cost}${budget}`, run?.budgetUsd != null && state.costUsd > run.budgetUsd ? "bad" : undefined),
  ];
  const counts = state.end ? countsText(state.end.counts) : liveCounts(state);
  // At the end only: a walk over every branch of a live map on every frame would cost what it shows.
  const sandbox = state.end ? sealTallyText(runSeals(state)) : null;
  const lines = [
    line(first),
    line([seg(run ? `run ${run.id}  ` : ""), seg(counts, "muted"), seg(sandbox === null ? "" : `  · ${sandbox}`, "muted")]),
  ];
  for (const ov of state.runOverruns) lines.push(line([seg(`⚠ run cap overrun ${overrunText(ov)}`, "bad", true)]));
  lines.push(...limitLines(state, o.now));
  if (state.status === "paused" && state.paused && run) {
    for (const a of state.paused) {
      const id = nodeAt(a);
      lines.push(line([seg(`? paused at approval ${id}`, "warn", true)]));
      lines.push(line([seg(`  vouch resume ${run.id} --approve ${a.node}`), seg(`  (or --reject ${a.node})`, "muted")]));
    }
  }
  lines.push(rule(Math.max(20, o.width)));
  return lines;
}

/** The live countdown while the run waits for a limit; what it paused at, and how to go on. */
function limitLines(state: ViewState, now: number): Line[] {
  const l = state.limit;
  if (!l) return [];
  if (l.until !== undefined && !state.end) return [line([seg(`⏸ ${waitingPhrase(l.harness, l.resetsAt, l.until, now)}`, "warn", true)])];
  if (state.status !== "paused" || !state.run) return [];
  return limitPausedLines(l.harness, l.resetsAt, state.run.id, now, "  ");
}

function liveCounts(state: ViewState): string {
  const c = new Map<string, number>();
  for (const id of state.order) {
    const n = own(state.nodes, id);
    // A node held by a usage limit waits too, but not for a person.
    const key = n?.status === "waiting" && n.stop_reason === "rate_limited" ? "limited" : n?.status;
    if (key) c.set(key, (c.get(key) ?? 0) + 1);
  }
  const order = ["running", "retrying", "waiting", "limited", "passed", "failed", "error", "skipped", "cancelled", "pending"];
  const words: Record<string, string> = { waiting: "awaiting approval", limited: "held by a usage limit" };
  const parts = order.filter((s) => c.get(s)).map((s) => `${c.get(s)} ${words[s] ?? s}`);
  return parts.length ? parts.join(" · ") : "waiting for the run to start";
}

function approvalLines(a: PendingApprovalView, count: number): Line[] {
  const of = count > 1 ? ` · 1 of ${count} waiting` : "";
  const prompt = linesOf(a.prompt ?? "");
  const shown = prompt.slice(0, PROMPT_LINES);
  const rows = [line([seg("? approval ", "warn", true), seg(nodeAt(a), undefined, true), seg(of, "muted")])];
  for (const l of shown) rows.push(line([seg("  │ ", "warn"), seg(l)]));
  if (prompt.length > shown.length) rows.push(line([seg(`  │ … ${prompt.length - shown.length} more lines (⏎ details)`, "muted")]));
  rows.push(line([seg("  a", "ok", true), seg(" approve   "), seg("r", "bad", true), seg(" reject")]));
  return rows;
}

function keysLine(o: FrameOptions, approval: boolean): Segment[] {
  const keys: [string, string][] = o.details
    ? [
        ["↑↓", "scroll"],
        ["esc", "back"],
      ]
    : [
        ["↑↓", "select"],
        ["⏎", "details"],
        ["←→", "fold"],
      ];
  if (approval) keys.push(["a", "approve"], ["r", "reject"]);
  if (!o.details) keys.push(["q", "quit"]);
  const out: Segment[] = [];
  keys.forEach(([k, what], i) => out.push(seg(i ? " · " : "", "muted"), seg(k, "accent", true), seg(` ${what}`, "muted")));
  return out;
}
