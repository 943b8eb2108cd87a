// A map node: resolves `over`, runs one branch scope per item with at most
// `max_concurrency` branches live (default: the run's concurrency, ADR 0006),
// collects results in input order, and decides by `passes`. Only live branches
// hold a scope; a finished branch leaves one small result record behind.
import { branchKey } from "../events.ts";
import type { MapNode } from "../graph/schema.ts";
import { countBranches, decideMap } from "../scheduler/aggregate.ts";
import { resolvePath, stringify } from "../template/render.ts";
import { verdictOf, type BranchResult } from "./branch-summary.ts";
import { executorLauncher, localLauncher, type BranchLauncher } from "./branch-launch.ts";
import type { RunContext } from "./context.ts";
import { simpleResult, stoppedResult } from "./node-env.ts";
import type { NodeResult } from "./contract.ts";
import type { ScopeRunner } from "./scope-runner.ts";
import { keptBranchCounts } from "./scope-resume.ts";
import { isObject } from "../json-object.ts";

const LABEL_LIMIT = 80;
export function branchLabel(item: unknown): string {
  if (isObject(item)) {
    for (const key of ["id", "name", "title"]) {
      const v = (item as Record<string, unknown>)[key];
      if (typeof v === "string" || typeof v === "number") return String(v).slice(0, LABEL_LIMIT);
    }
  }
  const text = stringify(item).replace(/\s+/g, " ");
  return text.length > LABEL_LIMIT ? `${text.slice(0, LABEL_LIMIT - 1)}…` : text;
}

export class MapRunner {
  private readonly controller = new AbortController();
  private items: unknown[] = [];
  private results: BranchResult[] = [];
  private next = 0;
  private live = 0;
  private finished = 0;
  private readonly parked = new Set<number>();
  private tripped = false;
  private pumping = false;
  private completed = false;
  private t0 = 0;
  private readonly unlink: () => void;
  /** The map's id in events and branch refs ("review/m" inside sub-graph review). */
  private readonly id: string;
  /** In process or through the run's executor: this runner does not know which. */
  private readonly launcher: BranchLauncher;

  constructor(
    private readonly ctx: RunContext,
    private readonly parent: ScopeRunner,
    localId: string,
    private readonly node: MapNode,
    private readonly done: (r: NodeResult) => void,
  ) {
    this.id = parent.key(localId);
    // The scope's signal: the run's, or a sub-graph's (which its own caps can stop).
    const outer = parent.signal;
    const onRunAbort = () => this.controller.abort(outer.reason);
    if (outer.aborted) onRunAbort();
    else outer.addEventListener("abort", onRunAbort, { once: true });
    this.unlink = () => outer.removeEventListener("abort", onRunAbort);
    const place = { id: this.id, node, parent, signal: this.controller.signal, failFastTripped: () => this.tripped, outer: parent.view };
    // Only the top graph's maps go to an executor: a job carries one graph file's map.
    const executor = parent.frame.depth === 0 ? ctx.options.executor : undefined;
    this.launcher = executor ? executorLauncher(ctx, executor, place) : localLauncher(ctx, place);
  }

  private get limit(): number {
    return this.node.max_concurrency ?? this.ctx.limits.concurrency;
  }

  start(): void {
    this.t0 = this.ctx.clock.now();
    const over = resolvePath(this.parent.scope(), this.node.over.split("."));
    const items = over.found ? listOf(over.value) : null;
    this.ctx.emitter.emit({ type: "node.started", node: this.id, kind: "map", attempt: 1, ...(items ? { items: items.length } : {}) });
    if (!items) {
      const what = over.found ? `a ${over.value === null ? "null" : typeof over.value}` : `missing (at ${over.missingAt})`;
      return this.finish(simpleResult("error", "map_error", 1, 0, { error: `over: ${this.node.over} is not a list (it is ${what})` }));
    }
    this.items = items;
    this.results = new Array(this.items.length);
    this.pump();
  }

  /** Starts branches while there is room. Re-entrant calls (a branch that
   *  completes while it starts) return at once: the outer loop goes on, so the
   *  stack stays flat however many branches finish synchronously. */
  private pump(): void {
    if (this.pumping || this.completed) return;
    this.pumping = true;
    try {
      while (this.next < this.items.length && (this.live < this.limit || this.stopping())) {
        if (this.stopping()) this.cancelUnstarted(this.next++);
        else this.startBranch(this.next++);
      }
    } finally {
      this.pumping = false;
    }
    if (this.finished === this.items.length) {
      this.completed = true;
      this.complete();
    }
  }

  private stopping(): boolean {
    return this.parent.frame.stop() !== null || this.tripped;
  }

  private startBranch(index: number): void {
    const item = this.items[index];
    const kept = this.ctx.resume?.branches[branchKey(this.id, index)];
    if (kept) {
      this.results[index] = { index, item, status: "passed", verdict: kept.verdict, output: kept.output ?? null, error: null };
      this.finished++;
      keptBranchCounts(this.ctx.resume, branchKey(this.id, index), this.ctx.counts);
      return;
    }
    const branch = { map: this.id, index };
    this.ctx.emitter.emit({ type: "branch.started", branch, item, label: branchLabel(item) });
    this.live++;
    this.launcher.launch(index, item, {
      onDone: (r) => this.branchDone(index, r),
      onParked: () => {
        this.parked.add(index);
        this.live--;
        this.pump();
      },
    });
  }

  private cancelUnstarted(index: number): void {
    const item = this.items[index];
    const r = { index, item, status: "cancelled" as const, output: null, error: "cancelled before it started" };
    this.record({ ...r, verdict: verdictOf(this.node, r) });
  }

  private branchDone(index: number, r: BranchResult): void {
    if (this.parked.delete(index)) this.live++;
    this.live--;
    this.record(r);
    if (this.node.fail_fast && !this.tripped && r.status !== "passed" && !r.recovered && this.parent.frame.stop() === null) {
      this.tripped = true;
      this.controller.abort(new Error(`fail_fast: branch ${index} of ${this.id} did not pass`));
      // Branches parked at an approval would never finish: they end cancelled too.
      this.ctx.defer(() => {
        for (const p of [...this.ctx.paused]) if (p.branch?.map === this.id) p.cancel();
      });
    }
    this.pump();
  }

  private record(r: BranchResult): void {
    this.results[r.index] = r;
    this.finished++;
    const ev = {
      type: "branch.finished" as const,
      branch: { map: this.id, index: r.index },
      status: r.status,
      verdict: r.verdict,
      ...(r.output !== null && r.output !== undefined ? { output: r.output } : {}),
      ...(r.error !== null ? { error: r.error } : {}),
      ...(r.recovered ? { recovered: true } : {}),
    };
    this.ctx.emitter.emit(ev);
  }

  private complete(): void {
    const counts = countBranches(this.results);
    const wallMs = this.ctx.clock.now() - this.t0;
    const output = { results: this.results, counts };
    const stop = this.parent.frame.stop();
    if (stop !== null) return this.finish(stoppedResult(stop, 1, wallMs, { output, results: this.results }));
    const d = decideMap(counts, this.items.length, this.node.passes, false);
    const extra: Partial<NodeResult> = { output, results: this.results };
    if (d.status !== "passed") {
      const rule = typeof this.node.passes === "object" ? `min ${this.node.passes.min}` : (this.node.passes ?? "all");
      extra.error = `${counts.passed} of ${this.items.length} branches passed (${counts.failed} failed, ${counts.error} error, ${counts.cancelled} cancelled; passes: ${rule})`;
    }
    this.finish(simpleResult(d.status, d.cause, 1, wallMs, extra));
  }

  private finish(r: NodeResult): void {
    this.unlink();
    this.done(r);
  }
}

/** What a map runs over: a list as is; a text (an input such as `git diff --name-only`
 *  output, or a script's stdout) runs once per non-empty line, trimmed. */
export function listOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (typeof value === "string")
    return value
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
  return null;
}
