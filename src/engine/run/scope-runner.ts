// Runs one scope (the graph, or one map branch) around the pure DagScheduler:
// starts what it says, records results, applies feedback, `exhausted` and
// `fallback`, and reports completion (or, for a branch, that it only waits on
// approvals). Event-driven: each finished node touches only its dependents.
import { evaluateCondition } from "../condition.ts";
import { TemplateError } from "../errors.ts";
import { nodeKey, type BranchRef, type NodeStatus } from "../events.ts";
import type { MapNode, SubgraphNode } from "../graph/schema.ts";
import type { AggregateEntry } from "../scheduler/aggregate.ts";
import { DagScheduler, type Action, type Finished } from "../scheduler/dag-scheduler.ts";
import { upstreamOf, type ScopeIndex, type ScopeNode } from "../scheduler/scope-index.ts";
import { disposition } from "../scheduler/readiness.ts";
import { renderDeep } from "../template/render.ts";
import { quoteFeedback } from "../verdict/retry.ts";
import { renderStamp } from "./judging.ts";
import { handle } from "./node-handlers.ts";
import { keptIds, keptResult } from "./scope-resume.ts";
import type { PausedApproval, RunContext } from "./context.ts";
import { simpleResult, stoppedResult } from "./node-env.ts";
import type { FinishedSession, Frame, NodeEnv, NodeResult } from "./contract.ts";
import { finishedEvent, stateOf, viewOf, type NodeView } from "./node-view.ts";
import { isObject } from "../json-object.ts";

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

export interface Meta {
  kind: string;
  status: NodeStatus;
  selfReported?: boolean;
  recovered: boolean;
  fallback?: string;
}

export class ScopeRunner {
  /** Keyed by node id: null prototype, so no id can meet an inherited member. */
  readonly view: Record<string, NodeView> = Object.create(null) as Record<string, NodeView>;
  private readonly meta = new Map<string, Meta>();
  private readonly scheduler: DagScheduler;
  private readonly branch: BranchRef | undefined;
  private readonly chainMembers = new Set<string>();
  private readonly rounds = new Map<string, number>();
  private readonly roundOf = new Map<string, number>();
  private readonly feedbackQuotes = new Map<string, string>();
  private readonly counted = new Set<string>();
  /** The sessions a branch scope noted: only its own nodes read them, so they go when it completes. */
  private readonly sessionKeys = new Set<string>();
  private running = 0;
  private pausedHere = 0;
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

  start(): void {
    const kept = new Map<string, Finished>();
    const resumeKey = (id: string) => nodeKey(this.key(id), this.branch);
    for (const id of keptIds(this.index, this.ctx.resume, resumeKey)) {
      const k = keptResult(this.index, id, this.ctx.resume!.nodes[resumeKey(id)]!);
      this.view[id] = k.view;
      const selfReported = k.view.qualifier === "self-reported";
      this.meta.set(id, { kind: this.index.nodes.get(id)!.kind, status: "passed", recovered: false, selfReported });
      this.count(id, "passed", selfReported);
      if (this.index.nodes.get(id)!.kind === "agent") {
        const kn = this.ctx.resume!.nodes[resumeKey(id)]!;
        this.noteSession(id, {
          status: "passed",
          sessionId: kn.sessionId ?? null,
          ...(kn.sessionCostUsd !== undefined ? { sessionCostUsd: kn.sessionCostUsd } : {}),
        });
      }
      kept.set(id, k.finished);
    }
    this.launchAll(this.scheduler.start(kept));
    this.afterChange();
  }

  /** A finished agent node's last session, for nodes that continue it (ADR 0023). */
  private noteSession(id: string, f: FinishedSession): void {
    const key = nodeKey(this.key(id), this.branch);
    this.ctx.sessions.set(key, f);
    if (this.place) this.sessionKeys.add(key);
    if (f.sessionId !== null && f.sessionCostUsd !== undefined && !this.ctx.sessionCosts.has(f.sessionId))
      this.ctx.sessionCosts.set(f.sessionId, f.sessionCostUsd);
  }

  private sessionOf(id: string): FinishedSession | undefined {
    // A node of this scope (this branch's own), else the scope around the map (the validator allows
    // only those): a map branch shares its parent's frame, so the outer key has the frame's branch.
    return this.ctx.sessions.get(this.index.nodes.has(id) ? nodeKey(this.key(id), this.branch) : nodeKey(this.key(id), this.frame.branch));
  }

  private noteResult(id: string, node: ScopeNode, r: NodeResult): void {
    if (node.kind !== "agent") return;
    this.noteSession(id, {
      status: r.status,
      sessionId: r.sessionId ?? null,
      ...(r.sessionCostUsd !== undefined ? { sessionCostUsd: r.sessionCostUsd } : {}),
    });
  }

  /** Template and condition data. */
  scope(): Record<string, unknown> {
    const nodes = this.place ? { ...this.place.outer, ...this.view } : this.view;
    const s: Record<string, unknown> = { inputs: this.frame.inputs, nodes };
    if (this.place) {
      s.item = this.place.item;
      s.index = this.place.index;
      if (this.place.as) s[this.place.as] = this.place.item;
    }
    return s;
  }

  entries(): AggregateEntry[] {
    const endsThatRan = this.index.ids.filter((id) => {
      const m = this.meta.get(id);
      return m !== undefined && m.kind === "end" && m.status !== "skipped";
    });
    // Only through nodes that ran: a failure whose dependent was skipped never reached the end
    // (a join runs with a skipped need), so the end does not speak for it.
    const spokenFor = upstreamOf(this.index, endsThatRan, (id) => this.meta.get(id)?.status !== "skipped");
    const out: AggregateEntry[] = [];
    for (const id of this.index.ids) {
      const m = this.meta.get(id);
      if (!m) continue;
      const fb = m.fallback !== undefined ? this.meta.get(m.fallback) : undefined;
      out.push({
        id,
        kind: m.kind,
        status: m.status,
        recovered: m.recovered,
        handled: fb !== undefined && fb.status !== "skipped",
        upstreamOfEnd: spokenFor.has(id),
      });
    }
    return out;
  }

  private stopping(): boolean {
    return this.frame.stop() !== null || (this.place?.failFastTripped() ?? false);
  }

  private decide(id: string) {
    const node = this.index.nodes.get(id)!;
    const needs = this.index.needs.get(id)!.map((n) => this.scheduler.state(n)!);
    const notChosen = (this.index.routersOf.get(id) ?? []).some((r) => {
      const s = this.scheduler.state(r);
      return s?.status === "passed" && s.chosen !== undefined && !s.chosen.includes(id);
    });
    const when = node.when ? () => evaluateCondition(node.when!, this.scope()) : undefined;
    return disposition({ needs, notChosen, stopping: this.stopping(), ...(when ? { when } : {}) });
  }

  private recordSkip(a: Extract<Action, { type: "skip" }>): void {
    const r = simpleResult(a.status, a.cause, 0, 0);
    this.view[a.id] = viewOf(r);
    this.meta.set(a.id, { kind: this.index.nodes.get(a.id)!.kind, status: a.status, recovered: false });
    this.count(a.id, a.status);
    this.ctx.emitter.emit(finishedEvent(this.key(a.id), this.branch, r));
  }

  /** The feedback round of a chain node, for its node.finished (as its node.started has it). */
  private roundExtra(id: string): { round?: number } {
    return this.chainMembers.has(id) ? { round: this.roundOf.get(id) ?? 1 } : {};
  }

  private count(id: string, status: NodeStatus, selfReported = false): void {
    this.ctx.counts[status]++;
    if (selfReported) this.ctx.counts.self_reported = (this.ctx.counts.self_reported ?? 0) + 1;
    this.counted.add(id);
  }

  private launchAll(actions: Action[]): void {
    for (const a of actions) if (a.type === "run") this.launch(a.id);
  }

  /** Why work here stops, when it does: the run's or sub-graph's reason, or the map's fail_fast. */
  runStop() {
    return this.frame.stop() ?? (this.place?.failFastTripped() ? ("fail_fast" as const) : null);
  }

  /** The signal this scope's work aborts on. */
  get signal(): AbortSignal {
    return this.place?.signal ?? this.frame.signal;
  }

  private env(id: string): NodeEnv {
    const e: NodeEnv = {
      run: this.ctx,
      frame: this.frame,
      id: this.key(id),
      signal: this.place?.signal ?? this.frame.signal,
      runStop: () => this.runStop(),
      scope: () => this.scope(),
      commandState: () => stateOf(this.frame.inputs, this.scope().nodes as Record<string, NodeView>, this.place),
      sessionOf: (target) => this.sessionOf(target),
    };
    if (this.branch) e.branch = this.branch;
    // Only a branch's own scope has an item: a sub-graph in a branch sees its inputs, not the item.
    if (this.place) e.item = this.place.item;
    if (this.chainMembers.has(id)) e.round = this.roundOf.get(id) ?? 1;
    const quote = this.feedbackQuotes.get(id);
    if (quote !== undefined) e.feedbackQuote = quote;
    return e;
  }

  private launch(id: string): void {
    const node = this.index.nodes.get(id)!;
    this.running++;
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
    this.running--;
    if (this.ctx.fatal !== null) return;
    const node = this.index.nodes.get(id)!;
    if (r.paused) this.pause(id, node, r.paused.prompt);
    else if (!this.feedback(id, node, r)) this.finalize(id, node, r);
    this.afterChange();
  }

  private pause(id: string, node: ScopeNode, prompt: string | undefined): void {
    this.pausedHere++;
    const entry: PausedApproval = {
      node: this.key(id),
      cancel: () => {
        this.ctx.paused.delete(entry);
        this.pausedHere--;
        this.finalize(id, node, stoppedResult(this.runStop(), 1, 0));
        this.afterChange();
      },
    };
    if (this.branch) entry.branch = this.branch;
    if (prompt !== undefined) entry.prompt = prompt;
    this.ctx.paused.add(entry);
  }

  /** Feedback: a loop back to an ancestor, bounded by `max` rounds (ADR 0002). */
  private feedback(id: string, node: ScopeNode, r: NodeResult): boolean {
    const fb = "feedback" in node ? node.feedback : undefined;
    const chain = this.index.feedbackChains.get(id);
    if (!fb || !chain || this.stopping() || r.status === "cancelled") return false;
    const done = this.rounds.get(id) ?? 0;
    if (done >= fb.max) return false;
    const view = viewOf(r);
    const holds = fb.when
      ? evaluateCondition(fb.when, { ...this.scope(), nodes: { ...(this.scope().nodes as object), [id]: view } })
      : r.status !== "passed";
    if (!holds) return false;
    this.rounds.set(id, done + 1);
    this.noteResult(id, node, r);
    this.ctx.emitter.emit(finishedEvent(this.key(id), this.branch, r, this.roundExtra(id)));
    this.view[id] = view; // the head may quote or read this round's result
    this.feedbackQuotes.set(fb.to, quoteFeedback(id, this.roundOf.get(id) ?? 1, { ...r, failedChecks: r.failedChecks }));
    for (const c of chain) {
      const m = this.meta.get(c);
      if (m && this.counted.delete(c)) {
        this.ctx.counts[m.status]--;
        if (m.selfReported) this.ctx.counts.self_reported = (this.ctx.counts.self_reported ?? 1) - 1;
      }
      this.roundOf.set(c, (this.roundOf.get(c) ?? 1) + 1);
    }
    this.launchAll(this.scheduler.reset(chain));
    return true;
  }

  private finalize(id: string, node: ScopeNode, r: NodeResult): void {
    let recovered = false;
    if (r.status !== "passed" && r.status !== "cancelled" && "exhausted" in node && node.exhausted) {
      try {
        const scope = { ...this.scope(), error: r.error ?? r.cause ?? r.status };
        let output = renderDeep(node.exhausted.output, scope);
        const stamp = "stamp" in node ? renderStamp(node.stamp, scope) : undefined;
        if (stamp && isObject(output)) output = { ...output, ...stamp };
        r = { ...r, output };
        recovered = true;
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        r = { ...r, error: `${r.error ?? r.cause}; the exhausted output could not be rendered: ${e.message}` };
      }
    }
    let fallback: string | undefined;
    const target = "fallback" in node ? node.fallback : undefined;
    if ((r.status === "failed" || r.status === "error") && target && !this.stopping() && this.scheduler.canTrigger(target))
      fallback = target;
    this.view[id] = viewOf(r, recovered);
    const selfReported = r.status === "passed" && r.qualifier === "self-reported";
    const meta: Meta = { kind: node.kind, status: r.status, recovered, selfReported };
    if (fallback !== undefined) meta.fallback = fallback;
    this.meta.set(id, meta);
    this.count(id, r.status, selfReported);
    this.noteResult(id, node, r);
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

  private afterChange(): void {
    if (this.completed) return;
    if (this.scheduler.isComplete()) {
      this.completed = true;
      // A finished branch keeps nothing in the run's context (10,000 branches, issue 20).
      for (const key of this.sessionKeys) this.ctx.sessions.delete(key);
      this.cb.onComplete();
      return;
    }
    if (this.place && !this.parked && this.running === 0 && this.pausedHere > 0) {
      this.parked = true;
      this.cb.onParked?.();
    }
  }

  /** Node views and metadata for the branch summary. */
  metaOf(id: string): Meta | undefined {
    return this.meta.get(id);
  }
}
