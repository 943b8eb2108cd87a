// The state of one scope's nodes as one value (ADR 0036): each node is in
// exactly one NodeState, a union typed the way gemini-cli types its tool calls —
// each variant holds what that state has and nothing else. A resumed scope starts
// from the states the resume built (`kept`); every change goes through one method
// here, which keeps the views templates read, the running and paused counts, and
// the run's node counts in step. What to start next stays the DagScheduler's.
import type { Cause, NodeStatus, Qualifier } from "../events.ts";
import type { AggregateEntry } from "../scheduler/aggregate.ts";
import { upstreamOf, type ScopeIndex } from "../scheduler/scope-index.ts";
import type { NodeView } from "./node-view.ts";

/** How a node that ran settled: its status, whether `exhausted:` recovered it, the fallback it triggered. */
export interface Outcome {
  status: NodeStatus;
  recovered: boolean;
  /** Passed with only the node's own words behind it (counted apart, ADR 0002). */
  selfReported: boolean;
  fallback?: string;
}

/** What every state carries through feedback rounds. */
interface Carried {
  /** The feedback round the node is in (1 until a loop resets it). */
  round: number;
  /** Feedback loops this node sent back so far (bounded by its feedback.max). */
  loops: number;
  /** For a feedback loop's head: the failure quoted into its next prompt. */
  quote?: string;
  /** What `nodes.<id>` shows: the last result it had, kept while a loop runs it again. */
  view?: NodeView;
}

export type NodeState =
  /** Not started (yet, or again after a feedback loop reset it). */
  | (Carried & { phase: "waiting" })
  /** Its handler (or its map's or sub-graph's runner) is at work. */
  | (Carried & { phase: "running" })
  /** An approval waiting for a person. */
  | (Carried & { phase: "paused"; prompt?: string })
  /** It ran and settled in this session. */
  | (Carried & { phase: "finished"; outcome: Outcome })
  /** It never ran: the scheduler skipped or cancelled it. */
  | (Carried & { phase: "skipped"; status: "skipped" | "cancelled"; cause: Cause })
  /** It passed in an earlier session of a resumed run and does not run again. */
  | (Carried & { phase: "kept"; qualifier: Qualifier | null });

export type SettledState = Extract<NodeState, { phase: "finished" | "skipped" | "kept" }>;

/** Told each time a node's status enters (+1) or leaves (-1) the run's counts. */
export type Tally = (status: NodeStatus, selfReported: boolean, delta: 1 | -1) => void;

export function isSettled(s: NodeState): s is SettledState {
  return s.phase === "finished" || s.phase === "skipped" || s.phase === "kept";
}

/** A settled node's status, whether it was self-reported, and its fallback. */
export function outcomeOf(s: SettledState): Outcome {
  if (s.phase === "finished") return s.outcome;
  if (s.phase === "skipped") return { status: s.status, recovered: false, selfReported: false };
  return { status: "passed", recovered: false, selfReported: s.qualifier === "self-reported" };
}

export class ScopeState {
  /** `nodes.<id>` as templates and conditions read it, kept with the states. Keyed by node id:
   *  null prototype, so no id can meet an inherited member. */
  readonly views: Record<string, NodeView> = Object.create(null) as Record<string, NodeView>;
  private readonly nodes = new Map<string, NodeState>();
  private runningCount = 0;
  private pausedCount = 0;

  constructor(
    private readonly index: ScopeIndex,
    private readonly tally: Tally,
  ) {
    for (const id of index.ids) this.nodes.set(id, { phase: "waiting", round: 1, loops: 0 });
  }

  get(id: string): NodeState {
    return this.nodes.get(id)!;
  }

  /** The node's settled outcome; undefined while it has none. */
  settled(id: string): Outcome | undefined {
    const s = this.nodes.get(id);
    return s && isSettled(s) ? outcomeOf(s) : undefined;
  }

  /** Nodes whose handler or runner is at work. */
  get running(): number {
    return this.runningCount;
  }
  /** Approvals of this scope waiting for a person. */
  get paused(): number {
    return this.pausedCount;
  }

  keep(id: string, qualifier: Qualifier | null, view: NodeView): void {
    this.put(id, { ...this.carried(id), phase: "kept", qualifier, view });
  }
  skip(id: string, status: "skipped" | "cancelled", cause: Cause, view: NodeView): void {
    this.put(id, { ...this.carried(id), phase: "skipped", status, cause, view });
  }
  run(id: string): void {
    this.put(id, { ...this.carried(id), phase: "running" });
  }
  pause(id: string, prompt: string | undefined): void {
    this.put(id, { ...this.carried(id), phase: "paused", ...(prompt !== undefined ? { prompt } : {}) });
  }
  finish(id: string, outcome: Outcome, view: NodeView): void {
    this.put(id, { ...this.carried(id), phase: "finished", outcome, view });
  }

  /** A feedback loop (ADR 0002): `owner` sent the chain back with `view` as its round's result;
   *  every chain node waits again one round on, and the head `to` gets the quote. */
  loop(owner: string, chain: readonly string[], to: string, quote: string, view: NodeView): void {
    const o = this.nodes.get(owner)!;
    this.put(owner, { ...o, loops: o.loops + 1, view }); // the head may quote or read this round's result
    for (const c of chain) {
      const { round, ...rest } = this.carried(c);
      this.put(c, { ...rest, phase: "waiting", round: round + 1 });
    }
    this.put(to, { ...this.nodes.get(to)!, quote });
  }

  /** The aggregate's view of the scope once every node settled (scheduler/aggregate.ts). */
  entries(): AggregateEntry[] {
    const { index } = this;
    const status = (id: string) => this.settled(id)?.status;
    const endsThatRan = index.ids.filter(
      (id) => index.nodes.get(id)!.kind === "end" && status(id) !== undefined && status(id) !== "skipped",
    );
    // Only through nodes that ran: a failure whose dependent was skipped never reached the end
    // (a join runs with a skipped need), so the end does not speak for it.
    const spokenFor = upstreamOf(index, endsThatRan, (id) => status(id) !== "skipped");
    const out: AggregateEntry[] = [];
    for (const id of index.ids) {
      const m = this.settled(id);
      if (!m) continue;
      const fb = m.fallback !== undefined ? this.settled(m.fallback) : undefined;
      out.push({
        id,
        kind: index.nodes.get(id)!.kind,
        status: m.status,
        recovered: m.recovered,
        handled: fb !== undefined && fb.status !== "skipped",
        upstreamOfEnd: spokenFor.has(id),
      });
    }
    return out;
  }

  private carried(id: string): Carried {
    const { round, loops, quote, view } = this.nodes.get(id)!;
    return { round, loops, ...(quote !== undefined ? { quote } : {}), ...(view ? { view } : {}) };
  }

  /** The one place a node changes state: counts and views follow. */
  private put(id: string, next: NodeState): void {
    const prev = this.nodes.get(id)!;
    if (prev.phase === "running") this.runningCount--;
    if (prev.phase === "paused") this.pausedCount--;
    if (isSettled(prev)) {
      const o = outcomeOf(prev);
      this.tally(o.status, o.selfReported, -1);
    }
    this.nodes.set(id, next);
    if (next.view) this.views[id] = next.view;
    if (next.phase === "running") this.runningCount++;
    if (next.phase === "paused") this.pausedCount++;
    if (isSettled(next)) {
      const o = outcomeOf(next);
      this.tally(o.status, o.selfReported, 1);
    }
  }
}
