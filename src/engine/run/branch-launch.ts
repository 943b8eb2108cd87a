// How the map runner starts one branch: in process (a ScopeRunner in this engine,
// `local`) or through a BranchExecutor port (`redis`, ...). The map runner only
// calls launch() and is told once when the branch ended (ADR 0026).
import { ExecutorLostError } from "../errors.ts";
import { branchKey, nodeKey, type EventBody, type VouchEvent } from "../events.ts";
import type { MapNode } from "../graph/schema.ts";
import type { BranchExecutor, RemoteEvent } from "../ports.ts";
import { scopeIndexOf } from "../scheduler/scope-index.ts";
import { summarizeBranch, verdictOf, type BranchResult } from "./branch-summary.ts";
import { branchJob } from "./branch-job.ts";
import type { RunContext } from "./context.ts";
import { remoteAttempts } from "./remote-attempts.ts";
import type { NodeView } from "./node-view.ts";
import { ScopeRunner, starters } from "./scope-runner.ts";

/** What a launcher knows of the map it runs branches for. */
export interface MapPlace {
  /** The map's id in events (prefixed inside a sub-graph). */
  id: string;
  node: MapNode;
  /** The scope the map sits in: its frame and starters are the branch's too. */
  parent: ScopeRunner;
  signal: AbortSignal;
  failFastTripped(): boolean;
  outer: Record<string, NodeView>;
}

export interface BranchCallbacks {
  onDone(r: BranchResult): void;
  /** The branch waits only on approvals (local branches only). */
  onParked(): void;
}

export interface BranchLauncher {
  launch(index: number, item: unknown, cb: BranchCallbacks): void;
}

/** The branch's scope runs here, in this engine (today's behaviour). */
export function localLauncher(ctx: RunContext, m: MapPlace): BranchLauncher {
  return {
    launch(index, item, cb) {
      const scope: ScopeRunner = new ScopeRunner(
        ctx,
        scopeIndexOf(m.node.branch),
        m.parent.frame,
        {
          map: m.id,
          index,
          item,
          ...(m.node.as ? { as: m.node.as } : {}),
          signal: m.signal,
          failFastTripped: m.failFastTripped,
          outer: m.outer,
        },
        {
          ...starters(m.parent.cb),
          onComplete: () => cb.onDone(summarizeBranch(scope, m.node, index, item)),
          onParked: () => cb.onParked(),
        },
      );
      scope.start();
    },
  };
}

/** The branch becomes a job of `executor`; its events come back and are recorded here. */
export function executorLauncher(ctx: RunContext, executor: BranchExecutor, m: MapPlace): BranchLauncher {
  return {
    launch(index, item, cb) {
      const key = branchKey(m.id, index);
      const job = branchJob(ctx, m.id, m.node, index, item, m.outer, executor.name);
      const branch = { map: m.id, index };
      // Committed before the job exists: a coordinator killed now re-attaches by this id.
      ctx.emitter.emit({ type: "branch.dispatched", branch, executor: executor.name, job: job.jobId, dispatch: job.dispatch });
      ctx.ports.ledger.flush?.();
      const seen = new Set(ctx.resume?.remote?.seen[key] ?? []);
      const token = {};
      let cost = 0;
      const { onAttempt, onRefused } = remoteAttempts(ctx, branch, job.jobId);
      const onEvent = (e: RemoteEvent) => {
        // By job too: a resumed run's new job for the branch numbers its attempts and events from 1 again.
        const dedup = `${job.jobId}:${e.attempt}:${e.seq}`;
        if (seen.has(dedup)) return;
        seen.add(dedup);
        onAttempt(e.attempt, e.worker);
        ctx.emitter.emit({ ...e.body, remote: { worker: e.worker, job: job.jobId, attempt: e.attempt, seq: e.seq } } as EventBody);
        // The run budget is the coordinator's: each finished sitting's cost counts as it streams in.
        const body = e.body as Partial<Extract<VouchEvent, { type: "node.finished" }>>;
        // The commit a worker judged is what a merge merges (never what its pushed branch names).
        if (body.type === "node.finished" && body.workspace !== undefined && typeof body.node === "string")
          ctx.workspaces.noteRemote(nodeKey(body.node, branch), body.workspace);
        if (body.type === "node.finished" && typeof body.cost_usd === "number") {
          cost += body.cost_usd;
          ctx.noteLiveCost(token, cost);
        }
      };
      const stopReason = () => ctx.stop ?? (m.failFastTripped() ? "fail_fast" : null);
      ctx.begin();
      executor
        .run(job, { signal: m.signal, stopReason, onAttempt, onEvent, onRefused })
        .then((o) => {
          for (const k of Object.keys(ctx.counts) as (keyof typeof ctx.counts)[]) ctx.counts[k] = (ctx.counts[k] ?? 0) + (o.counts[k] ?? 0);
          ctx.settleCost(token, { costUsd: cost });
          ctx.costUnknown += o.costUnknown;
          const r = { index, item, status: o.status, output: o.output, error: o.error };
          cb.onDone({ ...r, verdict: verdictOf(m.node, r), ...(o.recovered ? { recovered: true } : {}) });
        })
        .catch((e: unknown) => {
          if (!(e instanceof ExecutorLostError)) return ctx.fail(e);
          ctx.settleCost(token, { costUsd: cost });
          ctx.requestStop("executor");
          const r = { index, item, status: "error" as const, output: null, error: `the executor was lost: ${e.message}` };
          cb.onDone({ ...r, verdict: verdictOf(m.node, r) });
        })
        .finally(() => ctx.end());
    },
  };
}
