// runGraph: plan (inputs, refusals) before anything starts, then run.started,
// the top scope, the run wall timer and Ctrl-C, and exactly one run.finished.
import { RefusalError } from "../errors.ts";
import type { RunStatus } from "../events.ts";
import { walkNodes, type WalkedNode } from "../graph/graph-walk.ts";
import {
  CancelRequested,
  refusingAgentRunner,
  refusingApprovals,
  refusingClock,
  refusingCommandRunner,
  refusingGit,
  refusingLedger,
  refusingMerge,
} from "../ports.ts";
import { aggregate } from "../scheduler/aggregate.ts";
import { scopeIndexOf } from "../scheduler/scope-index.ts";
import { RunContext } from "./context.ts";
import { Emitter } from "./emitter.ts";
import { topFrame } from "./frame.ts";
import { MapRunner } from "./map-runner.ts";
import { planRun, runLimits } from "./plan.ts";
import { ScopeRunner } from "./scope-runner.ts";
import { SubgraphRunner } from "./subgraph-runner.ts";
import { priorWorkspaces } from "../workspace/prior.ts";
import { runFinished, runStarted } from "./run-events.ts";
import { QuietRun } from "./run-quiet.ts";
import { settlement } from "./settlement.ts";
import type { RunLimits, RunOptions, RunOutcome, RunPlan, RunPorts } from "./types.ts";

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
  private readonly quiet: QuietRun;
  /** Every node of the run, sub-graphs' and branches' included: walked once. */
  private readonly walked: WalkedNode[];
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
    this.walked = walkNodes(options.graph, options.graphPath, options.subgraphs);
    const ctx = new RunContext({
      options,
      ports: this.ports,
      emitter: this.emitter,
      inputs: this.plan.inputs,
      limits: this.limits,
      // The driver, not the context, reads the resume for them (ADR 0036).
      priorWorkspaces: priorWorkspaces(this.walked, options.resume?.nodes),
      onQuiet: () => this.onQuiet(),
      onFatal: (e) => this.abandon(e),
    });
    this.ctx = ctx;
    this.quiet = new QuietRun(ctx, options, (reason) => this.finish("paused", undefined, reason));
    this.top = new ScopeRunner(ctx, scopeIndexOf(options.graph.nodes), topFrame(ctx), undefined, {
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
    try {
      this.emitter.emit(runStarted(this.options, this.plan, this.limits, this.walked));
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
    const onAbort = () => {
      // Asked by another process (ADR 0062): who asked is recorded before the stop.
      if (signal.reason instanceof CancelRequested) this.recordCancelRequest(signal.reason);
      this.ctx.requestStop("interrupted");
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    this.unlinkSignal = () => signal.removeEventListener("abort", onAbort);
  }

  private recordCancelRequest(r: CancelRequested): void {
    if (this.ended || this.finishing || this.ctx.stop !== null) return;
    try {
      this.emitter.emit({ type: "run.cancel_requested", request: r.request, by: r.by, via: r.via, requested_at: r.requestedAt });
    } catch (e) {
      this.ctx.fail(e);
    }
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

  /** No work can go on: what is left is parked on usage limits, waits on approvals, or is stuck. */
  private onQuiet(): void {
    if (this.ended || this.finishing || this.ctx.fatal !== null) return;
    this.quiet.handle();
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
    const totals = {
      runId: this.options.runId,
      costUsd: ctx.costDone,
      costUnknown: ctx.costUnknown,
      wallMs: Math.max(0, this.ports.clock.now() - ctx.startedAt),
      counts: ctx.counts,
    };
    const { event, outcome } = runFinished(totals, status, output, reason);
    this.emitter.emit(event);
    this.cleanup();
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
