// One branch's result once its scope is complete (ADR 0002 "Maps", ADR 0006):
// status aggregated like a run, but a branch that passed only because a node
// was recovered keeps that node's status and says `recovered`.
import type { NodeStatus } from "../events.ts";
import type { MapNode } from "../graph/schema.ts";
import { aggregate } from "../scheduler/aggregate.ts";
import { resolvePath } from "../template/render.ts";
import type { ScopeRunner } from "./scope-runner.ts";

export interface BranchResult {
  index: number;
  item: unknown;
  status: NodeStatus;
  verdict: unknown;
  output: unknown;
  error: string | null;
  recovered?: boolean;
}

function outputOfSink(scope: ScopeRunner, id: string): unknown {
  const m = scope.outcomeOf(id);
  if (m?.fallback !== undefined && scope.outcomeOf(m.fallback)?.status !== "skipped") return scope.view[m.fallback]?.output ?? null;
  return scope.view[id]?.output ?? null;
}

export function branchOutput(scope: ScopeRunner, decidedBy: string | undefined): unknown {
  if (decidedBy !== undefined) return scope.view[decidedBy]?.output ?? null;
  const sinks = scope.index.sinks;
  if (sinks.length === 1) return outputOfSink(scope, sinks[0]!);
  return Object.fromEntries(sinks.map((id) => [id, outputOfSink(scope, id)]));
}

export function verdictOf(map: MapNode, r: Omit<BranchResult, "verdict">): unknown {
  if (!map.verdict) return null;
  const found = resolvePath({ output: r.output, status: r.status, item: r.item, index: r.index, error: r.error }, map.verdict.split("."));
  return found.found ? found.value : null;
}

export function summarizeBranch(scope: ScopeRunner, map: MapNode, index: number, item: unknown): BranchResult {
  const entries = scope.entries();
  const lenient = aggregate(entries);
  const strict = aggregate(entries.map((e) => ({ ...e, recovered: false })));
  const recovered = lenient.status === "passed" && strict.status !== "passed";
  const status: NodeStatus = recovered ? strict.status : lenient.status;
  const output = branchOutput(scope, lenient.decidedBy);
  let error: string | null = null;
  if (status !== "passed") {
    for (const id of scope.index.order) {
      const v = scope.view[id];
      if (v && v.status === status && v.error !== undefined) {
        error = v.error;
        break;
      }
    }
  }
  const r: Omit<BranchResult, "verdict"> = { index, item, status, output, error };
  const result: BranchResult = { ...r, verdict: verdictOf(map, r) };
  if (recovered) result.recovered = true;
  return result;
}
