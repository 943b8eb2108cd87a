// runGraph: plan (inputs, refusals) before anything starts, then run.started,
// the top scope, the run wall timer and Ctrl-C, and exactly one run.finished.
import { EXIT, RefusalError } from "../errors.ts";
import type { RunStatus } from "../events.ts";
import type { GraphFile } from "../graph/schema.ts";
import {
  refusingAgentRunner,
  refusingApprovals,
  refusingClock,
  refusingCommandRunner,
  refusingGit,
  refusingLedger,
  refusingMerge,
} from "../ports.ts";
import { aggregate } from "../scheduler/aggregate.ts";
import { buildScopeIndex } from "../scheduler/scope-index.ts";
import { RunContext } from "./context.ts";
import { Emitter } from "./emitter.ts";
import { topFrame } from "./frame.ts";
import { MapRunner } from "./map-runner.ts";
import { planRun, runLimits } from "./plan.ts";
import { ScopeRunner } from "./scope-runner.ts";
import { SubgraphRunner } from "./subgraph-runner.ts";
import { walkNodes } from "./graph-walk.ts";
import { DEFAULT_MAX_WAIT_MS, decideLimits, type LimitDecision } from "./limit-wait.ts";
import { resetIso } from "./limited-attempt.ts";
import type { RunOptions, RunOutcome, RunPlan, RunPorts } from "./types.ts";

export function withDefaultPorts(ports: Partial<RunPorts>): RunPorts {
  return {
    agents: ports.agents ?? refusingAgentRunner,
    commands: ports.commands ?? refusingCommandRunner,
    clock: ports.clock ?? refusingClock,
    ledger: ports.ledger ?? refusingLedger,
    approvals: ports.approvals ?? refusingApprovals,
    git: ports.git ?? refusingGit,
    merge: ports.merge ?? refusingMerge,
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
  const out: { id: string; kind: string; needs: string[]; map?: string; graph?: string; description?: string }[] = [];
  for (const w of walkNodes(options.graph, options.graphPath, options.subgraphs)) {
    out.push({
      id: w.id,
      kind: w.node.kind,
      needs: w.needs,
      ...(w.map !== undefined ? { map: w.map } : {}),
      ...(w.graph !== undefined ? { graph: w.graph } : {}),
      ...(w.node.description ? { description: w.node.description } : {}),
    });
  }
  return out;
}

type RunLimits = ReturnType<typeof runLimits>;

export async function runGraph(options: RunOptions): Promise<RunOutcome> {
  return new RunDriver(options).run();
}

/** One run, as steps that read in order: plan (the constructor), start, link the
 *  signal and the wall timer, start the top scope; then exactly one finish —
 *  completed, paused, or abandoned to a fatal error. */
class RunDriver {
  private readonly ports: RunPorts;
  private readonly plan: RunPlan;
  private readonly limits: RunLimits;
  private readonly emitter: Emitter;
  private readonly ctx: RunContext;
  private readonly top: ScopeRunner;
  private readonly settled = settlement<RunOutcome>();
  private readonly wallTimer = new AbortController();
  private unlinkSignal = () => {};
  private ended = false;
  /** finish() was called: worktrees may be being removed before run.finished. */
  private finishing = false;

  /** Plan: refusals end the run before anything starts or is recorded. */
  constructor(private readonly options: RunOptions) {
    this.ports = withDefaultPorts(options.ports);
    this.plan = planRun({ ...options, ports: this.ports });
    if (this.plan.refusals.length > 0) throw new RefusalError(this.plan.refusals);
    this.limits = runLimits(options);
    this.emitter = new Emitter(options.runId, this.ports.clock, this.ports.ledger, options.resume?.startSeq ?? 0);
    const ctx = new RunContext(
      options,
      this.ports,
      this.emitter,
      this.plan.inputs,
      this.limits,
      () => this.onQuiet(),
      (e) => this.abandon(e),
    );
    this.ctx = ctx;
    this.top = new ScopeRunner(ctx, buildScopeIndex(options.graph.nodes), topFrame(ctx), undefined, {
      onComplete: () => this.onComplete(),
      // Deferred so a map or sub-graph that finishes at once never re-enters the scope that is starting it.
      startMap: (scope, id, node, done) => ctx.defer(() => new MapRunner(ctx, scope, id, node, done).start()),
      startGraph: (scope, id, node, done) => ctx.defer(() => new SubgraphRunner(ctx, scope, id, node, done).start()),
    });
  }

  run(): Promise<RunOutcome> {
    if (this.start()) {
      this.linkSignal();
      this.linkWall();
      this.startTopScope();
    }
    return this.settled.promise;
  }

  /** run.started; false (the run abandoned) when it cannot be recorded. */
  private start(): boolean {
    const { options, plan, limits } = this;
    try {
      this.emitter.emit({
        type: "run.started",
        graph: options.graph.name,
        graph_path: options.graphPath,
        graph_digest: options.graphDigest,
        inputs: plan.inputs,
        caps: { budget_usd: limits.budgetUsd, wall_ms: limits.wallMs },
        concurrency: limits.concurrency,
        nodes: graphNodes(options),
        pass_env: options.passEnv ?? [],
        graph_env: graphEnvNames(options.graph, options),
        harness: options.harness ?? null,
        base_dir: options.baseDir,
        resumed: options.resume !== undefined,
        version: options.version,
        ...(options.executorUrl !== undefined ? { executor: options.executorUrl } : {}),
      });
      return true;
    } catch (e) {
      this.abandon(e);
      return false;
    }
  }

  /** The caller's signal (Ctrl-C) stops the run as interrupted. */
  private linkSignal(): void {
    const signal = this.options.signal;
    if (!signal) return;
    const onAbort = () => this.ctx.requestStop("interrupted");
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    this.unlinkSignal = () => signal.removeEventListener("abort", onAbort);
  }

  /** The run's wall cap: crossing it reports the overrun and stops the run. */
  private linkWall(): void {
    const wallMs = this.limits.wallMs;
    if (wallMs === null) return;
    this.ports.clock.sleep(wallMs, this.wallTimer.signal).then(
      () => {
        if (this.ended) return;
        try {
          this.emitter.emit({
            type: "cap.overrun",
            scope: "run",
            cap: "wall",
            limit: wallMs,
            actual: this.ports.clock.now() - this.ctx.startedAt,
          });
        } catch (e) {
          // A timer has no caller to throw to: the ledger failing here ends the run like anywhere else.
          return this.ctx.fail(e);
        }
        this.ctx.requestStop("wall");
      },
      () => {},
    );
  }

  /** Counted as live work, so the run cannot go quiet while the top scope is starting. */
  private startTopScope(): void {
    this.ctx.begin();
    try {
      this.top.start();
    } catch (e) {
      this.ctx.fail(e);
    } finally {
      this.ctx.end();
    }
  }

  /** The top scope finished every node: the run's status follows from the stop or the aggregate. */
  private onComplete(): void {
    const { ctx, top } = this;
    if (this.ended || this.finishing || ctx.fatal !== null) return;
    if (ctx.stop === "interrupted") return this.finish("interrupted", undefined, "interrupted");
    if (ctx.stop === "budget" || ctx.stop === "wall" || ctx.stop === "executor") return this.finish("error", undefined, ctx.stop);
    const agg = aggregate(top.entries());
    const output = agg.decidedBy !== undefined ? top.view[agg.decidedBy]?.output : undefined;
    this.finish(agg.status === "cancelled" ? "interrupted" : agg.status, output);
  }

  /** No work can go on: what is left is parked on usage limits (wait or pause), waits on
   *  approvals (paused), or the scheduler is stuck. */
  private onQuiet(): void {
    const { ctx } = this;
    if (this.ended || this.finishing || ctx.fatal !== null) return;
    if (ctx.stop === null && ctx.usageLimits.parkedCount > 0) return this.onLimited();
    if (ctx.paused.size > 0 && ctx.stop === null) return this.pause();
    ctx.fail(new Error("internal: the run has no live work but is not finished (a scheduling bug)"));
  }

  /** Only limited work is left (ADR 0022): wait for the soonest reset (--wait-limits), or pause. */
  private onLimited(): void {
    const { ctx, options } = this;
    const policy = { wait: options.waitLimits === true, maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS };
    const d = decideLimits(ctx.usageLimits.states(), this.ports.clock.now(), ctx.usageLimits.waitedMs, policy);
    if (d === null) return ctx.fail(new Error("internal: attempts are parked on a limit no harness has (a scheduling bug)"));
    if (d.kind === "pause") return this.pause(d);
    this.waitForLimit(d);
  }

  /** run.waiting, then sleep to the reset on the run's clock. The wait is live work (the run is
   *  not quiet meanwhile); a stop (Ctrl-C, the run wall cap) ends it and the parked attempts. */
  private waitForLimit(d: Extract<LimitDecision, { kind: "wait" }>): void {
    const { ctx } = this;
    ctx.begin();
    try {
      const until = new Date(this.ports.clock.now() + d.waitMs).toISOString();
      this.emitter.emit({
        type: "run.waiting",
        reason: "rate_limited",
        harness: d.harness,
        resets_at: resetIso(d.resetsAt),
        wait_ms: d.waitMs,
        until,
      });
    } catch (e) {
      ctx.end();
      return ctx.fail(e);
    }
    this.ports.clock
      .sleep(d.waitMs, ctx.signal)
      .then(
        () => {
          ctx.usageLimits.waitedMs += d.waitMs;
          ctx.usageLimits.lift(d.harness);
        },
        () => {},
      )
      .finally(() => ctx.end());
  }

  /** run.paused and the paused finish. Called as the last live task ends (from a promise's
   *  finally, with no caller to throw to): the ledger failing here ends the run as anywhere else. */
  private pause(limit?: Extract<LimitDecision, { kind: "pause" }>): void {
    const { ctx } = this;
    try {
      const approvals = [...ctx.paused].map((p) => ({
        node: p.node,
        ...(p.branch ? { branch: p.branch } : {}),
        ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
      }));
      if (!limit) {
        this.emitter.emit({ type: "run.paused", reason: "approval", approvals });
        return this.finish("paused", undefined, "approval");
      }
      const resets = new Map(ctx.usageLimits.states().map((s) => [s.harness, resetIso(s.resetsAt)]));
      const limited = ctx.usageLimits.parkedAttempts().map((p) => ({ ...p, resets_at: resets.get(p.harness) ?? null }));
      this.emitter.emit({
        type: "run.paused",
        reason: "rate_limited",
        harness: limit.harness,
        resets_at: resetIso(limit.resetsAt),
        approvals,
        limited,
      });
      this.finish("paused", undefined, "rate_limited");
    } catch (e) {
      ctx.fail(e);
    }
  }

  /** Exactly one run.finished, then the outcome. */
  private finish(status: RunStatus, output: unknown, reason?: string): void {
    if (this.finishing) return;
    this.finishing = true;
    // Worktrees `keep` does not keep are removed first, so run.finished is still the
    // run's last word; a run without worktrees finishes at once, as before (ADR 0020).
    if (!this.ctx.workspaces.anything()) return this.finishNow(status, output, reason);
    void this.ctx.workspaces.close().then(() => {
      try {
        this.finishNow(status, output, reason);
      } catch (e) {
        this.ctx.fail(e);
      }
    });
  }

  private finishNow(status: RunStatus, output: unknown, reason?: string): void {
    // Abandoned while the worktrees were being removed (a fatal error): no run.finished.
    if (this.ended) return;
    const { ctx } = this;
    const wallMs = Math.max(0, this.ports.clock.now() - ctx.startedAt);
    const exitCode = EXIT_OF[status];
    const costUsd = ctx.costDone;
    this.emitter.emit({
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
    this.cleanup();
    const outcome: RunOutcome = {
      runId: this.options.runId,
      status,
      exitCode,
      costUsd,
      costUnknown: ctx.costUnknown,
      wallMs,
      counts: { ...ctx.counts },
    };
    if (reason !== undefined) outcome.reason = reason;
    if (output !== undefined) outcome.output = output;
    this.settled.resolve(outcome);
  }

  /** A fatal error (a port missing, the ledger failing): the run rejects with it, unrecorded as finished. */
  private abandon(e: unknown): void {
    if (this.ended) return;
    this.cleanup();
    this.settled.reject(e);
  }

  private cleanup(): void {
    this.ended = true;
    this.wallTimer.abort();
    this.unlinkSignal();
  }
}

function settlement<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Every name the graph's `env:` lists hand to children (defaults and nodes, branches and sub-graphs included). */
export function graphEnvNames(graph: GraphFile, files: Pick<RunOptions, "graphPath" | "subgraphs"> = { graphPath: "" }): string[] {
  const walked = walkNodes(graph, files.graphPath, files.subgraphs);
  const names = new Set<string>();
  for (const file of new Set([graph, ...walked.map((w) => w.file)])) file.defaults?.env?.forEach((n) => names.add(n));
  for (const { node } of walked) if (node.kind === "agent" || node.kind === "script") node.env?.forEach((n) => names.add(n));
  return [...names].sort();
}
