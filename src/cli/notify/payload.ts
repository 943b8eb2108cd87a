// What a notifier is told (ADR 0064): one JSON object per notification, the same
// for a program (on stdin) and a URL (the POST body). `text` is one line for a
// person (a chat message); the other fields are for programs. Pure.
import type { EventOf } from "../../engine/events.ts";
import type { ApprovalRequest } from "../../engine/ports.ts";
import type { NotifyEvent } from "../../engine/graph/notify-schema.ts";
import { nodePath } from "../../read/node-path.ts";

export interface Notification {
  vouch: 1;
  event: NotifyEvent;
  run: string;
  graph: string;
  /** When vouch noticed (ISO 8601 UTC). */
  at: string;
  /** A line for a person. */
  text: string;
  /** How to see more. */
  show: string;
  status?: string;
  exit_code?: number;
  reason?: string;
  cost_usd?: number;
  counts?: EventOf<"run.finished">["counts"];
  /** approval_waiting: the approval, as vouch show names it, and its message. */
  node?: string;
  prompt?: string;
  /** How to decide it from another terminal. */
  decide?: string;
  /** limit_paused: the harness and when its limit resets (null: unknown). */
  harness?: string;
  resets_at?: string | null;
}

interface RunFacts {
  run: string;
  graph: string;
  at: string;
}

const base = (f: RunFacts, event: NotifyEvent, text: string): Notification => ({
  vouch: 1,
  event,
  run: f.run,
  graph: f.graph,
  at: f.at,
  text,
  show: `vouch show ${f.run}`,
});

export function approvalNotice(f: RunFacts, r: Pick<ApprovalRequest, "node" | "branch" | "prompt">, paused: boolean): Notification {
  const node = nodePath(r.node, r.branch);
  const how = paused
    ? `the run paused; decide with: vouch approve ${f.run} ${node} (or vouch reject), then vouch resume ${f.run}`
    : `decide with: vouch approve ${f.run} ${node} (or vouch reject)`;
  return {
    ...base(
      f,
      "approval_waiting",
      `vouch: ${f.graph} (run ${f.run}) waits for approval ${node}${r.prompt ? `: ${r.prompt.split("\n")[0]}` : ""}`,
    ),
    node,
    ...(r.prompt !== undefined ? { prompt: r.prompt } : {}),
    decide: how,
  };
}

export function limitNotice(f: RunFacts, harness: string, resetsAt: string | null, waiting: boolean): Notification {
  const when = resetsAt === null ? "at an unknown time" : `at ${resetsAt}`;
  const what = waiting ? "waits for" : "paused at";
  return {
    ...base(f, "limit_paused", `vouch: ${f.graph} (run ${f.run}) ${what} the ${harness} usage limit, which resets ${when}`),
    harness,
    resets_at: resetsAt,
  };
}

export function endNotice(f: RunFacts, event: NotifyEvent, e: EventOf<"run.finished">): Notification {
  const c = e.counts;
  const tally = `${c.passed} passed, ${c.failed} failed, ${c.error} error, ${c.skipped} skipped, ${c.cancelled} cancelled`;
  return {
    ...base(f, event, `vouch: ${f.graph} (run ${f.run}) ${e.status}, exit ${e.exit_code}${e.reason ? ` (${e.reason})` : ""}: ${tally}`),
    status: e.status,
    exit_code: e.exit_code,
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    cost_usd: e.cost_usd,
    counts: e.counts,
  };
}
