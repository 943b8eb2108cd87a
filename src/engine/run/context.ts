// State shared by every scope of one run: ports, the event emitter, process
// slots, spending, the stop flag, and the count of live tasks that tells a
// finished run from one waiting at an approval. Scopes, maps and sub-graphs use
// it whole; a node handler sees it only as the node contract's NodeRun (contract.ts).
import { ZERO_COUNTS, type BranchRef, type RunCounts } from "../events.ts";
import type { GraphFile } from "../graph/schema.ts";
import type { Clock, CommandInput, Sitting } from "../ports.ts";
import { Slots } from "../scheduler/slots.ts";
import { OutputSchemas } from "../verdict/output-schema.ts";
import type { Emitter } from "./emitter.ts";
import { LimitBook } from "./limits.ts";
import { commandInputs } from "./node-env.ts";
import type { FinishedSession, NodeRun, RunStop } from "./contract.ts";
import type { ResumeState, RunLimits, RunOptions, RunPorts } from "./types.ts";
import { Workspaces, type PriorWorkspace } from "../workspace/workspaces.ts";

export interface PausedApproval {
  node: string;
  branch?: BranchRef;
  prompt?: string;
  /** Ends the approval as cancelled (the run is stopping). */
  cancel(): void;
}

/** What a context is made of. The driver (or a worker's branch job) computes all of it first. */
export interface RunContextSpec {
  options: RunOptions;
  ports: RunPorts;
  emitter: Emitter;
  /** The run's inputs, resolved against the graph's declarations. */
  inputs: Record<string, unknown>;
  limits: RunLimits;
  /** The worktrees earlier sessions of a resumed run kept (priorWorkspaces; empty on a fresh run). */
  priorWorkspaces: ReadonlyMap<string, PriorWorkspace>;
  /** Called when no task is live any more (the run is done, paused, or stuck). */
  onQuiet: () => void;
  onFatal: (e: unknown) => void;
}

export class RunContext implements NodeRun {
  readonly graph: GraphFile;
  readonly slots: Slots;
  readonly schemas = new OutputSchemas();
  readonly controller = new AbortController();
  readonly counts: RunCounts = { ...ZERO_COUNTS, self_reported: 0 };
  readonly paused = new Set<PausedApproval>();
  /** Usage/rate limits and the attempts parked on them (ADR 0022). */
  readonly usageLimits = new LimitBook(() => this.checkQuiet());
  readonly startedAt: number;
  stop: RunStop | null = null;
  costDone = 0;
  costUnknown = 0;
  private readonly liveCost = new Map<object, number>();
  private runBudgetReported = false;
  private active = 0;
  fatal: unknown = null;
  /** The last total cost each session's harness reported (Sitting.sessionCostUsd), by session id:
   *  what the next sitting resuming that session subtracts from its own total (ADR 0023). */
  readonly sessionCosts = new Map<string, number>();
  /** The last session of each finished agent node, by nodeKey(): what session: continues. */
  readonly sessions = new Map<string, FinishedSession>();
  /** Computed once: a large input (a 10,000-item list) must not be serialised per command. */
  readonly commandInputs: readonly CommandInput[];
  /** The run's git worktrees (ADR 0020). */
  readonly workspaces: Workspaces;

  readonly options: RunOptions;
  readonly ports: RunPorts;
  readonly emitter: Emitter;
  readonly inputs: Record<string, unknown>;
  readonly limits: RunLimits;
  private readonly onQuiet: () => void;
  private readonly onFatal: (e: unknown) => void;

  constructor(spec: RunContextSpec) {
    this.options = spec.options;
    this.ports = spec.ports;
    this.emitter = spec.emitter;
    this.inputs = spec.inputs;
    this.limits = spec.limits;
    this.onQuiet = spec.onQuiet;
    this.onFatal = spec.onFatal;
    this.graph = spec.options.graph;
    this.slots = new Slots(spec.limits.concurrency);
    this.startedAt = spec.ports.clock.now();
    this.commandInputs = commandInputs(spec.inputs);
    this.workspaces = new Workspaces(spec.ports.git, spec.options.runId, spec.priorWorkspaces);
    for (const [id, cost] of Object.entries(spec.options.resume?.sessionCosts ?? {})) this.sessionCosts.set(id, cost);
  }

  get clock(): Clock {
    return this.ports.clock;
  }
  get resume(): ResumeState | undefined {
    return this.options.resume;
  }
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A task (node attempt loop, approval question, deferred step) is live. */
  begin(): void {
    this.active++;
  }
  end(): void {
    this.active--;
    this.checkQuiet();
  }
  /** Quiet: no live task can go on — none is left, or every one is parked on a limit. */
  isQuiet(): boolean {
    return this.active === this.usageLimits.parkedCount;
  }
  private checkQuiet(): void {
    if (this.isQuiet()) this.onQuiet();
  }

  /** Run a piece of scheduling later but still count it as live work. */
  defer(step: () => void): void {
    this.begin();
    queueMicrotask(() => {
      try {
        step();
      } catch (e) {
        this.fail(e);
      } finally {
        this.end();
      }
    });
  }

  fail(e: unknown): void {
    if (this.fatal !== null) return;
    this.fatal = e;
    this.controller.abort(e);
    this.onFatal(e);
  }

  /** First reason wins. Cancels every live sitting and check; approvals waiting end cancelled. */
  requestStop(reason: RunStop): void {
    if (this.stop !== null) return;
    this.stop = reason;
    this.controller.abort(new Error(`run stopped: ${reason}`));
    this.defer(() => {
      for (const p of [...this.paused]) p.cancel();
    });
  }

  // --- spending ---------------------------------------------------------

  spent(): number {
    let total = this.costDone;
    for (const v of this.liveCost.values()) total += v;
    return total;
  }

  remainingBudget(): number | null {
    return this.limits.budgetUsd === null ? null : this.limits.budgetUsd - this.spent();
  }

  /** Live cost of a sitting in progress (cumulative for that sitting). */
  noteLiveCost(token: object, costUsd: number): void {
    this.liveCost.set(token, costUsd);
    this.checkRunBudget();
  }

  /** A sitting ended: its cost moves from live to done. */
  settleCost(token: object, sitting: Pick<Sitting, "costUsd">): void {
    this.liveCost.delete(token);
    if (sitting.costUsd === null) this.costUnknown++;
    else this.costDone += sitting.costUsd;
    this.checkRunBudget();
  }

  private checkRunBudget(): void {
    const limit = this.limits.budgetUsd;
    if (limit === null || this.runBudgetReported) return;
    const actual = this.spent();
    if (actual > limit) {
      this.runBudgetReported = true;
      this.emitter.emit({ type: "cap.overrun", scope: "run", cap: "budget_usd", limit, actual });
      this.requestStop("budget");
    }
  }
}
