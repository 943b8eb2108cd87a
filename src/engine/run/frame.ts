// A frame is the graph a scope belongs to: the top graph, or a sub-graph run by a
// `kind: graph` node (ADR 0024). It holds what is per graph file — defaults and
// checks library, inputs, the file's folder, the id prefix events carry — and what
// a sub-graph's caps bound: process slots, spending and a stop of its own. Every
// sub-frame also answers to its parent, so a sub-graph is bounded by the node's
// caps, its own file's caps and the whole run's at once. The Frame a handler
// sees is the node contract's (contract.ts); these are its two implementations.
import type { BranchRef } from "../events.ts";
import type { GraphFile } from "../graph/schema.ts";
import type { CommandInput, Sitting } from "../ports.ts";
import { Slots } from "../scheduler/slots.ts";
import type { Frame, RunStop } from "./contract.ts";
import type { RunContext } from "./context.ts";
import { commandInputs } from "./node-env.ts";

/** The top graph's frame: the run context itself. */
export function topFrame(ctx: RunContext): Frame {
  return {
    graph: ctx.graph,
    inputs: ctx.inputs,
    commandInputs: ctx.commandInputs,
    graphPath: ctx.options.graphPath,
    prefix: "",
    depth: 0,
    signal: ctx.signal,
    stop: () => ctx.stop,
    acquire: (signal) => ctx.slots.acquire(signal),
    remainingBudget: () => ctx.remainingBudget(),
    noteLiveCost: (token, cost) => ctx.noteLiveCost(token, cost),
    settleCost: (token, sitting) => ctx.settleCost(token, sitting),
  };
}

export interface SubFrameSpec {
  graph: GraphFile;
  graphPath: string;
  inputs: Record<string, unknown>;
  prefix: string;
  branch?: BranchRef;
  /** The tighter of the node's caps.budget_usd and the sub-graph file's (null: none). */
  budgetUsd: number | null;
  concurrency: number | null;
  /** The node's budget was crossed: report it (cap.overrun) and stop the frame. */
  onBudgetCrossed(limit: number, actual: number): void;
}

/** A sub-graph's frame. Its stop aborts only its own work; the parent's stop reaches it through the signal. */
export class SubFrame implements Frame {
  readonly graph: GraphFile;
  readonly inputs: Record<string, unknown>;
  readonly commandInputs: readonly CommandInput[];
  readonly graphPath: string;
  readonly prefix: string;
  readonly depth: number;
  readonly branch?: BranchRef;
  private readonly controller = new AbortController();
  private readonly slots: Slots | null;
  private readonly live = new Map<object, number>();
  private done = 0;
  private ownStop: RunStop | null = null;
  private readonly unlink: () => void;

  constructor(
    private readonly parent: Frame,
    private readonly spec: SubFrameSpec,
  ) {
    this.graph = spec.graph;
    this.inputs = spec.inputs;
    this.commandInputs = commandInputs(spec.inputs);
    this.graphPath = spec.graphPath;
    this.prefix = spec.prefix;
    this.depth = parent.depth + 1;
    if (spec.branch) this.branch = spec.branch;
    this.slots = spec.concurrency === null ? null : new Slots(spec.concurrency);
    const onParentAbort = () => this.controller.abort(parent.signal.reason);
    if (parent.signal.aborted) onParentAbort();
    else parent.signal.addEventListener("abort", onParentAbort, { once: true });
    this.unlink = () => parent.signal.removeEventListener("abort", onParentAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(): RunStop | null {
    return this.parent.stop() ?? this.ownStop;
  }

  /** Stops this sub-graph's work (its budget or wall was crossed); first reason wins. */
  requestStop(reason: RunStop): void {
    if (this.ownStop !== null) return;
    this.ownStop = reason;
    this.controller.abort(new Error(`sub-graph stopped: ${reason}`));
  }

  /** The sub-graph finished: it no longer listens to its parent. */
  close(): void {
    this.unlink();
  }

  /** What the sub-graph has spent so far, live sittings included. */
  spent(): number {
    let total = this.done;
    for (const v of this.live.values()) total += v;
    return total;
  }

  async acquire(signal: AbortSignal): Promise<() => void> {
    const own = this.slots ? await this.slots.acquire(signal) : () => {};
    try {
      const outer = await this.parent.acquire(signal);
      return () => {
        outer();
        own();
      };
    } catch (e) {
      own();
      throw e;
    }
  }

  remainingBudget(): number | null {
    const outer = this.parent.remainingBudget();
    if (this.spec.budgetUsd === null) return outer;
    const mine = this.spec.budgetUsd - this.spent();
    return outer === null ? mine : Math.min(outer, mine);
  }

  noteLiveCost(token: object, costUsd: number): void {
    this.live.set(token, costUsd);
    this.checkBudget();
    this.parent.noteLiveCost(token, costUsd);
  }

  settleCost(token: object, sitting: Pick<Sitting, "costUsd">): void {
    this.live.delete(token);
    if (sitting.costUsd !== null) this.done += sitting.costUsd;
    this.checkBudget();
    this.parent.settleCost(token, sitting);
  }

  private checkBudget(): void {
    const limit = this.spec.budgetUsd;
    if (limit === null || this.ownStop !== null) return;
    const actual = this.spent();
    if (actual > limit) {
      this.spec.onBudgetCrossed(limit, actual);
      this.requestStop("graph_budget");
    }
  }
}
