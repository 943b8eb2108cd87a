// What each span says, from the event that opens or ends it (ADR 0059). GenAI semantic
// conventions where they fit (`gen_ai.*` on sittings and checks), `vouch.*` for the rest.
// Pure functions of events.
import { CAUSE_STATUS, type Cause, type EventOf, type NodeStatus, type RunStatus, type Tokens } from "../engine/events.ts";
import { nodePath } from "../read/node-path.ts";
import { bounded, type Attributes, type SpanStatus } from "./span-record.ts";

/** The GenAI conventions' `gen_ai.provider.name` of each harness that talks to one provider. */
const PROVIDERS: Record<string, string> = { claude: "anthropic", codex: "openai", gemini: "gcp.gemini" };

/** Keys set only when the value is known: absent is not zero. */
function known(entries: Record<string, string | number | boolean | string[] | null | undefined>): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined && v !== null) out[k] = typeof v === "string" ? bounded(v) : v;
  return out;
}

export function sessionAttributes(e: EventOf<"run.started">): Attributes {
  return known({
    "vouch.run.id": e.run,
    "vouch.graph.name": e.graph,
    "vouch.graph.path": e.graph_path,
    "vouch.graph.digest": e.graph_digest,
    "vouch.version": e.version,
    "vouch.session.resumed": e.resumed,
    "vouch.session.first_seq": e.seq,
    "vouch.harness": e.harness,
    "vouch.concurrency": e.concurrency,
    "vouch.executor": e.executor,
    "vouch.caps.budget_usd": e.caps.budget_usd,
    "vouch.caps.wall_ms": e.caps.wall_ms,
  });
}

export function nodeAttributes(e: EventOf<"node.started"> | EventOf<"node.finished">, kind: string): Attributes {
  return known({
    "vouch.node.id": e.node,
    "vouch.node.path": nodePath(e.node, e.branch),
    "vouch.node.kind": kind,
    "vouch.branch.map": e.branch?.map,
    "vouch.branch.index": e.branch?.index,
  });
}

/** A sitting of an agent node is a GenAI `invoke_agent`; an attempt of a script or merge node is not. */
export function attemptAttributes(e: EventOf<"node.started">): Attributes {
  const agent = e.kind === "agent";
  return known({
    "gen_ai.operation.name": agent ? "invoke_agent" : undefined,
    "gen_ai.agent.name": agent ? nodePath(e.node, e.branch) : undefined,
    "gen_ai.provider.name": agent && e.harness !== undefined && Object.hasOwn(PROVIDERS, e.harness) ? PROVIDERS[e.harness] : undefined,
    "gen_ai.request.model": agent ? e.model : undefined,
    "vouch.harness": e.harness,
    "vouch.node.path": nodePath(e.node, e.branch),
    "vouch.attempt": e.attempt,
    "vouch.round": e.round,
    "vouch.session.mode": e.session?.mode,
  });
}

/** Token counts as the GenAI conventions name them; input counts every input token, cached or not. */
export function usageAttributes(u: { tokens?: Tokens | null; cost_usd?: number | null; turns?: number | null }): Attributes {
  const t = u.tokens ?? undefined;
  return known({
    "gen_ai.usage.input_tokens": t ? t.input + t.cache_read + t.cache_creation : undefined,
    "gen_ai.usage.output_tokens": t?.output,
    "gen_ai.usage.cache_read.input_tokens": t?.cache_read,
    "gen_ai.usage.cache_creation.input_tokens": t?.cache_creation,
    "vouch.cost_usd": u.cost_usd,
    "vouch.turns": u.turns,
  });
}

export function checkAttributes(e: EventOf<"check.finished">): Attributes {
  return known({
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": e.name,
    "vouch.node.path": nodePath(e.node, e.branch),
    "vouch.attempt": e.attempt,
    "vouch.check.expect": e.expect,
    "vouch.check.passed": e.passed,
    "vouch.verdict": e.passed ? "passed" : "failed",
    "vouch.check.reason": e.reason,
    "process.exit.code": e.exit,
    "vouch.check.signal": e.signal,
    "vouch.check.timed_out": e.timed_out,
    "vouch.check.truncated": e.truncated,
  });
}

export function nodeFinishedAttributes(e: EventOf<"node.finished">): Attributes {
  return {
    ...known({
      "vouch.verdict": e.status,
      "vouch.node.qualifier": e.qualifier,
      "vouch.node.cause": e.cause,
      "vouch.node.stop_reason": e.stop_reason,
      "vouch.node.error": e.error,
      "vouch.node.recovered": e.recovered,
      "vouch.node.fallback": e.fallback,
      "vouch.node.attempts": e.attempt,
      "vouch.node.wall_ms": e.wall_ms,
      "vouch.api_retries": e.api_retries,
      "gen_ai.conversation.id": e.session_id,
      "vouch.workspace.files_changed": e.workspace?.files_changed,
      "vouch.workspace.insertions": e.workspace?.insertions,
      "vouch.workspace.deletions": e.workspace?.deletions,
    }),
    ...usageAttributes(e),
  };
}

export function runFinishedAttributes(e: EventOf<"run.finished">): Attributes {
  return known({
    "vouch.run.status": e.status,
    "vouch.run.exit_code": e.exit_code,
    "vouch.run.reason": e.reason,
    "vouch.cost_usd": e.cost_usd,
    "vouch.cost_unknown": e.cost_unknown,
    "vouch.run.wall_ms": e.wall_ms,
    "vouch.count.passed": e.counts.passed,
    "vouch.count.failed": e.counts.failed,
    "vouch.count.error": e.counts.error,
    "vouch.count.skipped": e.counts.skipped,
    "vouch.count.cancelled": e.counts.cancelled,
  });
}

/**
 * The status of a node's (or a branch's) span. ERROR only for an error verdict (no verdict
 * was reached: a crash, a cap, a timeout); a FAIL is a result the run produced, so its span is
 * UNSET with `vouch.verdict = failed`; a pass is OK; skipped and cancelled are UNSET.
 */
export function verdictStatus(status: NodeStatus, message: string | undefined): SpanStatus {
  if (status === "passed") return { code: "ok" };
  if (status === "error") return { code: "error", message: bounded(message ?? "error") };
  return { code: "unset" };
}

/** An attempt that did not decide the node (retried): ERROR when its cause is an error cause. */
export function causeStatus(cause: Cause, message: string): SpanStatus {
  return CAUSE_STATUS[cause] === "error" ? { code: "error", message: bounded(message) } : { code: "unset" };
}

/** The session: OK passed, ERROR error, UNSET for failed (a result), paused and interrupted. */
export function runStatus(status: RunStatus, reason: string | undefined): SpanStatus {
  if (status === "passed") return { code: "ok" };
  if (status === "error") return { code: "error", message: bounded(reason ?? "error") };
  return { code: "unset" };
}

/** Which job of which worker a branch event is about (a job cut off, a result refused). */
export function jobAttributes(e: EventOf<"branch.cut_off" | "branch.result_refused">): Attributes {
  return {
    "vouch.branch.index": e.branch.index,
    "vouch.job": bounded(e.job),
    "vouch.job.attempt": e.attempt,
    "vouch.worker": bounded(e.worker),
  };
}
