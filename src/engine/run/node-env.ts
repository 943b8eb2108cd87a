// What every node handler does the same way: results for nodes that stopped
// before or without a process, node.started, and the data a command gets. The
// types a handler works with are the node contract's (contract.ts, ADR 0036).
import type { Cause, EventOf, NodeStatus } from "../events.ts";
import { dirname } from "node:path";
import { head } from "../cut.ts";
import { FatalError } from "../errors.ts";
import type { CommandContext, CommandInput } from "../ports.ts";
import { stopOutcome, type RunStop } from "../verdict/stop.ts";
import type { NodeEnv, NodeResult } from "./contract.ts";

export { head, tail } from "../cut.ts";

/** A result for a node that stopped before or without a process. */
export function simpleResult(
  status: NodeStatus,
  cause: Cause | null,
  attempt: number,
  wallMs: number,
  extra: Partial<NodeResult> = {},
): NodeResult {
  return { status, qualifier: null, cause, attempt, stopReason: null, costUsd: null, turns: null, wallMs, failedChecks: [], ...extra };
}

/** The result of a node whose work was cut off by a stop (stopOutcome). */
export function stoppedResult(runStop: RunStop | null, attempt: number, wallMs: number, extra: Partial<NodeResult> = {}): NodeResult {
  const o = stopOutcome(runStop);
  return simpleResult(o.status, o.cause, attempt, wallMs, { error: o.error, ...extra });
}

/** node.started, as every kind says it (an agent names its harness; agents and approvals their prompt). */
export function emitStarted(
  env: NodeEnv,
  kind: string,
  attempt: number,
  more: { harness?: string; prompt?: string; session?: StartedSession; cwd?: string; model?: string; sealed?: boolean } = {},
): void {
  env.run.emitter.emit({
    type: "node.started",
    node: env.id,
    kind,
    attempt,
    ...(more.harness !== undefined ? { harness: more.harness } : {}),
    ...(env.branch ? { branch: env.branch } : {}),
    ...(more.prompt !== undefined ? { prompt: head(more.prompt) } : {}),
    ...(env.round !== undefined ? { round: env.round } : {}),
    ...(more.session !== undefined ? { session: more.session } : {}),
    ...(more.cwd !== undefined ? { cwd: more.cwd } : {}),
    ...(more.model !== undefined ? { model: more.model } : {}),
    ...(more.sealed !== undefined ? { sealed: more.sealed } : {}),
  });
}

export type StartedSession = NonNullable<EventOf<"node.started">["session"]>;

/** Every input as commands get it: strings as is, other values as JSON. */
export function commandInputs(inputs: Record<string, unknown>): CommandInput[] {
  return Object.entries(inputs).map(([name, value]) => ({
    stem: name.toUpperCase(),
    text: typeof value === "string" ? value : JSON.stringify(value),
  }));
}

/** Data reaches commands only as variables and files, never on the command line (docs/architecture.md §7);
 *  inputs as files (and small ones also as variables), decided by the command runner. */
export function commandContext(env: NodeEnv, attempt: number, cwd: string, passEnv: string[], workspace?: string): CommandContext {
  const vars: Record<string, string> = {
    VOUCH_RUN_ID: env.run.options.runId,
    VOUCH_NODE: env.id,
    // Lets a check run a script shipped beside the graph: run: sh "$VOUCH_GRAPH_DIR/lib/x.sh"
    VOUCH_GRAPH_DIR: dirname(env.frame.graphPath),
  };
  // The node's git worktree (ADR 0020): a check can tell it from the user's checkout.
  if (workspace !== undefined) vars.VOUCH_WORKSPACE = workspace;
  const c: CommandContext = {
    runId: env.run.options.runId,
    node: env.id,
    attempt,
    cwd,
    passEnv,
    vars,
    inputs: env.frame.commandInputs,
    state: env.commandState(),
    signal: env.signal,
  };
  if (env.branch) {
    c.branch = env.branch;
    c.item = env.item;
  }
  return c;
}

/** A FatalError (a port not provided, the ledger, the output) ends the run; anything
 *  else a port throws is that node's harness error. */
export function isFatal(e: unknown): e is FatalError {
  return e instanceof FatalError;
}
