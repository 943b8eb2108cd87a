// What the plain writer prints for each event (ADR 0007): one line per
// significant event — a node finished, a check failed (its output tail
// indented below), a cap overrun, a retry, a branch finished with its verdict,
// a pause, the run's end, a branch attempt cut off on a worker, and each API retry a harness reports (a rate-limited
// sitting can wait minutes: the log must say why it is quiet), and a retry that
// asked to continue its session but starts afresh. Other progress and starts
// are not printed.
import { flakyText } from "../read/check-history.ts";
import { sealTallyText } from "../read/seal.ts";
import { limitPausedLines, limitPhrase, waitingPhrase } from "./limit-text.ts";
import { nodeKey, type EventOf, type EventType, type VouchEvent, type WorkspaceRecord } from "../engine/events.ts";
import { checkOutcomeText, checkVerb, countsText, failureTail, statusIcon, statusTone, workspaceStat } from "./format.ts";
import { overrunText } from "../read/cap-text.ts";
import { duration } from "../text/duration.ts";
import { usd } from "../text/money.ts";
import { currentAttempts } from "../read/node-cost.ts";
import { branchPath, nodePath } from "../read/node-path.ts";
import { line, seg, type Line, type Segment } from "./lines.ts";
import { linesOf, oneLine } from "../text/lines.ts";
import { TAIL_LINES, conflictWhy, nodeAt, repoChangedText, roundText, statusWords } from "./view-node-rows.ts";
import { getAt } from "./chunked-list.ts";
import type { BranchView, NodeView, ViewState } from "./view-state.ts";
import { runSeals } from "./view-fold.ts";
import { own } from "./own.ts";
import { workerLabel } from "./view-worker.ts";
import { checkLabel, checkWentWrong } from "../read/check-record.ts";

function where(e: { node: string; branch?: { map: string; index: number } }): string {
  return nodePath(e.node, e.branch);
}

function branchAt(s: ViewState, ref: { map: string; index: number }): BranchView | undefined {
  const m = own(s.maps, ref.map);
  return m ? getAt(m.branches, ref.index) : undefined;
}

function nodeOf(s: ViewState, e: { node: string; branch?: { map: string; index: number } }): NodeView | undefined {
  if (!e.branch) return own(s.nodes, e.node);
  const b = branchAt(s, e.branch);
  return b ? own(b.nodes, e.node) : undefined;
}

/** A second line, indented under the first: the error of a node or branch. */
function because(status: string, text: string): Line {
  return line([seg("    "), seg(status === "error" ? "why: " : "error: ", statusTone(status)), seg(oneLine(text))]);
}

/** "⏸ paused: claude usage limit, resets 15:00 UTC" and how to go on. */
function limitPaused(event: Extract<VouchEvent, { type: "run.paused" }>): Line[] {
  if (event.reason !== "rate_limited" || event.harness === undefined) return [];
  return limitPausedLines(event.harness, event.resets_at, event.run, Date.parse(event.t), "    ");
}

type Lines<T extends EventType> = (after: ViewState, e: EventOf<T>, before: ViewState | undefined) => Line[];

/** What each event prints; an event without an entry prints nothing. */
const LINES: { [T in EventType]?: Lines<T> } = {
  "node.progress": (_after, e, before) => apiRetry(before, e),
  "run.started": (_after, e) => runStarted(e),
  "check.finished": (_after, e) => (e.flaky ? checkFlaky(e) : checkWentWrong(e) ? checkFailed(e) : []),
  "cap.overrun": (_after, e) => {
    const who = e.scope === "run" || e.node === undefined ? "run" : nodePath(e.node, e.branch);
    return [line([seg("⚠ ", "bad", true), seg(`${who} `), seg(`cap overrun ${overrunText(e)}`, "bad", true)])];
  },
  "node.retrying": (_after, e) => {
    const backoff = e.backoff_ms > 0 ? ` in ${duration(e.backoff_ms)}` : "";
    const what = seg(`attempt ${e.attempt} ${e.cause}, retrying${backoff}: `, "warn");
    return [line([seg("↻ ", "warn", true), seg(`${where(e)} `), what, seg(oneLine(e.error ?? e.reason), "muted")])];
  },
  "node.started": (after, e) => [...freshSession(e), ...newRound(after, e)],
  "node.finished": (after, e) => nodeFinished(after, e),
  "branch.finished": (after, e) => branchFinished(after, e),
  "branch.cut_off": (_after, e) => [
    line([
      seg("↻ ", "warn", true),
      seg(`${branchPath(e.branch.map, e.branch.index)} `),
      seg(`attempt ${e.attempt} cut off ${e.worker === "" ? "before it sent anything" : `on ${workerLabel(e.worker)}`}`, "warn"),
      seg(": another worker takes the branch", "muted"),
    ]),
  ],
  "repo.changed": (_after, e) => [
    line([
      seg("⚠ ", "bad", true),
      seg(`${nodeAt(e)} attempt ${e.attempt}: `, "bad", true),
      seg(repoChangedText(e.changed).replace("your repository", `the repository ${oneLine(e.repo)}`), "bad", true),
    ]),
  ],
  "branch.result_refused": (_after, e) => [
    line([
      seg("↻ ", "warn", true),
      seg(`${branchPath(e.branch.map, e.branch.index)} `),
      seg(`attempt ${e.attempt}'s result (${e.status}) on ${workerLabel(e.worker)} refused`, "warn"),
      seg(": it no longer held the job", "muted"),
    ]),
  ],
  "merge.conflict": (_after, e) => [
    line([seg("⚠ ", "warn", true), seg(`${e.node} left out ${oneLine(e.git_branch)}`, "warn", true), seg(conflictWhy(e), "muted")]),
  ],
  "node.limited": (_after, e) => {
    const held = `${nodeAt(e)} attempt ${e.attempt} held by the ${limitPhrase(e.harness, e.resets_at, Date.parse(e.t))}`;
    return [line([seg("⏸ ", "warn", true), seg(held, "warn")]), because("error", e.error)];
  },
  "run.waiting": (_after, e) => [
    line([seg("⏸ ", "warn", true), seg(waitingPhrase(e.harness, e.resets_at, e.until, Date.parse(e.t)), "warn", true)]),
  ],
  "run.paused": (_after, e) => [...limitPaused(e), ...e.approvals.flatMap((a) => approvalLines(e.run, a))],
  "run.cancel_requested": (_after, e) => [
    line([
      seg("✗ ", "bad", true),
      seg(`cancel requested by ${e.by.user}@${e.by.host} (pid ${e.by.pid}, ${e.via}): stopping the run`, "bad"),
    ]),
  ],
  "run.finished": (after, e) => runFinished(after, e),
};

/** The lines for `event`, given the view state after it was folded in (and before, for what changed). */
export function plainLines(after: ViewState, event: VouchEvent, before?: ViewState): Line[] {
  const lines = LINES[event.type] as Lines<EventType> | undefined;
  return lines ? lines(after, event, before) : [];
}

function runStarted(e: EventOf<"run.started">): Line[] {
  const caps = [
    e.caps.budget_usd !== null ? `budget ${usd(e.caps.budget_usd)}` : "",
    e.caps.wall_ms !== null ? `wall ${duration(e.caps.wall_ms)}` : "",
  ];
  const count = e.nodes.filter((n) => n.map === undefined).length;
  const text = [`${count} node${count === 1 ? "" : "s"}`, ...caps].filter(Boolean).join(" · ");
  const title = [seg("▶ ", "accent", true), seg(e.graph, undefined, true), seg(`  run ${e.run} ${e.resumed ? "resumed" : "started"}`)];
  // Checks their history calls flaky (ADR 0067): their outcomes in this run may be noise.
  const flaky = (e.flaky_checks ?? []).map((f) =>
    line([seg("  ⚠ ", "warn", true), seg(`check ${oneLine(f.name)} `), seg(flakyText(f), "warn")]),
  );
  return [line(title), line([seg(`  ${text}`, "muted")]), ...flaky];
}

function branchFinished(after: ViewState, e: EventOf<"branch.finished">): Line[] {
  const b = branchAt(after, e.branch);
  const tone = statusTone(e.status);
  const out: Segment[] = [
    seg(`${statusIcon(e.status)} `, tone, true),
    seg(`${branchPath(e.branch.map, e.branch.index)} `),
    seg(b?.label ? `${oneLine(b.label)}  ` : "", "muted"),
    seg(b?.verdictText ?? e.status.toUpperCase(), tone, true),
  ];
  if (b?.worker !== undefined) out.push(seg(`  on ${workerLabel(b.worker)}`, "muted"));
  // A node that did not pass has already printed its error; say it once.
  const told = Object.values(b?.nodes ?? {}).some((n) => n.error && (n.status === "failed" || n.status === "error"));
  return e.error && e.status !== "passed" && !told ? [line(out), because(e.status, e.error)] : [line(out)];
}

function approvalLines(run: string, a: EventOf<"run.paused">["approvals"][number]): Line[] {
  const rows = [
    line([seg("? ", "warn", true), seg(`paused at approval ${nodeAt(a)}`, "warn", true)]),
    line([seg(`    vouch resume ${run} --approve ${a.node}`), seg(`  (or --reject ${a.node})`, "muted")]),
  ];
  for (const l of linesOf(a.prompt ?? "").slice(0, 3)) rows.push(line([seg("    │ ", "muted"), seg(l)]));
  return rows;
}

function runFinished(after: ViewState, e: EventOf<"run.finished">): Line[] {
  const tone = statusTone(e.status);
  const reason = e.reason ? ` (${e.reason})` : "";
  // The run's cost as the live view and `vouch show` count it: every session this writer saw.
  const spent = after.end ?? { costUsd: e.cost_usd, costUnknown: e.cost_unknown };
  const cost = usd(spent.costUsd) + (spent.costUnknown ? ` + ${spent.costUnknown} of unknown cost` : "");
  return [
    line([
      seg("■ ", tone, true),
      seg("run "),
      seg(`${e.status}${reason} · exit ${e.exit_code}`, tone, true),
      seg(`  ${cost} · ${duration(e.wall_ms)}`, "muted"),
    ]),
    line([seg(`  ${countsText(e.counts)}`)]),
    ...sandboxLine(after),
  ];
}

/** The run's sealing in one line (ADR 0040), when any node recorded it. */
function sandboxLine(after: ViewState): Line[] {
  const text = sealTallyText(runSeals(after));
  return text === null ? [] : [line([seg(`  sandbox: ${text}`, "muted")])];
}

/** A feedback loop sends the work back: one line when the first node of a new round starts
 *  (the loop's head; the rest of its chain follows with the same round). */
function newRound(after: ViewState, e: EventOf<"node.started">): Line[] {
  if (e.round === undefined || e.round < 2) return [];
  const scope = e.branch ? branchAt(after, e.branch)?.nodes : after.nodes;
  const others = Object.values(scope ?? {}).filter((n) => n.node !== e.node && (n.round ?? 0) >= e.round!);
  if (others.length > 0) return [];
  return [
    line([
      seg("↺ ", "accent", true),
      seg(`${where(e)} `),
      seg(`round ${e.round}`, "accent", true),
      seg(": a feedback loop runs it again", "muted"),
    ]),
  ];
}

/** A retry asked to continue its session but starts afresh (ADR 0023): say why, once. */
function freshSession(e: EventOf<"node.started">): Line[] {
  if (e.session?.mode !== "fresh") return [];
  return [
    line([
      seg("⚠ ", "warn", true),
      seg(`${where(e)} `),
      seg(`attempt ${e.attempt}: no session to continue`, "warn"),
      seg(`: ${oneLine(e.session.note ?? "")}`, "muted"),
    ]),
  ];
}

/** "↻ ask API retry 2/10, 429", once per retry: only when the attempt's count went up. */
function apiRetry(before: ViewState | undefined, e: EventOf<"node.progress">): Line[] {
  if (e.api_retries === undefined) return [];
  const prior = before ? (currentAttempts(nodeOf(before, e)?.attempts ?? []).find((a) => a.attempt === e.attempt)?.api_retries ?? 0) : 0;
  if (e.api_retries <= prior) return [];
  const what = e.activity?.startsWith("API retry") ? e.activity : `API retry ${e.api_retries}`;
  return [line([seg("↻ ", "warn", true), seg(`${where(e)} `), seg(oneLine(what), "warn")])];
}

/** A rerun passed after the check failed on the same tree (ADR 0066). */
function checkFlaky(e: EventOf<"check.finished">): Line[] {
  return [line([seg("⚠ ", "warn", true), seg(`${where(e)} `), seg(`check ${checkLabel(e)} passed after failing: flaky`, "warn", true)])];
}

/** A check that went wrong; a witness's base run (ADR 0044) goes wrong when it passes. */
function checkFailed(e: EventOf<"check.finished">): Line[] {
  const outcome = e.tree === "base" ? "it does not tell the work apart" : checkOutcomeText(e);
  const reason = e.reason && oneLine(e.reason) !== outcome ? ` · ${oneLine(e.reason)}` : "";
  const rows = [
    line([
      seg("✗ ", "bad", true),
      seg(`${where(e)} `),
      seg(`check ${checkLabel(e)} ${e.tree === "base" ? "passed" : checkVerb(e)}`, "bad", true),
      seg(`: ${outcome} · expect ${e.expect}${reason}`, "muted"),
    ]),
  ];
  for (const l of failureTail(e, TAIL_LINES)) rows.push(line([seg("    │ ", "muted"), seg(l)]));
  return rows;
}

function nodeFinished(after: ViewState, e: EventOf<"node.finished">): Line[] {
  // Inside a map the branch line carries the news; only a node that did not pass adds its own line
  // (and a node in a worktree its branch and diff stat).
  if (e.branch && e.status !== "failed" && e.status !== "error") return e.workspace ? [worktreeLine(e, e.workspace)] : [];
  const n = nodeOf(after, e);
  const tone = statusTone(e.status);
  const words = n ? statusWords(n) : e.status;
  // A script or check costs nothing: "$0" is shown only for what could have cost something (an agent).
  const costly = e.cost_usd !== null && (e.cost_usd > 0 || n?.kind === "agent");
  const figures = [
    costly ? usd(e.cost_usd!) : "",
    e.turns !== null ? `${e.turns} turn${e.turns === 1 ? "" : "s"}` : "",
    e.wall_ms > 0 ? duration(e.wall_ms) : "",
  ].filter(Boolean);
  const out: Segment[] = [seg(`${statusIcon(e.status)} `, tone, true), seg(`${where(e)} `, undefined, true), seg(words, tone)];
  if (figures.length) out.push(seg(`  ${figures.join(" · ")}`, "muted"));
  const round = n ? roundText(n) : "";
  if (round) out.push(seg(`  ↺ ${round}`, "accent"));
  if (e.attempt > 1) out.push(seg(`  ↻ ${e.attempt} attempts`, "warn"));
  if (e.fallback) out.push(seg(`  → fallback ${e.fallback}`, "accent"));
  if (e.recovered) out.push(seg("  recovered", "accent"));
  if (e.remote) out.push(seg(`  on ${workerLabel(e.remote.worker)}`, "muted"));
  const first: Line = { ...line(out), key: nodeKey(e.node, e.branch) };
  const lines = e.error && (e.status === "failed" || e.status === "error") ? [first, because(e.status, e.error)] : [first];
  if (e.workspace) lines.push(worktreeLine(e, e.workspace));
  return lines;
}

/** "    ⎇ each #0 work  vouch/<run>/each/0/work · 2 files, +3 -1". */
function worktreeLine(e: EventOf<"node.finished">, w: WorkspaceRecord): Line {
  return line([
    seg("    ⎇ ", "muted"),
    seg(e.branch ? `${where(e)}  ` : ""),
    seg(oneLine(w.branch)),
    seg(` · ${workspaceStat(w)}`, w.tampered ? "bad" : "muted"),
  ]);
}
