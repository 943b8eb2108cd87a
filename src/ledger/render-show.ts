// `vouch show RUN` as text: a header, the per-node table (map branches
// indented under their map), failed checks with their tails, cap overruns.
import { capValue } from "../read/cap-text.ts";
import { currentAttempts } from "../read/node-cost.ts";
import { nodePath } from "../read/node-path.ts";
import { sealSummary, sealText } from "../read/seal.ts";
import { duration } from "../text/duration.ts";
import { indentTail, oneLine } from "../text/lines.ts";
import { localTime } from "../text/clock.ts";
import { money } from "../text/money.ts";
import { table } from "../text/table.ts";
import type { AttemptView, BranchView, CheckRecord, NodeView, OverrunRecord, PausedLimit, RunSummary } from "./types.ts";
import { diffStatText } from "../engine/events.ts";
import { limitPhrase } from "../engine/limit-phrase.ts";
import { retryTableText } from "../read/claims-text.ts";
import { qualifierText } from "../read/qualifier.ts";
import { checkLabel, checkWentWrong } from "../read/check-record.ts";
import { requestsBlock } from "./render-requests.ts";

const LABEL_MAX = 32;

function statusCell(n: NodeView): string {
  const q = qualifierText(n);
  return q !== null ? `${n.status} (${q})` : n.status;
}

function detail(n: NodeView): string {
  const parts: string[] = [];
  const what = [n.cause, n.error === null ? null : oneLine(n.error)].filter((p): p is string => p !== null && p !== "");
  if (what.length > 0) parts.push(what.join(": "));
  if (n.sealed === false) parts.push(sealText(n)!);
  const last = n.attempts[n.attempts.length - 1];
  if (last) {
    const inSession = n.attempts.filter((a) => a.session === last.session);
    const rounds = new Set(inSession.map((a) => a.round)).size;
    const inRound = currentAttempts(n.attempts).length;
    if (rounds > 1) parts.push(`${rounds} feedback rounds`);
    if (inRound > 1) parts.push(`after ${inRound} attempts`);
    if (last.recovered) parts.push("recovered");
    const retries = inSession.reduce((sum, a) => sum + (a.api_retries ?? 0), 0);
    if (retries > 0) parts.push(`${retries} API ${retries === 1 ? "retry" : "retries"}`);
    if (last.fallback) parts.push(`fallback: ${last.fallback}`);
  }
  return parts.join("; ");
}

function nodeRow(n: NodeView, indent: string): string[] {
  return [
    indent + n.node,
    statusCell(n),
    n.stop_reason ?? "-",
    money(n.cost_usd),
    n.turns === null ? "-" : String(n.turns),
    duration(n.wall_ms),
    detail(n),
  ];
}

function branchRow(b: BranchView): string[] {
  const label = b.label === null ? "" : b.label.length > LABEL_MAX ? `${b.label.slice(0, LABEL_MAX - 1)}…` : b.label;
  const parts: string[] = [];
  if ("verdict" in b && b.verdict !== null) parts.push(`verdict: ${typeof b.verdict === "string" ? b.verdict : JSON.stringify(b.verdict)}`);
  if (b.error) parts.push(oneLine(b.error));
  return [`  #${b.index}${label === "" ? "" : ` ${oneLine(label)}`}`, b.status, "", "", "", "", parts.join("; ")];
}

function header(s: RunSummary): string {
  const r = s.run;
  // The reason only when it says more than the status ("error, exit 3, budget"; not "interrupted, exit 130, interrupted").
  const status = [r.status, r.exit_code === null ? null : `exit ${r.exit_code}`, r.reason === r.status ? null : r.reason]
    .filter(Boolean)
    .join(", ");
  const lines: [string, string][] = [
    ["run", r.id],
    ["graph", `${r.graph} (${r.graph_path})`],
    ["status", status],
    ["started", localTime(r.started_at)],
    ["wall", duration(r.wall_ms)],
    ["cost", money(r.cost_usd, r.cost_unknown)],
  ];
  if (r.counts) {
    const c = r.counts;
    const self = c.self_reported ? ` (${c.self_reported} self-reported)` : "";
    lines.push([
      "nodes",
      `${c.passed} passed${self}, ${c.failed} failed, ${c.error} error, ${c.skipped} skipped, ${c.cancelled} cancelled${c.paused ? `, ${c.paused} paused` : ""}`,
    ]);
  }
  const sandbox = sealSummary([...s.nodes, ...s.branches.flatMap((b) => b.nodes)]);
  if (sandbox !== null) lines.push(["sandbox", sandbox]);
  if (s.sessions.length > 1) {
    lines.push([
      "sessions",
      s.sessions.map((x) => `#${x.session}${x.resumed ? " (resume)" : ""} ${localTime(x.started_at)} ${x.status}`).join("; "),
    ]);
  }
  if (s.pass_env.length > 0)
    lines.push(["env", `${s.pass_env.join(", ")} (--pass-env: names passed to child processes; values are never recorded)`]);
  if (s.graph_env.length > 0)
    lines.push(["env", `${s.graph_env.join(", ")} (the graph's env: lists; names only, values are never recorded)`]);
  return lines.map(([k, v]) => `${k.padEnd(9)}${v}`).join("\n") + "\n";
}

/** Every attempt of every node, top-level and in branches, with where it ran. */
function allAttempts(s: RunSummary): { where: string; attempt: AttemptView }[] {
  const out: { where: string; attempt: AttemptView }[] = [];
  const sessions = s.sessions.length > 1;
  const add = (n: NodeView, where: string) => {
    for (const a of n.attempts)
      out.push({ where: `${where} attempt ${a.attempt}${sessions ? ` (session ${a.session})` : ""}`, attempt: a });
  };
  for (const n of s.nodes) add(n, n.node);
  for (const b of s.branches) for (const n of b.nodes) add(n, nodePath(n.node, b));
  return out;
}

function checkBlock(where: string, c: CheckRecord): string {
  const how = [
    c.timed_out ? "timed out" : c.signal ? `killed by ${c.signal}` : `exit ${c.exit ?? "?"}`,
    `expected ${c.expect}`,
    duration(c.duration_ms),
  ].join(", ");
  // A check that could not run or did not finish is no evidence (ADR 0049): never "failed".
  const what = c.tree === "base" ? "passed on the base: vacuous" : c.could_not_run ? "could not run" : "failed";
  const lines = [`  ${where}: check ${checkLabel(c)} ${what} (${how})${c.reason ? `: ${oneLine(c.reason)}` : ""}`];
  if (c.stdout_tail.trim() !== "") lines.push("    stdout:", indentTail(c.stdout_tail, "      | "));
  if (c.stderr_tail.trim() !== "") lines.push("    stderr:", indentTail(c.stderr_tail, "      | "));
  if (c.truncated) lines.push("    (output truncated: only the tail was kept)");
  return lines.join("\n");
}

function overrunLine(where: string, o: OverrunRecord): string {
  return `  ${where}: ${o.cap} limit ${capValue(o.cap, o.limit)}, actual ${capValue(o.cap, o.actual)}`;
}

/** The approvals a paused run waits for, each with the command that decides it. */
function waitingBlock(runId: string, approvals: NonNullable<RunSummary["sessions"][number]["paused"]>): string {
  const lines = ["Waiting for approval"];
  for (const a of approvals) {
    lines.push(`  ${nodePath(a.node, a.branch)}${a.prompt ? `: ${oneLine(a.prompt)}` : ""}`);
    lines.push(`    decide with: vouch resume ${runId} --approve ${a.node}   (or --reject ${a.node})`);
  }
  return `${lines.join("\n")}\n`;
}

/** "paused: claude usage limit, resets 15:00 UTC", the nodes it holds, and how to go on. */
function limitBlock(runId: string, limit: PausedLimit, now: number): string {
  const lines = [`paused: ${limitPhrase(limit.harness, limit.resets_at, now)}`];
  for (const l of limit.limited) {
    lines.push(`  held: ${nodePath(l.node, l.branch)} (${limitPhrase(l.harness, l.resets_at, now)})`);
  }
  lines.push(`  go on with: vouch resume ${runId}   (add --wait-limits to wait for the reset in place)`);
  return `${lines.join("\n")}\n`;
}

export function renderShow(s: RunSummary, now: number = Date.now()): string {
  const rows: string[][] = [];
  for (const n of s.nodes) {
    rows.push(nodeRow(n, ""));
    for (const b of s.branches.filter((x) => x.map === n.node)) {
      rows.push(branchRow(b));
      for (const bn of b.nodes) rows.push(nodeRow(bn, "    "));
    }
  }
  const parts = [header(s), table(["NODE", "STATUS", "STOP", "COST", "TURNS", "WALL", "DETAIL"], rows)];

  const waiting = s.sessions[s.sessions.length - 1]?.status === "paused" ? (s.sessions[s.sessions.length - 1]!.paused ?? []) : [];
  if (s.limit) parts.push(limitBlock(s.run.id, s.limit, now));
  if (waiting.length > 0) parts.push(waitingBlock(s.run.id, waiting));
  if (s.requests) parts.push(requestsBlock(s.requests));

  const attempts = allAttempts(s);
  const failed = attempts.flatMap(({ where, attempt }) => attempt.checks.filter(checkWentWrong).map((c) => checkBlock(where, c)));
  if (failed.length > 0) parts.push(`Failed checks\n${failed.join("\n")}\n`);

  const overruns = [
    ...attempts.flatMap(({ where, attempt }) => attempt.overruns.map((o) => overrunLine(where, o))),
    ...s.overruns.map((o) => overrunLine("run", o)),
  ];
  if (overruns.length > 0) parts.push(`Cap overruns\n${overruns.join("\n")}\n`);
  // What each cause's retries cost and bought (ADR 0068).
  if (s.retries.length > 0) parts.push(`Retries by cause (what they cost, how many ended verified)\n${retryTableText(s.retries, false)}`);
  const worktrees = worktreeRows(s);
  if (worktrees.length > 0)
    parts.push(
      `Worktrees (vouch show ${s.run.id} --diff NODE prints a node's diff)\n${table(["NODE", "BRANCH", "CHANGES", "COMMIT"], worktrees)}`,
    );
  return parts.join("\n");
}

function worktreeRows(s: RunSummary): string[][] {
  const rows: string[][] = [];
  const row = (where: string, n: NodeView) => {
    const w = n.workspace;
    if (!w) return;
    rows.push([
      where,
      w.branch,
      diffStatText(w) + (w.tampered ? `; tampered: ${w.tampered.map(oneLine).join(", ")}` : ""),
      w.commit.slice(0, 12),
    ]);
  };
  for (const n of s.nodes) row(n.node, n);
  for (const b of s.branches) for (const n of b.nodes) row(nodePath(n.node, b), n);
  return rows;
}
