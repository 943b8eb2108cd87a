// A `kind: graph` node (ADR 0024): runs another graph file as a nested scope —
// the same ScopeRunner the top graph and map branches use, in a SubFrame that
// holds the sub-graph's inputs, checks library, id prefix and caps. The
// sub-graph's aggregate is the node's status, its deciding end node's output
// the node's output, and the worst qualifier of its passes the node's qualifier.
import { TemplateError } from "../errors.ts";
import type { Qualifier } from "../events.ts";
import { usedPath } from "../graph/graph-walk.ts";
import type { SubgraphNode } from "../graph/schema.ts";
import { aggregate } from "../scheduler/aggregate.ts";
import { scopeIndexOf } from "../scheduler/scope-index.ts";
import { renderDeep } from "../template/render.ts";
import { branchOutput } from "./branch-summary.ts";
import type { RunContext } from "./context.ts";
import { SubFrame } from "./frame.ts";
import { simpleResult, stoppedResult } from "./node-env.ts";
import type { NodeResult } from "./contract.ts";
import { ScopeRunner, starters } from "./scope-runner.ts";
import { subgraphInputs } from "./subgraph-inputs.ts";

/** Worst last: a pass only the node's own words back is the weakest. */
const QUALIFIER_RANK: Record<Qualifier, number> = { verified: 0, approved: 1, "exit-only": 2, "self-reported": 3 };

/** The worst qualifier among the passes of a scope's nodes (null: none carries one). */
export function worstQualifier(qualifiers: Iterable<Qualifier | undefined>): Qualifier | null {
  let worst: Qualifier | null = null;
  for (const q of qualifiers) if (q !== undefined && (worst === null || QUALIFIER_RANK[q] > QUALIFIER_RANK[worst])) worst = q;
  return worst;
}

const smaller = (a: number | undefined, b: number | undefined): number | null =>
  a === undefined ? (b ?? null) : b === undefined ? a : Math.min(a, b);

export class SubgraphRunner {
  private readonly key: string;
  private readonly timer = new AbortController();
  private frame: SubFrame | null = null;
  private scope: ScopeRunner | null = null;
  private t0 = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly parent: ScopeRunner,
    localId: string,
    private readonly node: SubgraphNode,
    private readonly done: (r: NodeResult) => void,
  ) {
    this.key = parent.key(localId);
  }

  start(): void {
    this.t0 = this.ctx.clock.now();
    const branch = this.parent.branchRef;
    this.ctx.emitter.emit({ type: "node.started", node: this.key, kind: "graph", attempt: 1, ...(branch ? { branch } : {}) });
    const path = usedPath(this.parent.frame.graphPath, this.node.use);
    const graph = this.ctx.options.subgraphs?.get(path);
    // The loader loads every used file before a run: a missing one is a wiring bug, not a user mistake.
    if (!graph) throw new Error(`internal: sub-graph ${path} was not loaded`);
    let inputs: Record<string, unknown>;
    try {
      inputs = subgraphInputs(graph, renderDeep(this.node.inputs ?? {}, this.parent.scope()));
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      return this.done(simpleResult("error", "template_error", 1, 0, { error: `inputs: ${e.message}` }));
    }
    this.frame = new SubFrame(this.parent.frame, {
      graph,
      graphPath: path,
      inputs,
      prefix: `${this.key}/`,
      ...(branch ? { branch } : {}),
      budgetUsd: smaller(this.node.caps?.budget_usd, graph.caps?.budget_usd),
      concurrency: graph.concurrency ?? null,
      onBudgetCrossed: (limit, actual) => this.crossed("budget_usd", limit, actual),
    });
    this.linkWall(smaller(this.node.caps?.wall, graph.caps?.wall));
    const scope: ScopeRunner = new ScopeRunner(this.ctx, scopeIndexOf(graph.nodes), this.frame, undefined, {
      ...starters(this.parent.cb),
      onComplete: () => this.complete(scope),
    });
    this.scope = scope;
    scope.start();
  }

  /** The sub-graph's wall (the node's caps.wall or its file's caps.wall): crossing it stops the sub-graph. */
  private linkWall(wallMs: number | null): void {
    if (wallMs === null) return;
    this.ctx.clock.sleep(wallMs, this.timer.signal).then(
      () => {
        if (this.frame === null || this.scope === null) return;
        try {
          this.crossed("wall", wallMs, this.ctx.clock.now() - this.t0);
        } catch (e) {
          this.ctx.fail(e); // a timer has no caller to throw to
        }
      },
      () => {},
    );
  }

  /** A cap of the graph node was crossed: report it, stop the sub-graph, and end its waiting approvals. */
  private crossed(cap: "budget_usd" | "wall", limit: number, actual: number): void {
    const frame = this.frame!;
    if (frame.stop() !== null) return;
    const branch = this.parent.branchRef;
    this.ctx.emitter.emit({ type: "cap.overrun", node: this.key, ...(branch ? { branch } : {}), scope: "node", cap, limit, actual });
    frame.requestStop(cap === "wall" ? "graph_wall" : "graph_budget");
    this.ctx.defer(() => {
      for (const p of [...this.ctx.paused])
        if (p.node.startsWith(frame.prefix) && p.branch?.index === branch?.index && p.branch?.map === branch?.map) p.cancel();
    });
  }

  private complete(scope: ScopeRunner): void {
    const frame = this.frame!;
    this.timer.abort();
    frame.close();
    const wallMs = this.ctx.clock.now() - this.t0;
    // Like a map's, the node's own cost stays null: its nodes carry what was spent, and a
    // total over node.finished events must not count it twice.
    const spent = {};
    const agg = aggregate(scope.entries());
    const output = branchOutput(scope, agg.decidedBy);
    const stop = frame.stop();
    if (stop !== null) return this.done(stoppedResult(stop, 1, wallMs, { ...spent, output }));
    if (agg.status === "passed") {
      const qualifier = worstQualifier(
        scope.index.ids.map((id) => (scope.view[id]?.status === "passed" ? scope.view[id]?.qualifier : undefined)),
      );
      return this.done(simpleResult("passed", null, 1, wallMs, { ...spent, qualifier, output }));
    }
    if (agg.status === "cancelled") return this.done(stoppedResult(null, 1, wallMs, { ...spent, output }));
    const error = firstError(scope, agg.status) ?? `sub-graph ${frame.graph.name} ended ${agg.status}`;
    this.done(
      simpleResult(agg.status, agg.status === "failed" ? "graph_failed" : "graph_error", 1, wallMs, {
        ...spent,
        output,
        error: `${error} (in ${this.node.use})`,
      }),
    );
  }
}

/** The first error text, in graph order, of a node that ended with the sub-graph's status. */
function firstError(scope: ScopeRunner, status: string): string | undefined {
  for (const id of scope.index.order) {
    const v = scope.view[id];
    if (v && v.status === status && v.error !== undefined) return `${scope.key(id)}: ${v.error}`;
  }
  return undefined;
}
