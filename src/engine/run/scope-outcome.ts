// What a node's result settles as in its scope (ADR 0002 "Recovery"): a node
// that did not pass may be recovered by `exhausted:` (its output rendered in
// the scope's data, the stamp merged), and one that failed or errored may hand
// over to its `fallback:` while the fallback can still be triggered.
import { TemplateError } from "../errors.ts";
import { isObject } from "../json-object.ts";
import type { ScopeNode } from "../scheduler/scope-index.ts";
import { renderDeep } from "../template/render.ts";
import type { NodeResult } from "./contract.ts";
import { renderStamp } from "./judging.ts";

export interface SettledResult {
  result: NodeResult;
  /** `exhausted:` rendered the output the node stands for. */
  recovered: boolean;
  /** The fallback this result triggers. */
  fallback?: string;
}

/** `exhausted:` recovers a node that did not pass (and was not cancelled): its output is rendered
 *  with `error` in scope. A template that cannot be rendered leaves the node unrecovered, and says so. */
export function recover(node: ScopeNode, r: NodeResult, scope: () => Record<string, unknown>): { result: NodeResult; recovered: boolean } {
  if (r.status === "passed" || r.status === "cancelled" || !("exhausted" in node) || !node.exhausted)
    return { result: r, recovered: false };
  try {
    const data = { ...scope(), error: r.error ?? r.cause ?? r.status };
    let output = renderDeep(node.exhausted.output, data);
    const stamp = "stamp" in node ? renderStamp(node.stamp, data) : undefined;
    if (stamp && isObject(output)) output = { ...output, ...stamp };
    return { result: { ...r, output }, recovered: true };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { result: { ...r, error: `${r.error ?? r.cause}; the exhausted output could not be rendered: ${e.message}` }, recovered: false };
  }
}

/** @param canFallBack whether a fallback target can still start (the scope is not stopping, the
 *  scheduler has not triggered or skipped it) */
export function settle(
  node: ScopeNode,
  r: NodeResult,
  scope: () => Record<string, unknown>,
  canFallBack: (target: string) => boolean,
): SettledResult {
  const out: SettledResult = recover(node, r, scope);
  const target = "fallback" in node ? node.fallback : undefined;
  if ((out.result.status === "failed" || out.result.status === "error") && target && canFallBack(target)) out.fallback = target;
  return out;
}
