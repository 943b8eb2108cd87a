// The scheduling decisions of one scope, as a synchronous state machine with
// no timers and no I/O: tell it what finished, it answers what to start and
// what to skip. Work is proportional to the edges touched (pending counters),
// never a scan of every node.
import type { Cause, NodeStatus } from "../events.ts";
import type { ScopeIndex } from "./scope-index.ts";
import type { Disposition } from "./readiness.ts";

export interface Finished {
  status: NodeStatus;
  recovered: boolean;
  /** A router's chosen targets. */
  chosen?: string[];
}

export type Action = { type: "run"; id: string } | { type: "skip"; id: string; status: "skipped" | "cancelled"; cause: Cause };

type Phase = "waiting" | "running" | "finished";

export class DagScheduler {
  private readonly phase = new Map<string, Phase>();
  private readonly pending = new Map<string, number>();
  private readonly finished = new Map<string, Finished>();
  /** Fallback targets not triggered yet (they wait on a gate, not on needs). */
  private readonly gated = new Set<string>();
  private readonly ownersLeft = new Map<string, number>();
  private done = 0;
  /** While kept nodes settle, readiness is decided once afterwards, in topological order. */
  private starting = false;

  constructor(
    readonly index: ScopeIndex,
    /** Called once a node's waits are all finished. */
    private readonly decide: (id: string) => Disposition,
    /** Called as a skip settles, before what waited for it is decided (so they can see it). */
    private readonly onSkip: (action: Extract<Action, { type: "skip" }>) => void = () => {},
  ) {
    for (const id of index.ids) {
      this.phase.set(id, "waiting");
      this.pending.set(id, index.waitsFor.get(id)!.length);
    }
    for (const [target, owners] of index.fallbackOwners) {
      this.gated.add(target);
      this.ownersLeft.set(target, owners.length);
    }
  }

  /** Nodes kept from a previous run count as finished before anything starts. */
  start(kept: ReadonlyMap<string, Finished> = new Map()): Action[] {
    const actions: Action[] = [];
    this.starting = true;
    for (const [id, f] of kept) {
      if (!this.phase.has(id)) continue;
      this.gated.delete(id);
      this.settle(id, f, actions);
    }
    this.starting = false;
    for (const id of this.index.order) {
      if (this.phase.get(id) === "waiting" && this.pending.get(id) === 0 && !this.gated.has(id)) this.ready(id, actions);
    }
    return this.drain(actions);
  }

  /** Record a final result and release what waited for it. `fallback`: the node names one and did not pass. */
  finish(id: string, f: Finished, fallback?: string): Action[] {
    const actions: Action[] = [];
    if (fallback !== undefined && this.gated.has(fallback)) {
      this.gated.delete(fallback);
      if (this.phase.get(fallback) === "waiting" && this.pending.get(fallback) === 0) this.ready(fallback, actions);
    }
    this.settle(id, f, actions);
    return this.drain(actions);
  }

  /** Feedback: put a chain back to waiting and start again from its head. */
  reset(chain: readonly string[]): Action[] {
    const inChain = new Set(chain);
    for (const id of chain) {
      if (this.phase.get(id) === "finished") {
        this.finished.delete(id);
        this.done--;
      }
      this.phase.set(id, "waiting");
    }
    const touched = new Set(chain);
    for (const id of chain)
      for (const d of this.index.dependents.get(id)!) if (!inChain.has(d) && this.phase.get(d) === "waiting") touched.add(d);
    for (const id of touched) {
      this.pending.set(id, this.index.waitsFor.get(id)!.filter((w) => this.phase.get(w) !== "finished").length);
    }
    const actions: Action[] = [];
    for (const id of chain) if (this.pending.get(id) === 0 && !this.gated.has(id)) this.ready(id, actions);
    return this.drain(actions);
  }

  /** A fallback target that has not been triggered (or skipped) yet. */
  canTrigger(id: string): boolean {
    return this.gated.has(id) && this.phase.get(id) === "waiting";
  }

  state(id: string): Finished | undefined {
    return this.finished.get(id);
  }
  isFinished(id: string): boolean {
    return this.phase.get(id) === "finished";
  }
  isComplete(): boolean {
    return this.done === this.index.ids.length;
  }
  /** Ids not finished yet (for stops and pauses; not used on the hot path). */
  unfinished(): string[] {
    return this.index.ids.filter((id) => this.phase.get(id) !== "finished");
  }

  private settle(id: string, f: Finished, actions: Action[]): void {
    if (this.phase.get(id) === "finished") return;
    this.phase.set(id, "finished");
    this.finished.set(id, f);
    this.done++;
    for (const d of this.index.dependents.get(id)!) {
      const n = this.pending.get(d)! - 1;
      this.pending.set(d, n);
      if (n === 0 && !this.starting && this.phase.get(d) === "waiting" && !this.gated.has(d)) this.ready(d, actions);
    }
    for (const target of this.fallbacksOwnedBy(id)) {
      const left = this.ownersLeft.get(target)! - 1;
      this.ownersLeft.set(target, left);
      if (left === 0 && this.gated.has(target) && this.phase.get(target) === "waiting") {
        actions.push({ type: "skip", id: target, status: "skipped", cause: "fallback_unused" });
      }
    }
  }

  private fallbacksOwnedBy(id: string): string[] {
    const node = this.index.nodes.get(id)!;
    const target = "fallback" in node ? node.fallback : undefined;
    return target !== undefined && this.ownersLeft.has(target) ? [target] : [];
  }

  private ready(id: string, actions: Action[]): void {
    const d = this.decide(id);
    actions.push(d.run ? { type: "run", id } : { type: "skip", id, status: d.status, cause: d.cause });
  }

  /** Skips settle at once and may release more nodes; runs are handed to the caller. */
  private drain(actions: Action[]): Action[] {
    const out: Action[] = [];
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      if (a.type === "skip") {
        if (this.phase.get(a.id) === "finished") continue;
        this.gated.delete(a.id);
        out.push(a);
        this.onSkip(a);
        this.settle(a.id, { status: a.status, recovered: false }, actions);
      } else if (this.phase.get(a.id) === "waiting") {
        this.phase.set(a.id, "running");
        out.push(a);
      }
    }
    return out;
  }
}
