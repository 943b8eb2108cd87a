// THE list the CI formats render (ADR 0058): GitHub annotations (github.ts), SARIF
// (sarif.ts) and GitLab Code Quality (codequality.ts) all read these problems, built
// once from the report model: each failed or error node, each failed check of its
// deciding attempt (one problem per `path:line[:col]: message` line of its output that
// points into the repository, else one for the check), and each review finding a node's
// output holds (VERIFIED at its severity, UNVERIFIABLE as a note; FALSE — refuted by the
// evidence — is counted, not reported). Worst first. Pure.
import { nodeKey, type VouchEvent } from "../../engine/events.ts";
import type { NodeView } from "../../ledger/types.ts";
import { checkTail, failedChecks, recovered, type ReportModel, type ReportNode } from "../model.ts";
import { locatedLines, repositoryPath, type PathBase, type SourceLocation } from "./locations.ts";
import { outputFindings, type FindingVerdict, type OutputFinding } from "./output-findings.ts";

export type Level = "error" | "warning" | "note";

export interface Problem {
  kind: "node" | "check" | "finding";
  level: Level;
  /** `vouch/check/NAME`, `vouch/node/failed`, `vouch/node/error`, `vouch/finding` (`/RULE`). */
  rule: string;
  /** One line, as a title. */
  title: string;
  message: string;
  /** The node path (`verify`, `verify_each[4].verify_one`). */
  node: string;
  location?: SourceLocation;
  /** A finding's evidence, where it points into the repository. */
  related: { location: SourceLocation; message: string }[];
  verdict?: FindingVerdict;
}

export interface RuleInfo {
  id: string;
  description: string;
  level: Level;
}

/** What the CI formats are told about where the run's files are (built by the command line). */
export interface CiContext {
  /** The repository root, absolute: every location is relative to it. */
  root: string;
  /** The repository as a URI, for SARIF's versionControlProvenance (the forge's, from CI). */
  repositoryUri?: string;
  /** The commit CI checked out, when the run recorded none (no node had a worktree). */
  commit?: string;
}

export interface CiModel {
  run: { id: string; graph: string; status: string; exitCode: number | null };
  problems: Problem[];
  rules: RuleInfo[];
  /** FALSE findings: refuted by the evidence, left out of every format. */
  refuted: number;
  /** The graph file in the repository (line 1): where a problem without a location points. */
  graphLocation?: SourceLocation;
  /** The run's base commit (a worktree's base), else the context's. */
  commit?: string;
  root: string;
  repositoryUri?: string;
}

/** At most this many located lines are read from one check's output. */
export const MAX_LOCATED_PER_CHECK = 20;
const TAIL_LINES = 12;
const LEVEL_RANK: Record<Level, number> = { error: 0, warning: 1, note: 2 };

function kindRank(p: Problem): number {
  if (p.kind === "finding") return p.location ? 0 : 2;
  if (p.kind === "check") return p.location ? 1 : 3;
  return 4;
}

/** Worse first: by level, then what is most use on a diff (located findings, located checks), then the rest. */
export function worstFirst(problems: Problem[]): Problem[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => LEVEL_RANK[a.p.level] - LEVEL_RANK[b.p.level] || kindRank(a.p) - kindRank(b.p) || a.i - b.i)
    .map(({ p }) => p);
}

function lastLines(text: string, n: number): string {
  const lines = text.split("\n");
  return lines.slice(-n).join("\n");
}

/** A recovered node (exhausted:) did not fail the run: its problems are warnings, and say why. */
const RECOVERED = " (recovered by exhausted:)";

function checkProblems(n: ReportNode, base: PathBase): Problem[] {
  const out: Problem[] = [];
  const level: Level = recovered(n) ? "warning" : "error";
  for (const c of failedChecks(n.view)) {
    const rule = `vouch/check/${c.name}`;
    // A check that could not run or did not finish is no evidence (ADR 0049): never "failed".
    const title = `check ${c.name} ${c.could_not_run ? "could not run" : "failed"} in ${n.path}${level === "warning" ? RECOVERED : ""}`;
    const tail = checkTail(c);
    const located = locatedLines(tail, base, MAX_LOCATED_PER_CHECK);
    for (const l of located)
      out.push({
        kind: "check",
        level,
        rule,
        title,
        message: l.message || (c.reason ?? "failed"),
        node: n.path,
        location: l.location,
        related: [],
      });
    if (located.length === 0) {
      const why = `${c.reason ?? "failed"} (expect ${c.expect})`;
      const message = tail.trim() === "" ? why : `${why}\n${lastLines(tail.trimEnd(), TAIL_LINES)}`;
      out.push({ kind: "check", level, rule, title, message, node: n.path, related: [] });
    }
  }
  return out;
}

function nodeProblem(n: ReportNode): Problem {
  const v = n.view;
  const why = [v.cause, v.error].filter((x) => x !== null && x !== "").join(": ");
  const soft = recovered(n);
  return {
    kind: "node",
    level: soft ? "warning" : "error",
    rule: `vouch/node/${v.status}`,
    title: `${n.path} ${v.status === "error" ? "reached no verdict" : "failed"}${soft ? RECOVERED : ""}`,
    message: `${v.status}${why ? ` (${why})` : ""}`,
    node: n.path,
    related: [],
  };
}

function findingProblem(f: OutputFinding, node: string): Problem {
  const related = f.evidence.flatMap((e) => (e.location ? [{ location: e.location, message: e.quote || e.at }] : []));
  const evidence = f.evidence.map((e) => `${e.at}: ${e.quote}`).join("\n");
  const name = f.id !== undefined ? `finding ${f.id}` : "a finding";
  const verified = f.verdict === "VERIFIED";
  return {
    kind: "finding",
    level: verified ? f.severity : "note",
    rule: f.rule !== undefined ? `vouch/finding/${f.rule}` : "vouch/finding",
    title: `${name} ${verified ? "verified" : "unverifiable"} (${node})`,
    message: verified
      ? [f.message, f.note, evidence ? `evidence:\n${evidence}` : ""].filter(Boolean).join("\n")
      : `${f.message}\ncould not be verified${f.note !== undefined ? `: ${f.note}` : ""}`,
    node,
    ...(f.location ? { location: f.location } : {}),
    related,
    verdict: f.verdict,
  };
}

/** Each node's working directory, from its last node.started (agent and script attempts carry one). */
function cwdsOf(events: readonly VouchEvent[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of events) if (e.type === "node.started" && e.cwd !== undefined) out.set(nodeKey(e.node, e.branch), e.cwd);
  return out;
}

function baseFor(n: ReportNode, root: string, runBase: string, cwds: Map<string, string>): PathBase {
  const v: NodeView = n.view;
  const key = nodeKey(v.node, n.branch ? { map: n.branch.map, index: n.branch.index } : undefined);
  return { root, cwd: cwds.get(key) ?? runBase, ...(v.workspace?.path !== undefined ? { worktree: v.workspace.path } : {}) };
}

const RULE_TEXT: Record<string, string> = {
  "vouch/node/failed": "a node whose evidence says no",
  "vouch/node/error": "a node that reached no verdict (a crash, a cap, a timeout, a check that could not run)",
  "vouch/finding": "a review finding: VERIFIED by the evidence vouch checked, or UNVERIFIABLE",
};

function rulesOf(problems: Problem[], expects: Map<string, string>): RuleInfo[] {
  const out = new Map<string, RuleInfo>();
  for (const p of problems) {
    if (out.has(p.rule)) continue;
    const check = p.rule.startsWith("vouch/check/") ? p.rule.slice("vouch/check/".length) : null;
    const description =
      check !== null
        ? `check ${check} (expect ${expects.get(check) ?? "exit_zero"}) failed`
        : (RULE_TEXT[p.rule] ?? (p.rule.startsWith("vouch/finding/") ? `review finding ${p.rule.slice(14)}` : p.rule));
    out.set(p.rule, { id: p.rule, description, level: p.level });
  }
  return [...out.values()];
}

export function ciModel(model: ReportModel, events: readonly VouchEvent[], ctx: CiContext): CiModel {
  const started = events.find((e) => e.type === "run.started");
  const runBase = (started?.type === "run.started" && started.base_dir) || ctx.root;
  const cwds = cwdsOf(events);
  const problems: Problem[] = [];
  const expects = new Map<string, string>();
  let refuted = 0;
  for (const n of model.nodes) {
    const base = baseFor(n, ctx.root, runBase, cwds);
    if (n.view.status === "failed" || n.view.status === "error") {
      for (const c of failedChecks(n.view)) expects.set(c.name, c.expect);
      problems.push(...checkProblems(n, base), nodeProblem(n));
    }
    if (n.view.kind !== "agent" && n.view.kind !== "script") continue; // an end or map node copies what its nodes found
    for (const f of outputFindings(n.view.output, base)) {
      if (f.verdict === "FALSE") refuted++;
      else problems.push(findingProblem(f, n.path));
    }
  }
  const graphPath = repositoryPath(model.summary.run.graph_path, { root: ctx.root, cwd: runBase });
  const commit = model.nodes.find((n) => n.view.workspace?.base)?.view.workspace?.base ?? ctx.commit;
  const sorted = worstFirst(problems);
  const r = model.summary.run;
  return {
    run: { id: r.id, graph: r.graph, status: r.status, exitCode: r.exit_code },
    problems: sorted,
    rules: rulesOf(sorted, expects),
    refuted,
    root: ctx.root,
    ...(graphPath !== null ? { graphLocation: { path: graphPath, line: 1 } } : {}),
    ...(commit !== undefined ? { commit } : {}),
    ...(ctx.repositoryUri !== undefined ? { repositoryUri: ctx.repositoryUri } : {}),
  };
}
