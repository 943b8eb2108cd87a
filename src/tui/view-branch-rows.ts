// A map's rows: one per branch with its live verdict. Large maps stay usable:
// past AUTO_OPEN_LIMIT branches, finished branches that passed (or were
// skipped) fold into one line; running and unpassed branches stay listed.
import { entries } from "./chunked-list.ts";
import { statusIcon, statusTone } from "./format.ts";
import { usd } from "../text/money.ts";
import { line, seg, type Line, type Segment } from "./lines.ts";
import { displayWidth, padEnd } from "../text/width.ts";
import { oneLine } from "../text/lines.ts";
import { currentAttempts } from "../read/node-cost.ts";
import { detailRows, type RowContext } from "./view-node-rows.ts";
import { branchKey } from "../engine/events.ts";
import type { BranchView, MapView, NodeView } from "./view-state.ts";
import { own } from "./own.ts";
import { workerText } from "./view-worker.ts";

/** A map with at most this many branches lists them all unless folded by hand. */
export const AUTO_OPEN_LIMIT = 12;
const LABEL_MAX = 36;

export type Fold = "open" | "closed";

export function foldKey(map: string): string {
  return `${map}#fold`;
}

/** On the map row: "412/500" (finished of items). */
export function mapProgress(m: MapView): Segment[] {
  if (m.items === null && m.started === 0) return []; // not started: nothing to count yet
  return [seg(`  ${m.finished}/${m.items ?? m.started}`, "info", true)];
}

/** The row under a map: "380 VERIFIED · 20 FALSE · 12 UNVERIFIABLE · 4 running". */
export function mapSummaryRow(m: MapView): Line | null {
  const parts: Segment[] = m.verdictCounts.map(([v, c], i) => seg(`${i ? " · " : ""}${c} ${v}`));
  if (m.running > 0) parts.push(seg(`${parts.length ? " · " : ""}${m.running} running`, "info"));
  return parts.length ? line([seg("      "), ...parts]) : null;
}

function folded(b: BranchView): boolean {
  return b.status === "passed" || b.status === "skipped";
}

/** The branches listed under a map for a fold setting, and how many are folded away (those the
 *  view let go of among them, ADR 0078: they are never listed). */
export function visibleBranches(m: MapView, fold: Fold | undefined): { shown: BranchView[]; hidden: number } {
  if (fold === "closed") return { shown: [], hidden: m.started };
  const all = fold === "open" || m.started <= AUTO_OPEN_LIMIT;
  const shown: BranchView[] = [];
  let hidden = all ? 0 : (m.released ?? 0);
  for (const b of entries(m.branches)) {
    if (all || !folded(b)) shown.push(b);
    else hidden++;
  }
  return { shown, hidden };
}

function liveText(b: BranchView, ctx: RowContext): Segment[] {
  const n: NodeView | undefined = b.current ? own(b.nodes, b.current) : undefined;
  if (!n) return [seg("starting", "info")];
  const a = n.attempts[n.attempts.length - 1];
  const bits = [n.node];
  if (n.status === "waiting") bits.push(n.stop_reason === "rate_limited" ? "held by a usage limit" : "awaiting approval");
  if (a?.turns != null) bits.push(`${a.turns} turns`);
  if (a?.cost_usd != null) bits.push(usd(a.cost_usd));
  if (n.startedAt !== null && n.status === "running") bits.push(`${Math.floor(Math.max(0, ctx.now - n.startedAt) / 1000)}s`);
  const out = [seg(bits.join(" · "), "info")];
  if (n.activity) out.push(seg(`  ${oneLine(n.activity)}`, "muted"));
  return out;
}

export function branchRows(
  m: MapView,
  nodeOrder: readonly string[],
  ctx: RowContext,
  selected: string | null,
  fold: Fold | undefined,
): Line[] {
  const { shown, hidden } = visibleBranches(m, fold);
  const labelWidth = Math.min(LABEL_MAX, Math.max(8, ...shown.map((b) => displayWidth(oneLine(b.label)))));
  const indexWidth = String(Math.max(0, m.branches.length - 1)).length + 1;
  const rows: Line[] = [];
  for (const b of shown) {
    const key = branchKey(m.id, b.index);
    const isSel = key === selected;
    const tone = statusTone(b.status);
    const segments: Segment[] = [
      seg(isSel ? "› " : "  ", "accent", true),
      seg("  "),
      seg(`${statusIcon(b.status, ctx.tick)} `, tone, true),
      seg(`#${b.index}`.padEnd(indexWidth) + " ", "muted"),
      seg(`${padEnd(oneLine(b.label), labelWidth)}  `),
    ];
    if (b.status === "running") segments.push(...liveText(b, ctx));
    else segments.push(seg(b.verdictText ?? b.status.toUpperCase(), tone, true));
    const where = workerText(b);
    if (where) segments.push(seg(`  ${where}`, "muted"));
    rows.push({ ...line(segments, key), selected: isSel });
    rows.push(...branchDetailRows(b, nodeOrder));
  }
  if (fold !== "closed" && hidden === 0 && (m.released ?? 0) > 0)
    rows.push(line([seg("  "), seg(`    + ${m.released} earlier passed branches not kept here · vouch show lists them`, "muted")]));
  if (hidden > 0) {
    const key = foldKey(m.id);
    const what = fold === "closed" ? `${hidden} branches folded` : `${hidden} passed branches folded`;
    rows.push({
      ...line([seg(key === selected ? "› " : "  ", "accent", true), seg(`    + ${what} · → lists them`, "muted")], key),
      selected: key === selected,
    });
  }
  return rows;
}

/** Under a branch row: its nodes' overruns, and for an unpassed branch the error and failed checks. */
function branchDetailRows(b: BranchView, nodeOrder: readonly string[]): Line[] {
  const rows: Line[] = [];
  const ids = [...nodeOrder.filter((id) => own(b.nodes, id)), ...Object.keys(b.nodes).filter((id) => !nodeOrder.includes(id))];
  let explained = false;
  for (const id of ids) {
    const n = own(b.nodes, id)!;
    const unpassed = n.status === "failed" || n.status === "error";
    if (!unpassed && n.overruns.length === 0 && !currentAttempts(n.attempts).some((a) => a.retry)) continue;
    const sub = detailRows(n, "    ", { passedChecks: false });
    if (sub.length === 0) continue;
    if (ids.length > 1 || unpassed)
      rows.push(line([seg("        "), seg(`${n.node}: ${n.status}${n.cause ? ` ${n.cause}` : ""}`, statusTone(n.status))]));
    rows.push(...sub);
    explained ||= unpassed;
  }
  if (!explained && b.error && b.status !== "passed")
    rows.push(line([seg("        "), seg("error: ", statusTone(b.status)), seg(oneLine(b.error))]));
  return rows;
}
