// The details of one row (Enter): everything the events said about a node —
// status and why, cost/turns/tokens, every attempt with its checks and full
// output tails, overruns, evidence, the prompt and the result tail. Text is
// wrapped, not cut, so nothing is hidden; the view scrolls.
import { sealText } from "../read/seal.ts";
import { entries } from "./chunked-list.ts";
import { checkOutcomeText, statusTone, workspaceStat } from "./format.ts";
import { overrunText } from "../read/cap-text.ts";
import { duration } from "../text/duration.ts";
import { usd } from "../text/money.ts";
import { line, seg, type Line, type Tone } from "./lines.ts";
import { linesOf, oneLine } from "../text/lines.ts";
import { wrap } from "../text/width.ts";
import { currentAttempts } from "../read/node-cost.ts";
import { branchPath } from "../read/node-path.ts";
import { statusWords } from "./view-node-rows.ts";
import type { AttemptView, BranchView, CheckRecord, MapView, NodeView, ViewState } from "./view-state.ts";
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
  const where = n.branch ? `, in ${branchPath(n.branch.map, n.branch.index)}${branch ? ` ${oneLine(branch.label)}` : ""}` : "";
  const out: Line[] = [line([seg(n.node, undefined, true), seg(`  (${n.kind}${where})`, "muted")])];
  if (n.description) out.push(...field("about", n.description, width));
  out.push(...field("status", statusWords(n), width, statusTone(n.status)));
  if (n.stop_reason && n.stop_reason !== "complete") out.push(...field("stop reason", n.stop_reason, width));
  if (n.error) out.push(...field(n.status === "error" ? "why" : "error", n.error, width, statusTone(n.status)));
  if (n.fallback) out.push(...field("fallback", `${n.fallback} started because this node did not pass`, width));
  if (n.recovered) out.push(...field("recovered", "exhausted: recorded an output; dependents ran", width));
  if (n.harness) out.push(...field("harness", n.harness, width));
  if (n.worker !== undefined) out.push(...field("worker", n.worker, width));
  if (n.round) out.push(...field("round", String(n.round), width));
  const figures = [
    n.cost_usd !== null ? usd(n.cost_usd) : "cost unknown",
    n.turns !== null ? `${n.turns} turns` : "",
    n.wall_ms !== null ? duration(n.wall_ms) : "",
  ];
  out.push(...field("spent", figures.filter(Boolean).join(" · "), width));
  if (n.tokens) {
    const t = n.tokens;
    const tokens = [`in ${t.input}`, `out ${t.output}`, `cache read ${t.cache_read}`, `cache write ${t.cache_creation}`];
    out.push(...field("tokens", tokens.join(" · "), width));
  }
  for (const o of n.overruns)
    out.push(...field("overrun", `${overrunText(o)}${o.attempt !== null ? ` (attempt ${o.attempt})` : ""}`, width, "bad"));
  if (n.evidence?.length) {
    out.push(...field("evidence", n.evidence.map((e) => `${e.part} ${e.outcome}${e.detail ? ` (${e.detail})` : ""}`).join(" · "), width));
  }
  if (n.session_id) out.push(...field("session", n.session_id, width));
  const seal = sealText(n);
  if (seal !== null) out.push(...field("sandbox", seal, width, n.sealed ? undefined : "warn"));
  if (n.workspace)
    out.push(
      ...field("worktree", `${n.workspace.branch} · ${workspaceStat(n.workspace)}`, width, n.workspace.tampered ? "bad" : undefined),
    );
  const attempts = currentAttempts(n.attempts);
  if (attempts.length) out.push(line([seg("attempts", "muted", true)]));
  for (const a of attempts) out.push(...attemptLines(a, width));
  out.push(...block(n.kind === "approval" ? "message" : "prompt", n.prompt ?? "", width));
  out.push(...block("result (tail)", n.result_tail ?? "", width));
  if (n.activity) out.push(...field("doing", n.activity, width, "info"));
  return out;
}

/** One attempt in the details: its status and figures, why it was retried, each check with its tails. */
function attemptLines(a: AttemptView, width: number): Line[] {
  const retries = a.api_retries ? `${a.api_retries} API ${a.api_retries === 1 ? "retry" : "retries"}` : "";
  const bits = [a.cost_usd !== null ? usd(a.cost_usd) : "", a.turns !== null ? `${a.turns} turns` : "", retries]
    .filter(Boolean)
    .join(" · ");
  const out = [line([seg(`  #${a.attempt} `), seg(a.status, statusTone(a.status), true), seg(bits ? `  ${bits}` : "", "muted")])];
  if (a.retry) {
    const backoff = a.retry.backoff_ms ? ` (backoff ${duration(a.retry.backoff_ms)})` : "";
    out.push(...field("    retried", `${a.retry.cause}: ${a.retry.reason}${backoff}`, width, "warn"));
  }
  for (const c of a.checks) out.push(...checkLines(c, width));
  return out;
}

function checkLines(c: CheckRecord, width: number): Line[] {
  const outcome = checkOutcomeText(c);
  const reason = c.reason && oneLine(c.reason) !== outcome ? c.reason : "";
  const what = c.passed
    ? `passed · ${duration(c.duration_ms)}`
    : [outcome, `expect ${c.expect}`, reason, duration(c.duration_ms)].filter(Boolean).join(" · ");
  const mark = seg(c.passed ? "✓ " : "✗ ", c.passed ? "ok" : "bad", true);
  const out = [line([seg("    "), mark, seg(c.name, undefined, true), seg(`  ${oneLine(what)}`, "muted")])];
  if (c.passed) return out;
  out.push(...block("stdout (tail)", c.stdout_tail, width, "      "));
  out.push(...block("stderr (tail)", c.stderr_tail, width, "      "));
  if (c.truncated) out.push(line([seg("      (output was longer; the tail is shown)", "muted")]));
  return out;
}

function branchDetails(state: ViewState, map: string, b: BranchView, width: number): Line[] {
  const out: Line[] = [line([seg(branchPath(map, b.index), undefined, true), seg(`  ${oneLine(b.label)}`)])];
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
