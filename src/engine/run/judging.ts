// Which parts of the success conjunction a node's definition makes apply, and
// its stamps rendered from the item. Shared by agent and script nodes.
import { renderValue } from "../template/render.ts";
import type { Parts } from "../verdict/conjunction.ts";

export function judgedParts(node: { output?: { format?: string; schema?: unknown }; stamp?: unknown; success?: { exit_zero?: boolean; result_matches?: string; checks?: unknown[] } }): Parts {
  return {
    exitZero: node.success?.exit_zero ?? true,
    outputJudged: node.output?.format === "json" || node.output?.schema !== undefined || node.stamp !== undefined,
    resultMatches: node.success?.result_matches !== undefined,
    checks: node.success?.checks?.length ?? 0,
  };
}

export function renderStamp(stamp: Record<string, string> | undefined, scope: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!stamp) return undefined;
  return Object.fromEntries(Object.entries(stamp).map(([k, t]) => [k, renderValue(t, scope)]));
}
