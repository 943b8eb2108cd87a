// Report models made in memory for the CI formats' tests (github, sarif, codequality):
// nodes with failed checks and outputs, as the ledger's read API would return them,
// and the node.started events that say where each node ran.
import type { VouchEvent } from "../../src/engine/events.ts";
import type { AttemptView, CheckRecord, NodeView, RunSummary } from "../../src/ledger/types.ts";
import type { ReportModel } from "../../src/report/model.ts";
import { ciModel, type CiContext, type CiModel } from "../../src/report/ci/problems.ts";

export const ROOT_DIR = "/work/repo";

export function check(name: string, over: Partial<CheckRecord> = {}): CheckRecord {
  return {
    t: "2026-12-01T12:00:00.000Z",
    seq: 1,
    node: "n",
    attempt: 1,
    name,
    passed: false,
    expect: "exit_zero",
    reason: "exit 1, expected 0",
    exit: 1,
    signal: null,
    timed_out: false,
    duration_ms: 5,
    stdout_tail: "",
    stderr_tail: "",
    truncated: false,
    ...over,
  } as CheckRecord;
}

function attempt(checks: CheckRecord[], recovered = false): AttemptView {
  return {
    session: 1,
    round: 1,
    attempt: 1,
    status: "failed",
    qualifier: null,
    stop_reason: "complete",
    cause: "check_failed",
    error: null,
    retry_cause: null,
    retry_reason: null,
    recovered,
    fallback: null,
    cost_usd: null,
    turns: null,
    tokens: null,
    wall_ms: 1,
    result_tail: null,
    session_id: null,
    api_retries: null,
    started_at: null,
    finished_at: null,
    checks,
    overruns: [],
  };
}

export interface FakeNode {
  node: string;
  kind?: string;
  status?: NodeView["status"];
  checks?: CheckRecord[];
  output?: unknown;
  error?: string;
  cause?: NodeView["cause"];
  cwd?: string;
  workspace?: NodeView["workspace"];
  /** The node's last attempt was recovered by `exhausted:`. */
  recovered?: boolean;
}

export function fakeModel(nodes: FakeNode[], run: Partial<RunSummary["run"]> = {}): { model: ReportModel; events: VouchEvent[] } {
  const views: NodeView[] = nodes.map((n) => ({
    node: n.node,
    kind: n.kind ?? "script",
    status: n.status ?? "failed",
    qualifier: null,
    stop_reason: null,
    cause: n.cause ?? (n.status === "passed" ? null : "check_failed"),
    error: n.error ?? null,
    cost_usd: null,
    turns: null,
    wall_ms: 1,
    ...(n.output !== undefined ? { output: n.output } : {}),
    attempts: [attempt(n.checks ?? [], n.recovered === true)],
    ...(n.workspace ? { workspace: n.workspace } : {}),
  }));
  const summary = {
    run: {
      id: "20261201-120000-abcdef",
      graph: "g",
      graph_path: `${ROOT_DIR}/graphs/g.yaml`,
      status: "failed",
      exit_code: 1,
      version: "0.1.0",
      ...run,
    },
    nodes: views,
    branches: [],
  } as unknown as RunSummary;
  const events = nodes.map(
    (n, seq) =>
      ({
        v: 1,
        run: summary.run.id,
        t: "2026-12-01T12:00:00.000Z",
        seq,
        type: "node.started",
        node: n.node,
        kind: n.kind ?? "script",
        attempt: 1,
        cwd: n.cwd ?? ROOT_DIR,
      }) as VouchEvent,
  );
  events.unshift({
    v: 1,
    run: summary.run.id,
    t: "2026-12-01T12:00:00.000Z",
    seq: 0,
    type: "run.started",
    base_dir: ROOT_DIR,
  } as unknown as VouchEvent);
  return {
    model: {
      summary,
      nodes: views.map((view) => ({ path: view.node, view })),
      graph: [],
      timeline: { bars: [], startMs: 0, endMs: 0, peak: 0 },
    } as unknown as ReportModel,
    events,
  };
}

export function fakeCi(nodes: FakeNode[], ctx: Partial<CiContext> = {}, run: Partial<RunSummary["run"]> = {}): CiModel {
  const { model, events } = fakeModel(nodes, run);
  return ciModel(model, events, { root: ROOT_DIR, ...ctx });
}

/** What GitHub's runner does with a step's output: each line that starts a workflow command, parsed and
 *  unescaped (`::stop-commands::TOKEN` stops that until `::TOKEN::`). */
export function runnerCommands(output: string): { command: string; properties: Record<string, string>; data: string }[] {
  const out: { command: string; properties: Record<string, string>; data: string }[] = [];
  let stopped: string | null = null;
  const unescape = (s: string) => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
  const unescapeProperty = (s: string) => unescape(s.replace(/%3A/g, ":").replace(/%2C/g, ","));
  for (const line of output.split(/\r\n|\r|\n/)) {
    if (stopped !== null) {
      if (line === `::${stopped}::`) stopped = null;
      continue;
    }
    const m = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const kv of (m[2] ?? "").split(",").filter(Boolean)) {
      const eq = kv.indexOf("=");
      properties[kv.slice(0, eq)] = unescapeProperty(kv.slice(eq + 1));
    }
    if (m[1] === "stop-commands") stopped = m[3]!;
    out.push({ command: m[1]!, properties, data: unescape(m[3]!) });
  }
  return out;
}
