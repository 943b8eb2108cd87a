// The details of one row (Enter): everything the events said about a node —
// status and why, cost/turns/tokens, every attempt with its checks and full
// output tails, overruns, evidence, the prompt and the result tail. Text is
// wrapped, not cut, so nothing is hidden; the view scrolls.
import { entries } from "./chunked-list.ts";
import { checkOutcomeText, formatMs, formatUsd, overrunText, statusTone, workspaceStat } from "./format.ts";
import { line, seg, type Line, type Tone } from "./lines.ts";
import { linesOf, oneLine, wrap } from "./text.ts";
import { statusWords } from "./view-node-rows.ts";
import { type BranchView, type MapView, type NodeView, type ViewState } from "./view-state.ts";
import { own } from "./own.ts";

const LABEL = 12;

export function selectDetails(state: ViewState, key: string, o: { now: number; width: number }): Line[] {
  const width = Math.max(20, o.width);
  const fold = /^(.+)#fold$/.exec(key);
  if (fold) return mapDetails(own(state.maps, fold[1]!), width);
  const branchNode = /^(.+)#(\d+)\/(.+)$/.exec(key);
  if (branchNode) {
    const b = branchOf(state, branchNode[1]!, Number(branchNode[2]));
    const n = b ? own(b.nodes, branchNode[3]!) : undefined;
    return n ? nodeDetails(n, width, b) : missing(key);
  }
  const branch = /^(.+)#(\d+)$/.exec(key);
  if (branch) {
    const b = branchOf(state, branch[1]!, Number(branch[2]));
    return b ? branchDetails(state, branch[1]!, b, width) : missing(key);
  }
  const n = own(state.nodes, key);
  if (!n) return missing(key);
  return [...nodeDetails(n, width), ...(own(state.maps, key) ? ["", ...mapDetails(own(state.maps, key), width)].map(asLine) : [])];
}

function asLine(l: Line | string): Line {
  return typeof l === "string" ? line([seg(l)]) : l;
}

function missing(key: string): Line[] {
  return [line([seg(`nothing recorded for ${key} yet`, "muted")])];
}

function branchOf(state: ViewState, map: string, index: number): BranchView | undefined {
  const m = own(state.maps, map);
  if (!m) return undefined;
  for (const b of entries(m.branches)) if (b.index === index) return b;
  return undefined;
}

function field(name: string, value: string, width: number, tone?: Tone): Line[] {
  const pieces = wrap(oneLine(value), Math.max(10, width - LABEL));
  return pieces.map((p, i) => line([seg(i === 0 ? name.padEnd(LABEL) : " ".repeat(LABEL), "muted"), seg(p, tone)]));
}

function block(title: string, text: string, width: number, indent = ""): Line[] {
  const all = linesOf(text);
  if (all.length === 0) return [];
  const out = [line([seg(`${indent}${title}`, "muted", true)])];
  for (const l of all)
    for (const p of wrap(l, Math.max(10, width - indent.length - 4))) out.push(line([seg(`${indent}  │ `, "muted"), seg(p)]));
  return out;
}

function nodeDetails(n: NodeView, width: number, branch?: BranchView): Line[] {
  const where = n.branch ? `, in ${n.branch.map} #${n.branch.index}${branch ? ` ${oneLine(branch.label)}` : ""}` : "";
  const out: Line[] = [line([seg(n.id, undefined, true), seg(`  (${n.kind}${where})`, "muted")])];
  if (n.description) out.push(...field("about", n.description, width));
  out.push(...field("status", statusWords(n), width, statusTone(n.status)));
  if (n.stopReason && n.stopReason !== "complete") out.push(...field("stop reason", n.stopReason, width));
  if (n.error) out.push(...field(n.status === "error" ? "why" : "error", n.error, width, statusTone(n.status)));
  if (n.fallback) out.push(...field("fallback", `${n.fallback} started because this node did not pass`, width));
  if (n.recovered) out.push(...field("recovered", "exhausted: recorded an output; dependents ran", width));
  if (n.harness) out.push(...field("harness", n.harness, width));
  if (n.worker !== undefined) out.push(...field("worker", n.worker, width));
  if (n.round) out.push(...field("round", String(n.round), width));
  const figures = [
    n.costUsd !== null ? formatUsd(n.costUsd) : "cost unknown",
    n.turns !== null ? `${n.turns} turns` : "",
    n.wallMs !== null ? formatMs(n.wallMs) : "",
  ];
  out.push(...field("spent", figures.filter(Boolean).join(" · "), width));
  if (n.tokens) {
    const t = n.tokens;
    out.push(...field("tokens", `in ${t.input} · out ${t.output} · cache read ${t.cache_read} · cache write ${t.cache_creation}`, width));
  }
  for (const o of n.overruns)
    out.push(...field("overrun", `${overrunText(o)}${o.attempt !== null ? ` (attempt ${o.attempt})` : ""}`, width, "bad"));
  if (n.evidence?.length) {
    out.push(...field("evidence", n.evidence.map((e) => `${e.part} ${e.outcome}${e.detail ? ` (${e.detail})` : ""}`).join(" · "), width));
  }
  if (n.sessionId) out.push(...field("session", n.sessionId, width));
  if (n.workspace)
    out.push(
      ...field("worktree", `${n.workspace.branch} · ${workspaceStat(n.workspace)}`, width, n.workspace.tampered ? "bad" : undefined),
    );
  if (n.attempts.length) out.push(line([seg("attempts", "muted", true)]));
  for (const a of n.attempts) {
    const retries = a.apiRetries ? `${a.apiRetries} API ${a.apiRetries === 1 ? "retry" : "retries"}` : "";
    const bits = [a.costUsd !== null ? formatUsd(a.costUsd) : "", a.turns !== null ? `${a.turns} turns` : "", retries]
      .filter(Boolean)
      .join(" · ");
    out.push(line([seg(`  #${a.attempt} `), seg(a.status, statusTone(a.status), true), seg(bits ? `  ${bits}` : "", "muted")]));
    if (a.retry)
      out.push(
        ...field(
          "    retried",
          `${a.retry.cause}: ${a.retry.reason}${a.retry.backoffMs ? ` (backoff ${formatMs(a.retry.backoffMs)})` : ""}`,
          width,
          "warn",
        ),
      );
    for (const c of a.checks) {
      const outcome = checkOutcomeText(c);
      const reason = c.reason && oneLine(c.reason) !== outcome ? c.reason : "";
      const what = c.passed
        ? `passed · ${formatMs(c.durationMs)}`
        : [outcome, `expect ${c.expect}`, reason, formatMs(c.durationMs)].filter(Boolean).join(" · ");
      out.push(
        line([
          seg("    "),
          seg(c.passed ? "✓ " : "✗ ", c.passed ? "ok" : "bad", true),
          seg(c.name, undefined, true),
          seg(`  ${oneLine(what)}`, "muted"),
        ]),
      );
      if (!c.passed) {
        out.push(...block("stdout (tail)", c.stdoutTail, width, "      "));
        out.push(...block("stderr (tail)", c.stderrTail, width, "      "));
        if (c.truncated) out.push(line([seg("      (output was longer; the tail is shown)", "muted")]));
      }
    }
  }
  out.push(...block(n.kind === "approval" ? "message" : "prompt", n.prompt ?? "", width));
  out.push(...block("result (tail)", n.resultTail ?? "", width));
  if (n.activity) out.push(...field("doing", n.activity, width, "info"));
  return out;
}

function branchDetails(state: ViewState, map: string, b: BranchView, width: number): Line[] {
  const out: Line[] = [line([seg(`${map} #${b.index}`, undefined, true), seg(`  ${oneLine(b.label)}`)])];
  out.push(...field("status", b.status, width, statusTone(b.status)));
  if (b.verdictText !== null) out.push(...field("verdict", b.verdictText, width, statusTone(b.status)));
  if (b.error) out.push(...field("error", b.error, width, statusTone(b.status)));
  if (b.worker !== undefined) out.push(...field("worker", b.worker, width));
  for (const c of b.cutOff ?? []) {
    const where = c.worker === "" ? "before it sent anything" : `on ${c.worker}`;
    out.push(...field("cut off", `attempt ${c.attempt} ${where}: handed to another worker`, width, "warn"));
  }
  const order = own(state.branchOrder, map) ?? [];
  const ids = [...order.filter((id) => own(b.nodes, id)), ...Object.keys(b.nodes).filter((id) => !order.includes(id))];
  for (const id of ids) out.push(line([seg("")]), ...nodeDetails(own(b.nodes, id)!, width, b));
  for (const id of order.filter((i) => !own(b.nodes, i))) out.push(line([seg(`${id}: not started`, "muted")]));
  return out;
}

function mapDetails(m: MapView | undefined, width: number): Line[] {
  if (!m) return missing("map");
  const c = m.statusCounts;
  const out: Line[] = [line([seg(`${m.id} branches`, undefined, true)])];
  out.push(...field("finished", `${m.finished} of ${m.items ?? m.started}${m.running ? ` · ${m.running} running` : ""}`, width));
  out.push(
    ...field(
      "status",
      `passed ${c.passed} · failed ${c.failed} · error ${c.error} · skipped ${c.skipped} · cancelled ${c.cancelled}`,
      width,
    ),
  );
  for (const [v, n] of m.verdictCounts) out.push(...field("verdict", `${v}: ${n}`, width));
  out.push(line([seg("→ on the map row lists every branch, ← folds them", "muted")]));
  return out;
}
