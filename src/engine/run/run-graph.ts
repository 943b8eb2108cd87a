// runGraph: plan (inputs, refusals) before anything starts, then run.started,
// the top scope, the run wall timer and Ctrl-C, and exactly one run.finished.
import { EXIT, RefusalError } from "../errors.ts";
import type { RunStatus } from "../events.ts";
import type { GraphFile } from "../graph/schema.ts";
import { refusingAgentRunner, refusingApprovals, refusingClock, refusingCommandRunner, refusingLedger } from "../ports.ts";
import { aggregate } from "../scheduler/aggregate.ts";
import { buildScopeIndex } from "../scheduler/scope-index.ts";
import { RunContext } from "./context.ts";
import { Emitter } from "./emitter.ts";
import { MapRunner } from "./map-runner.ts";
import { planRun, runLimits } from "./plan.ts";
import { ScopeRunner } from "./scope-runner.ts";
import type { RunOptions, RunOutcome, RunPorts } from "./types.ts";

export function withDefaultPorts(ports: Partial<RunPorts>): RunPorts {
  return {
    agents: ports.agents ?? refusingAgentRunner,
    commands: ports.commands ?? refusingCommandRunner,
    clock: ports.clock ?? refusingClock,
    ledger: ports.ledger ?? refusingLedger,
    approvals: ports.approvals ?? refusingApprovals,
  };
}

const EXIT_OF: Record<RunStatus, number> = {
  passed: EXIT.passed,
  failed: EXIT.failed,
  error: EXIT.error,
  paused: EXIT.paused,
  interrupted: EXIT.interrupted,
};

function graphNodes(options: RunOptions) {
  const out: { id: string; kind: string; needs: string[]; map?: string; description?: string }[] = [];
  for (const [id, node] of Object.entries(options.graph.nodes)) {
    out.push({ id, kind: node.kind, needs: node.needs ?? [], ...(node.description ? { description: node.description } : {}) });
    if (node.kind === "map") {
      for (const [bid, b] of Object.entries(node.branch)) {
        out.push({ id: bid, kind: b.kind, needs: b.needs ?? [], map: id, ...(b.description ? { description: b.description } : {}) });
      }
    }
  }
  return out;
}

export async function runGraph(options: RunOptions): Promise<RunOutcome> {
  const ports = withDefaultPorts(options.ports);
  const plan = planRun({ ...options, ports });
  if (plan.refusals.length > 0) throw new RefusalError(plan.refusals);
  const limits = runLimits(options);
  const emitter = new Emitter(options.runId, ports.clock, ports.ledger, options.resume?.startSeq ?? 0);

  return new Promise<RunOutcome>((resolveRun, rejectRun) => {
    let ended = false;
    const wallTimer = new AbortController();
    let unlinkSignal = () => {};
    const cleanup = () => {
      ended = true;
      wallTimer.abort();
      unlinkSignal();
    };

    const end = (status: RunStatus, output: unknown, reason?: string) => {
      const wallMs = Math.max(0, ports.clock.now() - ctx.startedAt);
      const exitCode = EXIT_OF[status];
      const costUsd = ctx.costDone;
      emitter.emit({
        type: "run.finished",
        status,
        exit_code: exitCode,
        cost_usd: costUsd,
        cost_unknown: ctx.costUnknown,
        wall_ms: wallMs,
        counts: { ...ctx.counts },
        ...(reason !== undefined ? { reason } : {}),
        ...(output !== undefined ? { output } : {}),
      });
      cleanup();
      const outcome: RunOutcome = { runId: options.runId, status, exitCode, costUsd, costUnknown: ctx.costUnknown, wallMs, counts: { ...ctx.counts } };
      if (reason !== undefined) outcome.reason = reason;
      if (output !== undefined) outcome.output = output;
      resolveRun(outcome);
    };

    const onComplete = () => {
      if (ended || ctx.fatal !== null) return;
      if (ctx.stop === "interrupted") return end("interrupted", undefined, "interrupted");
      if (ctx.stop === "budget" || ctx.stop === "wall") return end("error", undefined, ctx.stop);
      const agg = aggregate(top.entries());
      const output = agg.decidedBy !== undefined ? top.view[agg.decidedBy]?.output : undefined;
      end(agg.status === "cancelled" ? "interrupted" : agg.status, output);
    };

    const onQuiet = () => {
      if (ended || ctx.fatal !== null) return;
      if (ctx.paused.size > 0 && ctx.stop === null) {
        emitter.emit({
          type: "run.paused",
          approvals: [...ctx.paused].map((p) => ({ node: p.node, ...(p.branch ? { branch: p.branch } : {}), ...(p.prompt !== undefined ? { prompt: p.prompt } : {}) })),
        });
        return end("paused", undefined, "approval");
      }
      ctx.fail(new Error("internal: the run has no live work but is not finished (a scheduling bug)"));
    };

    const onFatal = (e: unknown) => {
      if (ended) return;
      cleanup();
      rejectRun(e);
    };

    const ctx = new RunContext(options, ports, emitter, plan.inputs, limits, onQuiet, onFatal);
    const top = new ScopeRunner(ctx, buildScopeIndex(options.graph.nodes), undefined, {
      onComplete,
      // Deferred so a map that finishes at once never re-enters the scope that is starting it.
      startMap: (scope, id, node, done) => ctx.defer(() => new MapRunner(ctx, scope, id, node, done).start()),
    });

    try {
      emitter.emit({
        type: "run.started",
        graph: options.graph.name,
        graph_path: options.graphPath,
        graph_digest: options.graphDigest,
        inputs: plan.inputs,
        caps: { budget_usd: limits.budgetUsd, wall_ms: limits.wallMs },
        concurrency: limits.concurrency,
        nodes: graphNodes(options),
        pass_env: options.passEnv ?? [],
        graph_env: graphEnvNames(options.graph),
        harness: options.harness ?? null,
        base_dir: options.baseDir,
        resumed: options.resume !== undefined,
        version: options.version,
      });
    } catch (e) {
      cleanup();
      return rejectRun(e);
    }

    if (options.signal) {
      const onAbort = () => ctx.requestStop("interrupted");
      if (options.signal.aborted) onAbort();
      else {
        options.signal.addEventListener("abort", onAbort, { once: true });
        unlinkSignal = () => options.signal!.removeEventListener("abort", onAbort);
      }
    }
    if (limits.wallMs !== null) {
      const wallMs = limits.wallMs;
      ports.clock.sleep(wallMs, wallTimer.signal).then(
        () => {
          if (ended) return;
          emitter.emit({ type: "cap.overrun", scope: "run", cap: "wall", limit: wallMs, actual: ports.clock.now() - ctx.startedAt });
          ctx.requestStop("wall");
        },
        () => {},
      );
    }
    ctx.begin();
    try {
      top.start();
    } catch (e) {
      ctx.fail(e);
    } finally {
      ctx.end();
    }
  });
}

/** Every name the graph's `env:` lists hand to children (defaults and nodes, branches included). */
export function graphEnvNames(graph: GraphFile): string[] {
  const names = new Set<string>(graph.defaults?.env ?? []);
  const add = (node: { env?: string[] }) => node.env?.forEach((n) => names.add(n));
  for (const node of Object.values(graph.nodes)) {
    if (node.kind === "agent" || node.kind === "script") add(node);
    if (node.kind === "map") for (const b of Object.values(node.branch)) if (b.kind === "agent" || b.kind === "script") add(b);
  }
  return [...names].sort();
}
