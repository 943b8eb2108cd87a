// What the plain writer prints for each event (ADR 0007): one line per
// significant event — a node finished, a check failed (its output tail
// indented below), a cap overrun, a retry, a branch finished with its verdict,
// a pause, the run's end, a branch attempt cut off on a worker, and each API retry a harness reports (a rate-limited
// sitting can wait minutes: the log must say why it is quiet), and a retry that
// asked to continue its session but starts afresh. Other progress and starts
// are not printed.
import { limitPausedLines, limitPhrase, waitingPhrase } from "./limit-text.ts";
import { nodeKey, type EventOf, type VouchEvent, type WorkspaceRecord } from "../engine/events.ts";
import {
  checkOutcomeText,
  countsText,
  failureTail,
  formatMs,
  formatUsd,
  overrunText,
  statusIcon,
  statusTone,
  workspaceStat,
} from "./format.ts";
import { line, seg, type Line, type Segment } from "./lines.ts";
import { linesOf, oneLine } from "./text.ts";
import { TAIL_LINES, conflictWhy, nodeAt, repoChangedText, roundText, statusWords } from "./view-node-rows.ts";
import { getAt } from "./chunked-list.ts";
import type { BranchView, NodeView, ViewState } from "./view-state.ts";
import { own } from "./own.ts";
import { workerLabel } from "./view-worker.ts";

function where(e: { node: string; branch?: { map: string; index: number } }): string {
  return e.branch ? `${e.branch.map} #${e.branch.index} ${e.node}` : e.node;
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

/** The lines for `event`, given the view state after it was folded in (and before, for what changed). */
export function plainLines(after: ViewState, event: VouchEvent, before?: ViewState): Line[] {
  switch (event.type) {
    case "node.progress":
      return apiRetry(before, event);
    case "run.started": {
      const caps = [
        event.caps.budget_usd !== null ? `budget ${formatUsd(event.caps.budget_usd)}` : "",
        event.caps.wall_ms !== null ? `wall ${formatMs(event.caps.wall_ms)}` : "",
      ];
      const count = event.nodes.filter((n) => n.map === undefined).length;
      const text = [`${count} node${count === 1 ? "" : "s"}`, ...caps].filter(Boolean).join(" · ");
      return [
        line([
          seg("▶ ", "accent", true),
          seg(event.graph, undefined, true),
          seg(`  run ${event.run} ${event.resumed ? "resumed" : "started"}`),
        ]),
        line([seg(`  ${text}`, "muted")]),
      ];
    }
    case "check.finished":
      return event.passed ? [] : checkFailed(event);
    case "cap.overrun": {
      const who =
        event.scope === "run" || event.node === undefined
          ? "run"
          : where({ node: event.node, ...(event.branch ? { branch: event.branch } : {}) });
      return [line([seg("⚠ ", "bad", true), seg(`${who} `), seg(`cap overrun ${overrunText(event)}`, "bad", true)])];
    }
    case "node.retrying": {
      const backoff = event.backoff_ms > 0 ? ` in ${formatMs(event.backoff_ms)}` : "";
      return [
        line([
          seg("↻ ", "warn", true),
          seg(`${where(event)} `),
          seg(`attempt ${event.attempt} ${event.cause}, retrying${backoff}: `, "warn"),
          seg(oneLine(event.error ?? event.reason), "muted"),
        ]),
      ];
    }
    case "node.started":
      return [...freshSession(event), ...newRound(after, event)];
    case "node.finished":
      return nodeFinished(after, event);
    case "branch.finished": {
      const b = branchAt(after, event.branch);
      const tone = statusTone(event.status);
      const out: Segment[] = [
        seg(`${statusIcon(event.status)} `, tone, true),
        seg(`${event.branch.map} #${event.branch.index} `),
        seg(b?.label ? `${oneLine(b.label)}  ` : "", "muted"),
        seg(b?.verdictText ?? event.status.toUpperCase(), tone, true),
      ];
      if (b?.worker !== undefined) out.push(seg(`  on ${workerLabel(b.worker)}`, "muted"));
      // A node that did not pass has already printed its error; say it once.
      const told = Object.values(b?.nodes ?? {}).some((n) => n.error && (n.status === "failed" || n.status === "error"));
      return event.error && event.status !== "passed" && !told ? [line(out), because(event.status, event.error)] : [line(out)];
    }
    case "branch.cut_off":
      return [
        line([
          seg("↻ ", "warn", true),
          seg(`${event.branch.map} #${event.branch.index} `),
          seg(`attempt ${event.attempt} cut off on ${workerLabel(event.worker)}`, "warn"),
          seg(": another worker takes the branch", "muted"),
        ]),
      ];
    case "repo.changed":
      return [
        line([
          seg("⚠ ", "bad", true),
          seg(`${nodeAt(event)} attempt ${event.attempt}: `, "bad", true),
          seg(repoChangedText(event.changed).replace("your repository", `the repository ${oneLine(event.repo)}`), "bad", true),
        ]),
      ];
    case "merge.conflict":
      return [
        line([
          seg("⚠ ", "warn", true),
          seg(`${event.node} left out ${oneLine(event.git_branch)}`, "warn", true),
          seg(conflictWhy(event), "muted"),
        ]),
      ];
    case "node.limited":
      return [
        line([
          seg("⏸ ", "warn", true),
          seg(
            `${nodeAt(event)} attempt ${event.attempt} held by the ${limitPhrase(event.harness, event.resets_at, Date.parse(event.t))}`,
            "warn",
          ),
        ]),
        because("error", event.error),
      ];
    case "run.waiting":
      return [
        line([seg("⏸ ", "warn", true), seg(waitingPhrase(event.harness, event.resets_at, event.until, Date.parse(event.t)), "warn", true)]),
      ];
    case "run.paused":
      return [
        ...limitPaused(event),
        ...event.approvals.flatMap((a) => {
          const at = nodeAt(a);
          const rows = [
            line([seg("? ", "warn", true), seg(`paused at approval ${at}`, "warn", true)]),
            line([seg(`    vouch resume ${event.run} --approve ${a.node}`), seg(`  (or --reject ${a.node})`, "muted")]),
          ];
          for (const l of linesOf(a.prompt ?? "").slice(0, 3)) rows.push(line([seg("    │ ", "muted"), seg(l)]));
          return rows;
        }),
      ];
    case "run.finished": {
      const tone = statusTone(event.status);
      const reason = event.reason ? ` (${event.reason})` : "";
      const cost = formatUsd(event.cost_usd) + (event.cost_unknown ? ` + ${event.cost_unknown} of unknown cost` : "");
      return [
        line([
          seg("■ ", tone, true),
          seg("run "),
          seg(`${event.status}${reason} · exit ${event.exit_code}`, tone, true),
          seg(`  ${cost} · ${formatMs(event.wall_ms)}`, "muted"),
        ]),
        line([seg(`  ${countsText(event.counts)}`)]),
      ];
    }
    default:
      return [];
  }
}

/** A feedback loop sends the work back: one line when the first node of a new round starts
 *  (the loop's head; the rest of its chain follows with the same round). */
function newRound(after: ViewState, e: EventOf<"node.started">): Line[] {
  if (e.round === undefined || e.round < 2) return [];
  const scope = e.branch ? branchAt(after, e.branch)?.nodes : after.nodes;
  const others = Object.values(scope ?? {}).filter((n) => n.id !== e.node && (n.round ?? 0) >= e.round!);
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
  const prior = before ? (nodeOf(before, e)?.attempts.find((a) => a.attempt === e.attempt)?.apiRetries ?? 0) : 0;
  if (e.api_retries <= prior) return [];
  const what = e.activity?.startsWith("API retry") ? e.activity : `API retry ${e.api_retries}`;
  return [line([seg("↻ ", "warn", true), seg(`${where(e)} `), seg(oneLine(what), "warn")])];
}

function checkFailed(e: EventOf<"check.finished">): Line[] {
  const outcome = checkOutcomeText({ exit: e.exit, signal: e.signal, timedOut: e.timed_out, durationMs: e.duration_ms });
  const reason = e.reason && oneLine(e.reason) !== outcome ? ` · ${oneLine(e.reason)}` : "";
  const rows = [
    line([
      seg("✗ ", "bad", true),
      seg(`${where(e)} `),
      seg(`check ${e.name} failed`, "bad", true),
      seg(`: ${outcome} · expect ${e.expect}${reason}`, "muted"),
    ]),
  ];
  for (const l of failureTail({ stdoutTail: e.stdout_tail, stderrTail: e.stderr_tail }, TAIL_LINES))
    rows.push(line([seg("    │ ", "muted"), seg(l)]));
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
    costly ? formatUsd(e.cost_usd!) : "",
    e.turns !== null ? `${e.turns} turn${e.turns === 1 ? "" : "s"}` : "",
    e.wall_ms > 0 ? formatMs(e.wall_ms) : "",
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
