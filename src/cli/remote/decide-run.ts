// Deciding an approval of a run from another process (ADR 0062): the approval
// must wait (started, not finished); the decision is recorded in the requests
// table — the first one recorded for that approval is the one that stands —
// and a live run takes it within a poll. Waits, bounded, for the node's end.
import { systemClock } from "../../engine/clock.ts";
import { UsageError } from "../../engine/errors.ts";
import { nodeKey, type EventOf } from "../../engine/events.ts";
import type { Decision } from "../../engine/run/decisions.ts";
import { runLockState, type DecisionRequest, type RunLedger } from "../../ledger/index.ts";
import { namesNode, nodePath, parseNodePath } from "../../read/node-path.ts";
import { localTime } from "../../text/clock.ts";
import { followRun } from "./follow.ts";
import { approvalsOf, type ApprovalInstance } from "./open-approvals.ts";
import { requester } from "./requester.ts";

export type DecideOutcome =
  /** Another decision of this approval was recorded first; it stands. */
  | { kind: "already"; runId: string; path: string; request: DecisionRequest }
  /** Recorded; the run is not running: its resume takes it. */
  | { kind: "recorded"; runId: string; path: string; status: string }
  /** Recorded and taken: the approval node finished. */
  | { kind: "taken"; runId: string; path: string; finished: EventOf<"node.finished"> }
  /** Recorded; the run ended (or was not followed, wait 0) before the node finished. */
  | { kind: "pending"; runId: string; path: string; ended: boolean };

export interface DecideSpec {
  ledger: RunLedger;
  ref: string;
  node: string;
  decision: Decision;
  note?: string;
  env: Record<string, string | undefined>;
  waitMs: number;
}

/** The one waiting approval `arg` names; UsageError (exit 2) saying why when there is none or several. */
export function waitingApproval(runId: string, events: Parameters<typeof approvalsOf>[0], arg: string): ApprovalInstance {
  const ref = parseNodePath(arg);
  if (ref === null)
    throw new UsageError(`"${arg}" is not a node label`, "give the approval node's id (gate), or in a map branch: each[3].gate");
  const { waiting, decided } = approvalsOf(events);
  const named = waiting.filter((w) => namesNode(ref, w.node, w.branch));
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    throw new UsageError(
      `${arg} waits in ${named.length} branches of run ${runId}: name one`,
      `for example: ${named
        .slice(0, 3)
        .map((w) => nodePath(w.node, w.branch))
        .join(", ")}`,
    );
  const done = decided.find((d) => namesNode(ref, d.node, d.branch));
  if (done)
    throw new UsageError(
      `${nodePath(done.node, done.branch)} was already ${done.decision === "approve" ? "approved" : "rejected"} at ${localTime(done.at)} in run ${runId}: a decision recorded in the ledger is final`,
    );
  const list = waiting.map((w) => nodePath(w.node, w.branch)).join(", ");
  throw new UsageError(
    `run ${runId} has no approval ${arg} waiting for a decision (${list === "" ? "none waits" : `waiting: ${list}`})`,
    `see what the run is doing with: vouch show ${runId}`,
  );
}

export async function decideRun(s: DecideSpec): Promise<DecideOutcome> {
  const { ledger } = s;
  const runId = ledger.resolveRun(s.ref);
  const events = ledger.runEvents(runId);
  const w = waitingApproval(runId, events, s.node);
  const path = nodePath(w.node, w.branch);
  const afterSeq = events.length > 0 ? events[events.length - 1]!.seq : -1;
  const ask = {
    node: w.node,
    ...(w.branch ? { branch: w.branch } : {}),
    round: w.round,
    decision: s.decision,
    ...(s.note !== undefined ? { note: s.note } : {}),
    via: "command" as const,
    by: requester(s.env),
    at: new Date().toISOString(),
  };
  const lockState = () => runLockState(ledger.home, runId);
  // Before recording: a live run may take the decision and end at once, letting go of its lock.
  const live = lockState() === "held";
  const { won, request } = ledger.requests.decide(runId, ask);
  if (!won) return { kind: "already", runId, path, request };
  if (!live) return { kind: "recorded", runId, path, status: ledger.runSummary(runId).run.status };
  if (s.waitMs <= 0) return { kind: "pending", runId, path, ended: false };
  const key = nodeKey(w.node, w.branch);
  const end = await followRun(ledger, runId, () => {}, {
    afterSeq,
    signal: AbortSignal.timeout(s.waitMs),
    lockState,
    sleep: systemClock.sleep,
    stop: (e) => e.type === "node.finished" && nodeKey(e.node, e.branch) === key,
  });
  if (end.kind === "matched") return { kind: "taken", runId, path, finished: end.event as EventOf<"node.finished"> };
  return { kind: "pending", runId, path, ended: end.kind !== "left" };
}
