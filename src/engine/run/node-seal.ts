// Whether an agent's or a script's processes run sealed (ADR 0040), as the node
// handlers use it: the decision (pure, src/engine/sandbox.ts) from the node's
// settings and what the session's probe found, and the request handed to the
// port. The tree a sealed process may write is the node's worktree (a private
// clone of the user's repository, ADR 0041), else its working folder.
import { decideSeal, NOT_PROBED, type SealDecision, type SealOutcome, type SealRequest } from "../sandbox.ts";
import type { AgentNode, GraphFile, ScriptNode } from "../graph/schema.ts";
import { workspaceOf } from "../workspace/spec.ts";
import type { NodeWorkspace } from "../workspace/workspaces.ts";
import { sealSettings } from "./node-settings.ts";
import type { NodeEnv, NodeResult, NodeRunOptions } from "./contract.ts";
import type { RunOptions } from "./types.ts";
import { walkNodes } from "../graph/graph-walk.ts";
import { emitStarted, simpleResult } from "./node-env.ts";

export interface NodeSeal {
  decision: SealDecision;
  /** Handed to the port when sealed. */
  request?: SealRequest;
}

/** `required` where this machine cannot seal: the node does not run (the plan refuses it before
 *  anything starts; a branch on a worker that cannot seal meets it here). */
export interface RefusedSeal {
  refused: string;
}

/** What of the run's options the decision reads. */
export type SealOptions = Pick<NodeRunOptions, "sandbox" | "sandboxAvailability">;

/** The decision for a node of `graph`, as planned: a refusal when `required` cannot be kept. */
export function planSeal(graph: GraphFile, node: AgentNode | ScriptNode, options: SealOptions): SealOutcome {
  const settings = sealSettings(graph, node, options);
  const subject = { kind: node.kind, workspace: workspaceOf(graph, node) !== null };
  return decideSeal(settings.sandbox, options.sandboxAvailability ?? NOT_PROBED, subject);
}

/** The node's seal once its folder is known. */
export function nodeSeal(
  graph: GraphFile,
  node: AgentNode | ScriptNode,
  options: SealOptions,
  ws: NodeWorkspace | null,
  cwd: string,
): NodeSeal | RefusedSeal {
  const outcome = planSeal(graph, node, options);
  if ("refused" in outcome) return outcome;
  if (!outcome.sealed) return { decision: outcome };
  const { network } = sealSettings(graph, node, options);
  const request: SealRequest = ws ? { tree: ws.path, repository: ws.root, network } : { tree: cwd, network };
  return { decision: outcome, request };
}

/** What the node's events record of it (node.started and node.finished: `sealed`, `unsealed_reason`). */
export function sealRecord(seal: NodeSeal): SealRecord {
  return seal.decision.sealed ? { sealed: true } : { sealed: false, reason: seal.decision.reason };
}

export interface SealRecord {
  sealed: boolean;
  reason?: string;
}

/** `required` and this machine cannot seal: the node starts (so the screen shows it) and ends as an
 *  error; nothing of it runs. */
export function sealRefused(env: NodeEnv, kind: string, seal: RefusedSeal, t0: number, harness?: string): NodeResult {
  emitStarted(env, kind, 1, { ...(harness !== undefined ? { harness } : {}), sealed: false });
  return simpleResult("error", "unavailable", 1, env.run.clock.now() - t0, {
    error: seal.refused,
    seal: { sealed: false, reason: seal.refused },
  });
}

/** Whether any agent or script node of the run would be sealed where sealing works: when none
 *  would, the session need not probe the sandbox at all. */
export function anyNodeSeals(options: Pick<RunOptions, "graph" | "graphPath" | "subgraphs" | "sandbox">): boolean {
  const able: SealOptions = { ...(options.sandbox ? { sandbox: options.sandbox } : {}), sandboxAvailability: { available: true } };
  return walkNodes(options.graph, options.graphPath, options.subgraphs).some((w) => {
    if (w.node.kind !== "agent" && w.node.kind !== "script") return false;
    const seal = planSeal(w.file, w.node, able);
    return "sealed" in seal && seal.sealed;
  });
}
