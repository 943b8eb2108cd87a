// Runs one scope (the graph, one map branch, or a sub-graph) around the pure
// DagScheduler: starts what it says, and applies each result to the scope's one
// state value (scope-state.ts) — feedback (scope-feedback.ts), `exhausted` and
// `fallback` (scope-outcome.ts), sessions (scope-sessions.ts) — then reports
// completion (or, for a branch, that it only waits on approvals). A resumed
// scope starts from the states the resume built (scope-resume.ts).
// Event-driven: each finished node touches only its dependents.
import { evaluateCondition } from "../condition.ts";
import type { BranchRef, NodeStatus } from "../events.ts";
import { nodeKey } from "../events.ts";
import type { MapNode, SubgraphNode } from "../graph/schema.ts";
import type { AggregateEntry } from "../scheduler/aggregate.ts";
import { DagScheduler, type Action, type Finished } from "../scheduler/dag-scheduler.ts";
import type { ScopeIndex, ScopeNode } from "../scheduler/scope-index.ts";
import { disposition } from "../scheduler/readiness.ts";
import type { FinishedSession, Frame, NodeEnv, NodeResult, RunStop } from "./contract.ts";
import type { PausedApproval, RunContext } from "./context.ts";
import { handle } from "./node-handlers.ts";
import { simpleResult, stoppedResult } from "./node-env.ts";
import { finishedEvent, stateOf, templateData, viewOf, type NodeView } from "./node-view.ts";
import { feedbackLoop } from "./scope-feedback.ts";
import { settle } from "./scope-outcome.ts";
import { keptStarts } from "./scope-resume.ts";
import { ScopeSessions } from "./scope-sessions.ts";
import { ScopeState, type Outcome } from "./scope-state.ts";

/** Where a branch scope sits: its map, item and the map's stop signal. */
export interface BranchPlace {
  map: string;
  index: number;
  item: unknown;
  as?: string;
  signal: AbortSignal;
  /** The map's fail_fast tripped: nothing new starts in it. */
  failFastTripped(): boolean;
  /** Top-level node views (the map's needs are all finished). */
  outer: Record<string, NodeView>;
}

export interface ScopeCallbacks {
  onComplete(): void;
  /** A branch has nothing running and waits only on paused approvals. */
  onParked?(): void;
  startMap?(scope: ScopeRunner, id: string, node: MapNode, done: (r: NodeResult) => void): void;
  startGraph?(scope: ScopeRunner, id: string, node: SubgraphNode, done: (r: NodeResult) => void): void;
}

/** The callbacks that open nested scopes, handed on to every scope inside. */
export function starters(cb: ScopeCallbacks): Pick<ScopeCallbacks, "startMap" | "startGraph"> {
  return { ...(cb.startMap ? { startMap: cb.startMap } : {}), ...(cb.startGraph ? { startGraph: cb.startGraph } : {}) };
}

export class ScopeRunner {
  private readonly state: ScopeState;
  private readonly scheduler: DagScheduler;
  private readonly sessions: ScopeSessions;
  private readonly branch: BranchRef | undefined;
  private readonly chainMembers = new Set<string>();
  private completed = false;
  private parked = false;

  constructor(
    private readonly ctx: RunContext,
    readonly index: ScopeIndex,
    /** The graph file this scope belongs to (the top graph or a sub-graph). */
    readonly frame: Frame,
    private readonly place: BranchPlace | undefined,
    readonly cb: ScopeCallbacks,
  ) {
    this.branch = place ? { map: place.map, index: place.index } : frame.branch;
    for (const chain of index.feedbackChains.values()) chain.forEach((id) => this.chainMembers.add(id));
    this.state = new ScopeState(index, (status, selfReported, delta) => this.tally(status, selfReported, delta));
    this.sessions = new ScopeSessions(ctx, (id) => this.key(id), this.branch, frame.branch, place !== undefined);
    this.scheduler = new DagScheduler(
      index,
      (id) => this.decide(id),
      (a) => this.recordSkip(a),
    );
  }

  /** The id events, the ledger and resume know this node by: "review/x" inside sub-graph review. */
  key(id: string): string {
    return this.frame.prefix + id;
  }

  /** The branch this scope's events carry (its own map's, or the graph node's). */
  get branchRef(): BranchRef | undefined {
    return this.branch;
  }

  /** `nodes.<id>` of this scope's nodes (null prototype). */
  get view(): Record<string, NodeView> {
    return this.state.views;
  }

  /** A settled node's outcome (for the branch summary). */
  outcomeOf(id: string): Outcome | undefined {
    return this.state.settled(id);
  }

  /** Starts from what the resume kept, then runs what the scheduler says. */
  start(): void {
    const kept = keptStarts(this.index, this.ctx.resume, (id) => nodeKey(this.key(id), this.branch));
    const finished = new Map<string, Finished>();
    for (const [id, k] of kept) {
      this.state.keep(id, k.qualifier, k.view);
      if (k.session) this.sessions.note(id, k.session);
      finished.set(id, k.finished);
    }
    this.launchAll(this.scheduler.start(finished));
    this.afterChange();
  }

  /** Template and condition data. */
  scope(): Record<string, unknown> {
    return templateData(this.frame.inputs, this.state.views, this.place);
  }

  entries(): AggregateEntry[] {
    return this.state.entries();
  }

  /** Why work here stops, when it does: the run's or sub-graph's reason, or the map's fail_fast. */
  runStop(): RunStop | null {
    return this.frame.stop() ?? (this.place?.failFastTripped() ? "fail_fast" : null);
  }

  /** The signal this scope's work aborts on. */
  get signal(): AbortSignal {
    return this.place?.signal ?? this.frame.signal;
  }

  private stopping(): boolean {
    return this.frame.stop() !== null || (this.place?.failFastTripped() ?? false);
  }

  private tally(status: NodeStatus, selfReported: boolean, delta: 1 | -1): void {
    const counts = this.ctx.counts;
    counts[status] += delta;
    if (selfReported) counts.self_reported = (counts.self_reported ?? 0) + delta;
  }

  private decide(id: string) {
    const node = this.index.nodes.get(id)!;
    const needs = this.index.needs.get(id)!.map((n) => this.scheduler.state(n)!);
    const notChosen = (this.index.routersOf.get(id) ?? []).some((r) => {
      const s = this.scheduler.state(r);
      return s?.status === "passed" && s.chosen !== undefined && !s.chosen.includes(id);
    });
    const when = node.when ? () => evaluateCondition(node.when!, this.scope()) : undefined;
    const readsStatus = node.kind === "router";
    return disposition({ needs, notChosen, stopping: this.stopping(), readsStatus, ...(when ? { when } : {}) });
  }

  private recordSkip(a: Extract<Action, { type: "skip" }>): void {
    const r = simpleResult(a.status, a.cause, 0, 0);
    this.state.skip(a.id, a.status, a.cause, viewOf(r));
    this.ctx.emitter.emit(finishedEvent(this.key(a.id), this.branch, r));
  }

  /** The feedback round of a chain node, for its node.finished (as its node.started has it). */
  private roundExtra(id: string): { round?: number } {
    return this.chainMembers.has(id) ? { round: this.state.get(id).round } : {};
  }

  private launchAll(actions: Action[]): void {
    for (const a of actions) if (a.type === "run") this.launch(a.id);
  }

  private env(id: string): NodeEnv {
    const e: NodeEnv = {
      run: this.ctx,
      frame: this.frame,
      id: this.key(id),
      signal: this.signal,
      runStop: () => this.runStop(),
      scope: () => this.scope(),
      commandState: () => stateOf(this.frame.inputs, this.scope().nodes as Record<string, NodeView>, this.place),
      sessionOf: (target) => this.sessions.of(target, this.index.nodes.has(target)),
    };
    if (this.branch) e.branch = this.branch;
    // Only a branch's own scope has an item: a sub-graph in a branch sees its inputs, not the item.
    if (this.place) e.item = this.place.item;
    const s = this.state.get(id);
    if (this.chainMembers.has(id)) e.round = s.round;
    if (s.quote !== undefined) e.feedbackQuote = s.quote;
    return e;
  }

  private launch(id: string): void {
    const node = this.index.nodes.get(id)!;
    this.state.run(id);
    if (node.kind === "map") {
      this.cb.startMap!(this, id, node, (r) => this.onResult(id, r));
      return;
    }
    if (node.kind === "graph") {
      this.cb.startGraph!(this, id, node, (r) => this.onResult(id, r));
      return;
    }
    this.ctx.begin();
    handle(this.env(id), node)
      .then((r) => this.onResult(id, r))
      .catch((e) => this.ctx.fail(e))
      .finally(() => this.ctx.end());
  }

  private onResult(id: string, r: NodeResult): void {
    if (this.ctx.fatal !== null) return;
    const node = this.index.nodes.get(id)!;
    if (r.paused) this.pause(id, node, r.paused.prompt);
    else if (!this.feedback(id, node, r)) this.finalize(id, node, r);
    this.afterChange();
  }

  private pause(id: string, node: ScopeNode, prompt: string | undefined): void {
    this.state.pause(id, prompt);
    const entry: PausedApproval = {
      node: this.key(id),
      cancel: () => {
        this.ctx.paused.delete(entry);
        this.finalize(id, node, stoppedResult(this.runStop(), 1, 0));
        this.afterChange();
      },
    };
    if (this.branch) entry.branch = this.branch;
    if (prompt !== undefined) entry.prompt = prompt;
    this.ctx.paused.add(entry);
  }

  /** A feedback loop when the node's feedback holds (ADR 0002): false when the result stands. */
  private feedback(id: string, node: ScopeNode, r: NodeResult): boolean {
    const s = this.state.get(id);
    const loop = feedbackLoop({
      id,
      node,
      result: r,
      chain: this.index.feedbackChains.get(id),
      loops: s.loops,
      round: s.round,
      stopping: this.stopping(),
      scope: () => this.scope(),
    });
    if (loop === null) return false;
    this.noteSession(id, node, r);
    this.ctx.emitter.emit(finishedEvent(this.key(id), this.branch, r, this.roundExtra(id)));
    this.state.loop(id, loop.chain, loop.to, loop.quote, loop.view);
    this.launchAll(this.scheduler.reset(loop.chain));
    return true;
  }

  private finalize(id: string, node: ScopeNode, result: NodeResult): void {
    const {
      result: r,
      recovered,
      fallback,
    } = settle(
      node,
      result,
      () => this.scope(),
      (target) => !this.stopping() && this.scheduler.canTrigger(target),
    );
    const outcome: Outcome = { status: r.status, recovered, selfReported: r.status === "passed" && r.qualifier === "self-reported" };
    if (fallback !== undefined) outcome.fallback = fallback;
    this.state.finish(id, outcome, viewOf(r, recovered));
    this.noteSession(id, node, r);
    this.ctx.emitter.emit(
      finishedEvent(this.key(id), this.branch, r, {
        recovered,
        ...(fallback ? { fallback: this.key(fallback) } : {}),
        ...this.roundExtra(id),
      }),
    );
    const f: Finished = { status: r.status, recovered };
    if (r.chosen) f.chosen = r.chosen;
    this.launchAll(this.scheduler.finish(id, f, fallback));
  }

  /** An agent node's last session, for the nodes that continue it (ADR 0023). */
  private noteSession(id: string, node: ScopeNode, r: NodeResult): void {
    if (node.kind !== "agent") return;
    const f: FinishedSession = { status: r.status, sessionId: r.sessionId ?? null };
    if (r.sessionCostUsd !== undefined) f.sessionCostUsd = r.sessionCostUsd;
    this.sessions.note(id, f);
  }

  private afterChange(): void {
    if (this.completed) return;
    if (this.scheduler.isComplete()) {
      this.completed = true;
      this.sessions.drop();
      this.cb.onComplete();
      return;
    }
    if (this.place && !this.parked && this.state.running === 0 && this.state.paused > 0) {
      this.parked = true;
      this.cb.onParked?.();
    }
  }
}
