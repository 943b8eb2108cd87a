// Router, approval and end nodes: no process, no slot, no qualifier (except
// `approved`). Each emits node.started; the scope emits node.finished.
import { TemplateError } from "../errors.ts";
import type { ApprovalNode, EndNode, RouterNode } from "../graph/schema.ts";
import { evaluateCondition } from "../condition.ts";
import { renderDeep, renderText } from "../template/render.ts";
import { emitStarted, head, isFatal, simpleResult, stoppedResult } from "./node-env.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";
import type { ApprovalAnswer } from "../ports.ts";

/** The first route whose condition holds wins; none: `default` (or nothing). */
export function chooseRoute(node: RouterNode, scope: Record<string, unknown>): { route: number | "default" | null; to: string[] } {
  for (let i = 0; i < node.routes.length; i++) {
    const r = node.routes[i]!;
    if (evaluateCondition(r.when, scope)) return { route: i, to: r.to };
  }
  return node.default ? { route: "default", to: node.default } : { route: null, to: [] };
}

export async function runRouterNode(env: NodeEnv, node: RouterNode): Promise<NodeResult> {
  const t0 = env.run.clock.now();
  emitStarted(env, "router", 1);
  const choice = chooseRoute(node, env.scope());
  return simpleResult("passed", null, 1, env.run.clock.now() - t0, { output: choice, chosen: choice.to });
}

export async function runEndNode(env: NodeEnv, node: EndNode): Promise<NodeResult> {
  const t0 = env.run.clock.now();
  emitStarted(env, "end", 1);
  let output: unknown;
  try {
    output = node.output === undefined ? undefined : renderDeep(node.output, env.scope());
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return simpleResult("error", "template_error", 1, env.run.clock.now() - t0, { error: e.message });
  }
  const wallMs = env.run.clock.now() - t0;
  const extra = output === undefined ? {} : { output };
  switch (node.status ?? "success") {
    case "success":
      return simpleResult("passed", null, 1, wallMs, extra);
    case "failure":
      return simpleResult("failed", "end_failure", 1, wallMs, { ...extra, error: `end node ${env.id} says failure` });
    case "error":
      return simpleResult("error", "end_error", 1, wallMs, { ...extra, error: `end node ${env.id} says error` });
  }
}

export async function runApprovalNode(env: NodeEnv, node: ApprovalNode): Promise<NodeResult> {
  const t0 = env.run.clock.now();
  let prompt: string | undefined;
  try {
    prompt = node.prompt === undefined ? undefined : renderText(node.prompt, env.scope());
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    emitStarted(env, "approval", 1);
    return simpleResult("error", "template_error", 1, env.run.clock.now() - t0, { error: e.message });
  }
  emitStarted(env, "approval", 1, prompt !== undefined ? { prompt } : {});
  const request = {
    node: env.id,
    ...(env.branch ? { branch: env.branch } : {}),
    ...(prompt !== undefined ? { prompt: head(prompt) } : {}),
    ...(env.round !== undefined ? { round: env.round } : {}),
  };
  let answer: ApprovalAnswer;
  try {
    answer = await env.run.ports.approvals.decide(request, env.signal);
  } catch (e) {
    if (isFatal(e)) throw e;
    if (env.signal.aborted) return stoppedResult(env.runStop(), 1, env.run.clock.now() - t0);
    return simpleResult("error", "harness_error", 1, env.run.clock.now() - t0, {
      error: `the approval could not be asked: ${(e as Error).message}`,
    });
  }
  const wallMs = env.run.clock.now() - t0;
  if (answer === "pause") return pausedResult(wallMs, prompt);
  const verdict = typeof answer === "string" ? { decision: answer } : answer;
  // Who decided and their note (ADR 0062), when the answer says: the evidence's detail.
  const by = verdict.by ? `by ${verdict.by}` : "";
  const said = [by, verdict.note ?? ""].filter((p) => p !== "").join(": ");
  const detail = said === "" ? {} : { detail: head(said) };
  if (verdict.decision === "approve") {
    return simpleResult("passed", null, 1, wallMs, {
      qualifier: "approved",
      evidence: [{ part: "approval", outcome: "passed", ...detail }],
    });
  }
  return simpleResult("failed", "rejected", 1, wallMs, {
    error: `${env.id} was rejected${said === "" ? "" : `${by ? " " : ": "}${head(said)}`}`,
    evidence: [{ part: "approval", outcome: "failed", ...detail }],
  });
}

function pausedResult(wallMs: number, prompt: string | undefined): NodeResult {
  return simpleResult("passed", null, 1, wallMs, { paused: prompt === undefined ? {} : { prompt: head(prompt) } });
}
