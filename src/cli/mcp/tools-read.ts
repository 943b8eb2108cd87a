// The MCP tools that read (ADR 0065): a run's status, its events (bounded pages by
// seq), waiting for it (bounded), `vouch show`, the Markdown report, the run list,
// the check library. All read the ledger; none writes it.
import { systemClock } from "../../engine/clock.ts";
import { runLockState } from "../../ledger/index.ts";
import { renderShow } from "../../ledger/render-show.ts";
import { nodePath } from "../../read/node-path.ts";
import { renderReport } from "../../report/render.ts";
import { sanitize } from "../../text/sanitize.ts";
import { readLibrary } from "../checks-command.ts";
import { followRun } from "../remote/follow.ts";
import { approvalsOf } from "../remote/open-approvals.ts";
import { withLedger, type McpContext } from "./context.ts";

export const EVENTS_PAGE_MAX = 500;
export const WAIT_MAX_SECONDS = 300;

export function runStatus(ctx: McpContext, run: string) {
  return withLedger(ctx, (ledger) => {
    const id = ledger.resolveRun(run);
    const r = ledger.runSummary(id).run;
    const waiting = approvalsOf(ledger.runEvents(id)).waiting.map((w) => {
      const node = nodePath(w.node, w.branch);
      return {
        node,
        ...(w.prompt !== undefined ? { prompt: w.prompt } : {}),
        decided_by: `a person: vouch approve ${id} ${node} (or vouch reject)`,
      };
    });
    return {
      run: id,
      graph: r.graph,
      status: r.status,
      live: r.live,
      exit_code: r.exit_code,
      counts: r.counts,
      cost_usd: r.cost_usd,
      wall_ms: r.wall_ms,
      last_seq: r.last_seq,
      ...(waiting.length > 0 ? { waiting_approvals: waiting } : {}),
    };
  });
}

export function runEvents(ctx: McpContext, run: string, afterSeq = -1, limit = 100) {
  const n = Math.max(1, Math.min(EVENTS_PAGE_MAX, Math.floor(limit)));
  return withLedger(ctx, (ledger) => {
    const id = ledger.resolveRun(run);
    const page = ledger.eventsAfter(id, Math.floor(afterSeq), n);
    const last = page[page.length - 1]?.event.seq ?? afterSeq;
    return { run: id, events: page.map((s) => s.event), next_after_seq: last, more: page.length === n };
  });
}

export function waitRun(ctx: McpContext, run: string, timeoutSeconds = 60) {
  const seconds = Math.max(1, Math.min(WAIT_MAX_SECONDS, timeoutSeconds));
  return withLedger(ctx, async (ledger) => {
    const id = ledger.resolveRun(run);
    const end = await followRun(ledger, id, () => {}, {
      afterSeq: (ledger.lastSeq(id) ?? 0) - 1,
      signal: AbortSignal.timeout(seconds * 1000),
      lockState: () => runLockState(ctx.home, id),
      sleep: systemClock.sleep,
    });
    if (end.kind === "finished")
      return { run: id, ended: true, status: end.event.status, exit_code: end.event.exit_code, counts: end.event.counts };
    if (end.kind === "abandoned") return { run: id, ended: true, status: "abandoned", exit_code: null };
    return { run: id, ended: false, status: "running", waited_seconds: seconds, hint: "call wait_run again, or run_status" };
  });
}

export function showRun(ctx: McpContext, run: string) {
  return withLedger(ctx, (ledger) => sanitize(renderShow(ledger.runSummary(ledger.resolveRun(run)))));
}

export function runReport(ctx: McpContext, run: string) {
  return withLedger(ctx, async (ledger) => sanitize(await renderReport(ledger, ledger.resolveRun(run), "markdown")));
}

export function listRuns(ctx: McpContext, limit = 20) {
  const n = Math.max(1, Math.min(200, Math.floor(limit)));
  return withLedger(ctx, (ledger) =>
    ledger
      .listRuns()
      .slice(0, n)
      .map((r) => ({ run: r.id, graph: r.graph, status: r.status, exit_code: r.exit_code, started_at: r.started_at, live: r.live })),
  );
}

export function listChecks(ctx: McpContext) {
  const io = { cwd: ctx.root.real, env: ctx.env };
  return ctx.library.flatMap((file) => readLibrary(file, io).map((c) => ({ ...c, file: ctx.root.shown(file) })));
}
